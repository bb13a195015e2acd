"""The compiled cores against the Python engines, game for game, at full size.

``eights.vector`` has two implementations of its tables: :class:`CompiledTables`
(a numba rewrite of a variant's rules) and :class:`PythonTables` (one
``eights.engines`` engine per table, the reference). Dealt from the same
seeds and given the same actions they must play the same games, so this
script plays them side by side and, at every decision, compares the seat to
act, every seat's observation and legal mask (bit for bit), the rewards, the
end flags and the heuristic's choice. A rewrite of rules drifts in the rare
corners (a reshuffle in the middle of a King's draw, a blocked table, a match
hand ending in a forced move, a challenge that empties the stock), which only
many games reach: the unit tests (``tests/vector/test_<variant>.py``) run a
few hundred games per config from this module, this script the full count,
for each variant with a compiled core (:data:`CONFIGS`)::

    .venv/bin/python scripts/vector_differential.py                  # 10,000 games per config
    .venv/bin/python scripts/vector_differential.py --games 500 --configs default 8p
    .venv/bin/python scripts/vector_differential.py --variant livery_eights
    .venv/bin/python scripts/vector_differential.py --version 1 --games 1000

It prints the games and decisions compared per config, and the first
mismatch with what replays it (the table's game seed and its actions); the
exit code is 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from eights.vector import CompiledTables, PythonTables

#: the variant compared when none is named
DEFAULT_VARIANT = "crazy_eights"

def house_card_set() -> str:
    """Our Crazier Eights card set with two cards changed to reach what ours does not: Moat
    makes its holder draw one card more whoever causes it (a positive change, any cause),
    and Doom makes a chosen opponent with three cards or fewer lose, then its player draws
    (a step after a lose, a hand test of the chosen player at most)."""
    from importlib import resources

    text = resources.files("eights.data").joinpath("crazier_eights.toml").read_text("utf-8")
    changes = (
        ('substitute = [{ on = "draw", cause = "opponent", change = -1 }]',
         'substitute = [{ on = "draw", cause = "any", change = 1 }]'),
        ('{ do = "if", test = { hand_at_least = 12, who = "chosen" }, then = [{ do = "lose", '
         'who = "chosen" }] }]',
         '{ do = "if", test = { hand_at_most = 3, who = "chosen" }, then = [{ do = "lose", '
         'who = "chosen" }, { do = "draw", who = "you", count = 1 }] }]'),
    )
    for old, new in changes:
        if old not in text:
            raise ValueError(f"house_card_set: our card set no longer has {old!r}")
        text = text.replace(old, new, 1)
    return text.replace('name = "', 'name = "House ', 1)


#: per variant, the option configs compared: the defaults, then the corners of the rules
#: each one reaches
CONFIGS: dict[str, dict[str, dict[str, Any]]] = {
    "crazy_eights": {
        "default": {},
        "3p": {"num_players": 3},
        "5p_1deck_5cards": {"num_players": 5, "num_decks": 1, "hand_size": 5},
        "match_score": {"match": True, "target_score": 100, "reward": "score"},
        "keep_king4_3decks": {"may_keep_drawn_card": True, "king_draw": 4, "num_decks": 3},
        "max_turns_30": {"max_turns": 30},
        # a match of two-card hands under a 20-action limit a hand: cut in a later hand too
        "match_max_turns_20": {"match": True, "target_score": 100, "hand_size": 2,
                               "max_turns": 20},
        # a 1-deck stock of 11 cards: reshuffles every few turns, Kings drawing across them,
        # the pass forced when nothing can be drawn (a blocked hand cannot happen: with the
        # stock empty and one card on the pile, every other 8 is in somebody's hand)
        "2p_1deck_20cards": {"num_players": 2, "num_decks": 1, "hand_size": 20},
        "8p": {"num_players": 8},
        # the last card's play: one-card hands (never over before a decision: the last card
        # goes out only when it is playable, and then drawing is legal too)
        "hand_size_1": {"hand_size": 1},
        # games over before any decision: a forced first draw reaches the turn limit
        "max_turns_1": {"hand_size": 1, "max_turns": 1},
    },
    "livery_eights": {
        "default": {},
        "3p": {"num_players": 3},
        "5p": {"num_players": 5},
        # a stock of 11 cards: missed turns on the empty stock, blocked hands, pick-ups and
        # penalties cut short
        "8p": {"num_players": 8},
        "match": {"match": True},
        "match_score_3p": {"match": True, "match_games": 3, "reward": "score",
                           "num_players": 3},
        # the stock rebuilt, in the middle of a pick-up of 2s or a penalty too
        "reshuffle_4p_10cards": {"reshuffle_empty_stock": True, "num_players": 4,
                                 "hand_size": 10},
        "reshuffle_empty_stock": {"reshuffle_empty_stock": True},
        "loose_twos": {"must_stack_twos": False},
        "penalty_0": {"last_card_penalty": 0},
        "penalty_4_3p": {"last_card_penalty": 4, "num_players": 3},
        # the score reward of a single game: minus each hand's distance from the mean
        "2decks_4p_score": {"num_decks": 2, "num_players": 4, "reward": "score"},
        # the deal leaves a 3-card stock: empty at once, blocked tables
        "8p_6cards": {"num_players": 8, "hand_size": 6},
        "2p_20cards": {"hand_size": 20},
        # four copies of every card (in hands, on the pile, stacked 2s of one id) and a
        # 47-card stock rebuilt
        "4decks_8p_20cards_reshuffle": {"num_decks": 4, "num_players": 8, "hand_size": 20,
                                        "reshuffle_empty_stock": True},
        "max_turns_10": {"max_turns": 10},
        "match_max_turns_12": {"match": True, "hand_size": 2, "max_turns": 12},
        # one-card hands: going out on a forced first play, games over before any decision
        "hand_size_1": {"hand_size": 1},
        "max_turns_1": {"hand_size": 1, "max_turns": 1},
    },
    "jokers_of_death": {
        "default": {},
        "2p": {"num_players": 2},
        "4p": {"num_players": 4},
        # a 3-card stock: empty at once, passes, blocked tables, penalties cut short
        "5p_20cards": {"num_players": 5},
        # the largest table: 10 seats, 8 decks (418 cards), 40-card hands
        "12p_8decks_34cards": {"num_players": 12, "num_decks": 8, "hand_size": 34},
        "3decks_6p_10cards": {"num_decks": 3, "num_players": 6, "hand_size": 10},
        "match": {"match": True},
        "match_score_2p_10cards": {"match": True, "target_score": 60, "reward": "score",
                                   "num_players": 2, "hand_size": 10},
        "score": {"reward": "score"},
        "auto_knock_4cards": {"auto_knock": True, "hand_size": 4},
        "hand_switching": {"hand_switching": True},
        "hand_switching_2p_8cards": {"hand_switching": True, "num_players": 2,
                                     "hand_size": 8},
        # four players, four decks, four Jokers, five piles
        "five_pile": {"five_pile": True, "num_players": 4},
        "aces": {"aces": True},
        # a 3-card stock: Aces on every pile recycle often
        "aces_5p": {"aces": True, "num_players": 5},
        "free_discard_pile": {"free_discard_pile": True},
        "free_discard_pile_2p_6cards": {"free_discard_pile": True, "num_players": 2,
                                        "hand_size": 6},
        # every variant at once, in a match
        "everything_five_pile_match": {"five_pile": True, "num_players": 4,
                                       "hand_switching": True, "aces": True,
                                       "free_discard_pile": True, "match": True,
                                       "target_score": 150},
        # one-card hands: knocks at the first turn, out on the first placement
        "hand_size_1": {"hand_size": 1},
        "max_turns_20": {"max_turns": 20},
        "match_max_turns_25": {"match": True, "hand_size": 3, "target_score": 30,
                               "max_turns": 25},
        # games over before any decision: a forced first draw reaches the turn limit
        "max_turns_1": {"hand_size": 1, "auto_knock": True, "max_turns": 1},
    },
    "baby_eating_eights": {
        "default": {},
        "3p": {"num_players": 3},
        "4p": {"num_players": 4},
        # the largest single deck: a 5-card stock, rebuilt from the pile again and again
        "8p_single": {"num_players": 8, "deck_type": "single"},
        # the expanded deck (two copies of most cards) from six players on
        "6p_expanded": {"num_players": 6},
        "2p_expanded": {"num_players": 2, "deck_type": "expanded"},
        # the largest table: 17 seats, 104 cards, a 1-card stock
        "17p": {"num_players": 17},
        "teams_4p": {"num_players": 4, "teams": 2},
        "teams_9p_3_score": {"num_players": 9, "teams": 3, "reward": "score"},
        "score": {"reward": "score"},
        "guarantee_bj": {"guarantee_joker": "BJ"},
        # the mode starting at once and lasting (a 20-card threshold per player)
        "guarantee_20_3p": {"guarantee_cards_per_player": 20, "num_players": 3},
        "guarantee_0": {"guarantee_cards_per_player": 0},
        "combo_replaces_draw_four": {"combo_replaces_draw_four": True},
        "three_spares_king_of_hearts": {"three_cancels_king_of_hearts": False},
        "ten_again_passes": {"ten_again_draws": False},
        "six_nine_apart": {"six_nine_four_in_a_row": False},
        "two_player_king_literal": {"two_player_king": "literal"},
        # a 13-card stock: rebuilt often, the mode's threshold reached fast
        "2p_20cards": {"hand_size": 20},
        "hand_size_1": {"hand_size": 1},
        "max_turns_10": {"max_turns": 10},
        "max_turns_1": {"hand_size": 1, "max_turns": 1},
    },
    "crazier_eights": {
        "default": {},
        "3p": {"num_players": 3},
        "4p": {"num_players": 4},
        # two decks from five players on: two copies of every card, in hands and in play
        "5p": {"num_players": 5},
        "8p": {"num_players": 8},
        "2p_2decks": {"num_decks": 2},
        "teams_4p": {"num_players": 4, "teams": 2},
        "teams_6p_3": {"num_players": 6, "teams": 3},
        # teams of three and two (seats 0 2 4 and 1 3): "two or three people on each team"
        "teams_5p_uneven": {"num_players": 5, "teams": 2},
        "match_score_3p": {"num_players": 3, "games": 3, "reward": "score"},
        # a 9-card draw pile: reshuffles, looks past its end, impossible draws
        "2p_12cards_1deck": {"hand_size": 12, "num_decks": 1},
        "hand_size_1": {"hand_size": 1},
        "max_turns_10": {"max_turns": 10},
        "games_4_max_turns_20": {"games": 4, "hand_size": 2, "max_turns": 20},
        "max_turns_1": {"hand_size": 1, "max_turns": 1},
        # a card file of the user's: the cards are data for the compiled core too
        "house_card_set_3p": {"num_players": 3, "card_set": house_card_set()},
    },
}

#: per variant, the events counted as the rule corners its games reached (name -> kind)
CORNER_EVENTS: dict[str, dict[str, str]] = {
    "crazy_eights": {"reshuffles": "reshuffle"},
    "livery_eights": {"reshuffles": "reshuffle", "missed_turns": "pass",
                      "pick_ups": "pick_up", "challenges": "challenge",
                      "no_challenges": "no_challenge", "calls": "last_card",
                      "silent": "no_call", "starter_8s": "starter_to_bottom",
                      "skips": "skip", "reverses": "reverse"},
    "jokers_of_death": {"answers_taken": "take", "kills": "kill", "passes": "pass",
                        "knocks": "knock", "no_knocks": "no_knock", "stops": "stop",
                        "reverses": "reverse", "keeps": "keep", "skips": "skip",
                        "switches": "switch", "recycles": "recycle", "pick_ups": "pick_up",
                        "pile_penalties": "pile_penalty", "suits": "suit",
                        "jokers_under": "starter_to_bottom", "outs": "out",
                        "ties": "tie"},
    "crazier_eights": {"reshuffles": "reshuffle", "impossible": "impossible",
                       "triggers": "trigger", "extra": "extra", "chosen": "chosen",
                       "colours": "colour", "destroyed": "destroy", "restored": "restore",
                       "looks": "look", "reveals": "reveal", "bottoms": "bottom",
                       "found": "put_in_play", "fewer": "fewer", "trades": "take",
                       "gives": "give", "sees": "sees", "saved": "saved",
                       "losses": "loses", "outs": "out", "named": "named"},
    "baby_eating_eights": {"reshuffles": "reshuffle", "passes": "pass", "skips": "skip",
                           "reverses": "reverse", "cancelled": "cancelled",
                           "locked": "locked", "fives": "five", "swaps": "swap",
                           "agains": "again", "jack_rounds": "jack_round",
                           "fours_in_a_row": "four_in_a_row", "redeals": "redeal",
                           "combos": "guarantee", "modes": "guarantee_mode",
                           "modes_over": "guarantee_over", "taken": "take",
                           "no_draws": "no_draw", "stuck": "stuck", "outs": "out"},
}

#: the share of decisions played by the heuristic (whose choice is compared too)
HEURISTIC_SHARE = 0.25


class Mismatch(AssertionError):
    """The two implementations disagree; the message says where and how to replay it."""


@dataclass
class Result:
    """What one comparison covered."""

    games: int = 0
    #: decisions applied to both implementations (each compared before and after)
    decisions: int = 0
    #: decisions whose heuristic choice was compared
    heuristic: int = 0
    #: whole-game outcomes and rule corners seen, counted from the Python engines' events
    counts: Counter = field(default_factory=Counter)


def _feature_at(offsets: dict[str, int], index: int) -> str:
    name = max((start, feature) for feature, start in offsets.items() if start <= index)[1]
    return f"{name}[{index - offsets[name]}]"


def _game_counts(engine: Any, decisions: int, variant: str) -> Counter:
    """What one ended game reached: its end, its hands, and the variant's rule corners
    (:data:`CORNER_EVENTS`), from the Python engine's event log."""
    log = engine.events
    kinds = Counter(event.kind for event in log)
    blocked = sum(1 for event in log if event.kind == "hand_over" and event.arg)
    counts = Counter({"terminated": int(engine.terminated), "truncated": int(engine.truncated),
                      "blocked_hands": blocked, "hands": kinds["deal"],
                      "no_decision": int(not decisions),
                      # the turn limit counts each hand: a match cut in its second hand or later
                      "cut_in_a_later_hand": int(engine.truncated and kinds["deal"] > 1)})
    for name, kind in CORNER_EVENTS.get(variant, {"reshuffles": "reshuffle"}).items():
        counts[name] = kinds[kind]
    return counts


