"""Baby-Eating Eights: PettingZoo AEC environment.

Crazy Eights grown wild: 54 cards with two jokers told apart, six cards
each, and an effect on nearly every card (Aces and Jokers make the next
player draw, Twos and Kings skip, Fours reverse, Fives and Sevens pick a
target, Tens drop again, Queens start a round of Jacks, the King of Hearts
redeals everything); Four in a Row, the Guarantee Joker combo, teams and an
expanded deck. You must play if you can (Eights, Jokers and the King of
Hearts may be held back); if you cannot, you draw until you can. Rules and how they
are read here: ``docs/rules/baby_eating_eights.md``.

| | |
| --- | --- |
| Import | `from eights.envs import baby_eating_eights_v0` |
| Agents | `player_0` .. `player_{n-1}` |
| Actions | Discrete(131) |
| Observations | Dict(`observation`: Box(0, 1, (271 + 24n,), float32), `action_mask`: Box(0, 1, (131,), int8)) |
| Rewards | +1 winners (a whole team wins together), -1 others; `reward="score"`: by cards left |
| Options | `num_players` (2-8, 2-17 expanded), `deck_type` (auto), `hand_size` (6), `teams` (0), `guarantee_joker` (RJ), `guarantee_cards_per_player` (3), `combo_replaces_draw_four` (False), `three_cancels_king_of_hearts` (True), `ten_again_draws` (True), `six_nine_four_in_a_row` (True), `two_player_king` (again), `reward`, `max_turns` (3000) |
| Env options | `render_mode` (None, "ansi", "human"), `render_seat` (whose view `render()` shows: None, the agent to act; a seat 0..n-1 or agent name; "referee", every hand), `illegal_action` ("raise": IllegalActionError, game unchanged; "terminate": the game ends, `illegal_reward` (-1) to the agent that played it, 0 to the others), `illegal_reward` (-1) |

## Action space

| id | text | when |
| --- | --- | --- |
| 0-51 | `play <card>` | a card matching the number (Six = Nine) or the suit to follow, an 8, the King of Hearts when it matches; in the Jack round, the Jack to end on top |
| 52-55 | `suit C` .. `suit S` | after an 8 or a Joker |
| 56 | `draw` | hold back the wild cards (8, Joker, King of Hearts) you could play: draw until something playable comes |
| 57 | `pass` | the Guarantee Joker's mode: a player who cannot match is skipped |
| 58-59 | `play RJ`, `play BJ` | a Joker, on anything |
| 60-76 | `target 0` .. `target 16` | after a Five (any seat, yourself too) or a Seven (an opponent, or your ally) |
| 77-130 | `bottom <card>` | Four in a Row: the card of your hand you put under the pile |

## Observation space

ENCODER_TABLE

Per-seat features are relative to the observer. `action_mask` is all zeros for
a seat that is not to act.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from ..cards import NUM_KINDS
from ..engines.baby_eating_eights import (
    BabyEatingEightsConfig,
    BabyEatingEightsGame,
    BabyEatingView,
)
from .base import variant_env
from .encoding import PileEncoder

#: the view fields of the `flags` part, in order
_FLAGS = ("three_live", "locked", "free", "extra_drop", "effect_cancelled", "guarantee_spent")
_read_flags = attrgetter(*_FLAGS)


class BabyEatingEncoder(PileEncoder):
    """The pile layout over 54 cards, plus this variant's effects, teams and Guarantee mode."""

    def __init__(self, config: BabyEatingEightsConfig):
        super().__init__(config, score_scale=config.deck_size, cards=NUM_KINDS,
                         phases=BabyEatingView.phase_names, total_cards=config.deck_size)
        n, team, start = config.num_players, config.team_of(), self.offsets["allies"]
        #: per observer seat, the `allies` entries that are 1 (fixed by the config)
        self._allies = [[start + k - 1 for k in range(1, n) if team[(seat + k) % n] == team[seat]]
                        for seat in range(n)]

    def extra_parts(self, config) -> list[tuple[str, int, str]]:
        n = config.num_players
        return [
            ("flags", len(_FLAGS), "1/0: " + ", ".join(_FLAGS)),
            ("effect", NUM_KINDS, "one-hot: the card whose effect is still to happen"),
            ("run", 2, "cards of one number in a row on top / 4, and that number / 13"),
            ("allies", n - 1, "1 for each opponent on the observer's team, relative order"),
            ("victim", n, "one-hot: the seat the Guarantee Joker's mode is on, observer first"),
            ("actor", n, "one-hot: whose turn it is (not who acts out of turn), observer first"),
        ]

    def encode_extra(self, view: BabyEatingView, out: np.ndarray) -> None:
        o, n, seat = self.offsets, len(view.hand_sizes), view.seat
        flags = o["flags"]
        idx = [flags + k for k, on in enumerate(_read_flags(view)) if on]
        idx += self._allies[seat]
        if view.effect_card >= 0:
            idx.append(o["effect"] + view.effect_card)
        if view.guarantee_victim >= 0:
            idx.append(o["victim"] + (view.guarantee_victim - seat) % n)
        if view.actor >= 0:
            idx.append(o["actor"] + (view.actor - seat) % n)
        out[idx] = 1.0
        run = o["run"]
        out[run] = min(view.run_length / 4.0, 1.0)
        out[run + 1] = max(view.run_number, 0) / 13.0


def encoder(config: BabyEatingEightsConfig) -> BabyEatingEncoder:
    return BabyEatingEncoder(config)


raw_env, env = variant_env(BabyEatingEightsGame, encoder, __name__)
__doc__ = __doc__.replace("ENCODER_TABLE", encoder(BabyEatingEightsConfig.from_options(
    num_players=2)).table() + "\n\n(With n players the per-seat parts have n or n - 1 entries.)")
