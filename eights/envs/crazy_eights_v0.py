"""Crazy Eights: PettingZoo AEC environment.

2-8 players shed their hands onto one discard pile, matching its rank or
suit; 8s are wild and name the suit; J reverses (a skip with two players),
Q skips, K makes the next player draw two. Rules and how they
are read here: ``docs/rules/crazy_eights.md``.

| | |
| --- | --- |
| Import | `from eights.envs import crazy_eights_v0` |
| Agents | `player_0` .. `player_{n-1}` |
| Actions | Discrete(58) |
| Observations | Dict(`observation`: Box(0, 1, (201 + 21n,), float32), `action_mask`: Box(0, 1, (58,), int8)) |
| Rewards | +1 winner(s), -1 others at the end; `reward="score"`: points vs the table mean / 100 |
| Options | `num_players` (2-8), `num_decks` (2), `hand_size` (7), `match` (False), `target_score` (500), `king_draw` (2), `may_keep_drawn_card` (False), `reward`, `max_turns` (2000) |
| Env options | `render_mode` (None, "ansi", "human"), `render_seat` (whose view `render()` shows: None, the agent to act; a seat 0..n-1 or agent name; "referee", every hand), `illegal_action` ("raise": IllegalActionError, game unchanged; "terminate": the game ends, `illegal_reward` (-1) to the agent that played it, 0 to the others), `illegal_reward` (-1) |

## Action space

| id | text | when |
| --- | --- | --- |
| 0-51 | `play <card>` (card id = suit*13 + rank-1; suits C, D, H, S) | a card matching the top card's rank or the suit to follow, or any 8; after a draw only the drawn card |
| 52-55 | `suit C`, `suit D`, `suit H`, `suit S` | right after playing an 8 |
| 56 | `draw` | your turn, while a card can be drawn (even if you could play) |
| 57 | `pass` | after drawing a playable card you keep; forced otherwise |

Steps with one legal action (an unplayable draw's pass) are applied by the
engine and never reach an agent.

## Observation space

Seats are relative to the observer. With n players (n = 2 shown):

| index | feature | meaning |
| --- | --- | --- |
| 0-51 | `hand` | copies of each card in the observer's hand / num_decks |
| 52-103 | `top` | one-hot: the top card of the discard pile |
| 104-107 | `suit` | one-hot: the suit to follow (C, D, H, S), an 8's choice included |
| 108-112 | `phase` | one-hot: play, choose suit, after draw, last card, challenge |
| 113-164 | `drawn` | one-hot: the card the observer just drew, while deciding whether to play it |
| 165 | `pending` | cards the player to act must pick up (stacked 2s) / 20, at most 1 |
| 166 | `direction` | 1 clockwise, 0 reversed |
| 167-168 | `to_act` | one-hot: who acts now, relative seat (0 = observer) |
| 169 | `hand_sizes` | each opponent's hand size / total cards, relative seat order |
| 170 | `offender` | one-hot: the opponent whose missed call may be challenged |
| 171-174 | `drew_suit` | per opponent (4 each), one-hot: the suit to follow when it last drew rather than play, until it plays again |
| 175-187 | `drew_rank` | per opponent (13 each), one-hot: the top card's rank then (A first) |
| 188 | `stock` | stock size / total cards |
| 189-240 | `discards` | copies of each card in the discard pile / num_decks |
| 241-242 | `scores` | match scores / 500, at most 1, observer first |

`to_act` and `scores` have n entries, `hand_sizes` and `offender` n - 1,
`drew_suit` 4(n - 1) and `drew_rank` 13(n - 1); indices after them shift
accordingly. `drew_suit`/`drew_rank` say what an opponent did not play on
when it last drew (a player who draws may well hold no card of that suit or
rank); they clear when it plays. `action_mask` is all zeros for a seat
that is not to act.
"""

from __future__ import annotations

from ..engines.crazy_eights import CrazyEightsConfig, CrazyEightsGame
from .base import variant_env
from .encoding import PileEncoder


def encoder(config: CrazyEightsConfig) -> PileEncoder:
    return PileEncoder(config, score_scale=config.target_score)


raw_env, env = variant_env(CrazyEightsGame, encoder, __name__)