def compare(options: dict[str, Any], games: int, *, variant: str = DEFAULT_VARIANT,
            num_tables: int = 8, seed: int = 0, heuristic_share: float = HEURISTIC_SHARE,
            version: int | None = None,
            progress: Callable[[Result], None] | None = None) -> Result:
    """Play ``games`` games of ``variant`` with ``options`` on Python and compiled tables
    side by side (``num_tables`` each, reset with ``seed``; a table deals its next game
    while games are left), random legal actions from ``random.Random(seed)`` and the
    heuristic's for ``heuristic_share`` of them; raise :class:`Mismatch` at the first
    difference. ``version``: the observation version both write (``None``: the newest).
    ``progress`` is called with the result so far after every ended game."""
    num_tables = max(1, min(num_tables, games))
    python = PythonTables(variant, num_tables, version, **options)
    compiled = CompiledTables(variant, num_tables, version, **options)
    n, size, num_actions = python.num_players, python.observation_size, python.num_actions
    offsets = python.encoder.offsets
    if compiled.observation_size != size or compiled.num_actions != num_actions:
        raise Mismatch(f"sizes differ: python {size} features, {num_actions} actions; "
                       f"compiled {compiled.observation_size}, {compiled.num_actions}")
    rng = random.Random(seed)
    python.reset(seed)
    compiled.reset(seed)
    every = np.arange(num_tables)
    rows_table, rows_seat = np.repeat(every, n), np.tile(np.arange(n), num_tables)
    obs = {name: np.zeros((num_tables * n, size), np.float32) for name in ("p", "c")}
    masks = {name: np.zeros((num_tables * n, num_actions), np.int8) for name in ("p", "c")}
    #: each table's actions since its deal (what replays a mismatch)
    played: list[list[int]] = [[] for _ in range(num_tables)]
    counted = np.zeros(num_tables, bool)  # the table's ended game is counted already
    result = Result()
    started = num_tables

    def fail(table: int, what: str, python_value: Any, compiled_value: Any) -> Mismatch:
        return Mismatch(
            f"{variant} {options}: {what} differs at table {table} after "
            f"{len(played[table])} actions; python {python_value!r}, compiled "
            f"{compiled_value!r}. Replay: engine_class({variant!r}).Config.from_options("
            f"**{options}), the engine reset(seed={python.game_seed(table)}), then the "
            f"actions {played[table]}")

    def check() -> None:
        for i in every:
            if python.game_seed(i) != compiled.game_seed(i):
                raise fail(i, "the game seed", python.game_seed(i), compiled.game_seed(i))
        current_p, current_c = python.current, compiled.current
        if not np.array_equal(current_p, current_c):
            i = int(np.flatnonzero(current_p != current_c)[0])
            raise fail(i, "the seat to act", int(current_p[i]), int(current_c[i]))
        python.observe(rows_table, rows_seat, obs["p"], masks["p"])
        compiled.observe(rows_table, rows_seat, obs["c"], masks["c"])
        for name, (a, b) in (("observation", (obs["p"], obs["c"])),
                             ("mask", (masks["p"], masks["c"]))):
            if not np.array_equal(a, b):
                row, index = (int(x[0]) for x in np.nonzero(a != b))
                at = _feature_at(offsets, index) if name == "observation" else f"action {index}"
                raise fail(int(rows_table[row]), f"seat {rows_seat[row]}'s {name} at {at}",
                           a[row, index], b[row, index])
        for name, method in (("returns", "returns"), ("terminated", "terminated"),
                             ("truncated", "truncated")):
            a, b = getattr(python, method)(every), getattr(compiled, method)(every)
            if not np.array_equal(a, b):
                i = int(np.flatnonzero((a != b).reshape(num_tables, -1).any(axis=1))[0])
                raise fail(i, name, a[i], b[i])

    while True:
        check()
        current = python.current
        over = np.flatnonzero((current < 0) & ~counted)
        for i in over:
            counted[i] = True
            result.games += 1
            result.counts.update(_game_counts(python.engines[i], len(played[i]), variant))
            if progress is not None:
                progress(result)
        redeal = over[: games - started]
        if len(redeal):
            started += len(redeal)
            python.next_game(redeal)
            compiled.next_game(redeal)
            counted[redeal] = False
            for i in redeal:
                played[i] = []
            continue  # compare the new deals (a game may be over before any decision)
        active = np.flatnonzero(current >= 0)
        if not len(active):
            break
        actions = np.empty(len(active), np.int64)
        for j, i in enumerate(active):
            legal = np.flatnonzero(masks["p"][i * n + current[i]])
            actions[j] = legal[rng.randrange(len(legal))]
        heuristic = np.array([rng.random() < heuristic_share for _ in active], bool)
        if heuristic.any():
            tables = active[heuristic]
            a, b = python.heuristic_actions(tables), compiled.heuristic_actions(tables)
            if not np.array_equal(a, b):
                k = int(np.flatnonzero(a != b)[0])
                raise fail(int(tables[k]), "the heuristic's action", int(a[k]), int(b[k]))
            actions[heuristic] = a
            result.heuristic += len(tables)
        python.step(active, actions)
        compiled.step(active, actions)
        for i, a in zip(active, actions, strict=True):
            played[i].append(int(a))
        result.decisions += len(active)
    return result


def shown(options: dict[str, Any]) -> str:
    """The options as printed: a long value (a card set's text) by its length only."""
    return "{" + ", ".join(f"{k!r}: " + (f"<{len(v)} characters>" if isinstance(v, str)
                                         and len(v) > 60 else repr(v))
                           for k, v in options.items()) + "}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=list(CONFIGS), default=DEFAULT_VARIANT,
                        help=f"the compiled core compared (default {DEFAULT_VARIANT})")
    parser.add_argument("--games", type=int, default=10_000, help="games per config")
    parser.add_argument("--configs", nargs="+", metavar="NAME",
                        help="configs to compare (default: all of the variant's): "
                             + "; ".join(f"{v}: {', '.join(c)}" for v, c in CONFIGS.items()))
    parser.add_argument("--tables", type=int, default=8, help="tables played side by side")
    parser.add_argument("--seed", type=int, default=0, help="the tables' reset seed")
    parser.add_argument("--version", type=int, default=None,
                        help="the observation version compared (default: the newest)")
    parser.add_argument("--every", type=int, default=1000,
                        help="print progress every this many games")
    args = parser.parse_args(argv)
    configs = CONFIGS[args.variant]
    names = args.configs or list(configs)
    unknown = [name for name in names if name not in configs]
    if unknown:
        parser.error(f"{args.variant} has no config {', '.join(unknown)}; its configs: "
                     f"{', '.join(configs)}")
    total = Result()
    for name in names:
        options = configs[name]
        print(f"{args.variant} {name} {shown(options)}: {args.games} games on {args.tables} "
              f"tables",
              flush=True)
        start = time.process_time()

        def progress(result: Result, name: str = name, start: float = start) -> None:
            if result.games % args.every == 0:
                print(f"  {name}: {result.games} games, {result.decisions} decisions, "
                      f"{time.process_time() - start:.1f} CPU s", flush=True)

        try:
            result = compare(options, args.games, variant=args.variant,
                             num_tables=args.tables, seed=args.seed, version=args.version,
                             progress=progress)
        except Mismatch as err:
            print(f"MISMATCH in {name}: {err}", flush=True)
            return 1
        seconds = time.process_time() - start
        corners = ", ".join(f"{key} {value}" for key, value in sorted(result.counts.items()))
        print(f"  {name}: {result.games} games, {result.decisions} decisions "
              f"({result.heuristic} heuristic) identical in {seconds:.1f} CPU s; {corners}",
              flush=True)
        total.games += result.games
        total.decisions += result.decisions
    print(f"all identical: {total.games} games, {total.decisions} decisions over "
          f"{len(names)} {args.variant} configs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
