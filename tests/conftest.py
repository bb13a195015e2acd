"""Shared test helpers: which variants exist, and their configs to sweep."""

from __future__ import annotations

import importlib.util
import os
from collections import Counter
from itertools import chain

from eights.config import ConfigError
from eights.engines import VARIANTS, engine_class
from eights.engines.base import check_events

#: every event an engine logs is checked against its kind's declaration, here and in the
#: processes the tests start (a slot the kind has not fails where it is logged)
os.environ["EIGHTS_CHECK_EVENTS"] = "1"
check_events()

#: the one command that remakes every generated file (see the Makefile's ``regen``)
REGEN = "make regen"


def out_of_date(path: object, detail: str) -> str:
    """The one message of every staleness test (env pages, schema.json, golden playthroughs,
    layout fingerprints): which file, what differs, and the command that remakes it."""
    return f"{path} is out of date ({detail}): run `{REGEN}` and review the diff"


def drawn_card(game) -> int:
    """The card the player to act just drew and is deciding whether to play (-1 if none):
    it is theirs alone to see. Read from their view (variants without the field: none)."""
    if game.game_over:
        return -1
    return getattr(game.view(game.current_player), "drawn_card", -1)


def all_cards(game) -> Counter:
    """Every card at the table: the stock, the piles, the hands and the zones."""
    s = game.state
    return Counter(chain(s.stock, *s.piles, *s.hands, *s.zones))


def available_variants() -> list[str]:
    """Variants whose engine module exists (variants land one by one)."""
    out = []
    for variant, target in VARIANTS.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            out.append(variant)
    return out


#: (variant, config) pairs swept by property and env tests
MAX_PLAYERS = {"crazy_eights": 8, "livery_eights": 8, "baby_eating_eights": 17,
               "jokers_of_death": 5, "crazier_eights": 8}  # (with its default decks)
CONFIGS = [
    ("crazy_eights", {"num_players": 2}),
    ("crazy_eights", {"num_players": 4}),
    ("crazy_eights", {"num_players": 8}),
    ("crazy_eights", {"num_players": 3, "match": True, "target_score": 150}),
    ("crazy_eights", {"num_players": 8, "num_decks": 1, "hand_size": 6}),
    ("livery_eights", {"num_players": 2}),
    ("livery_eights", {"num_players": 4}),
    ("livery_eights", {"num_players": 8}),
    ("livery_eights", {"num_players": 3, "match": True}),
    ("baby_eating_eights", {"num_players": 2}),
    ("baby_eating_eights", {"num_players": 4}),
    ("baby_eating_eights", {"num_players": 7}),
    ("baby_eating_eights", {"num_players": 4, "teams": 2}),
    ("jokers_of_death", {"num_players": 2}),
    ("jokers_of_death", {"num_players": 3}),
    ("jokers_of_death", {"num_players": 4}),
    ("jokers_of_death", {"num_players": 3, "match": True}),
    ("jokers_of_death", {"num_players": 3, "hand_switching": True}),
    ("jokers_of_death", {"num_players": 4, "five_pile": True}),
    ("jokers_of_death", {"num_players": 3, "aces": True}),
    ("jokers_of_death", {"num_players": 3, "auto_knock": True}),
    ("jokers_of_death", {"num_players": 3, "free_discard_pile": True}),
    ("crazier_eights", {"num_players": 2}),
    ("crazier_eights", {"num_players": 3}),
    ("crazier_eights", {"num_players": 4}),
    ("crazier_eights", {"num_players": 4, "teams": 2}),
    ("crazier_eights", {"num_players": 5, "teams": 2}),  # teams of three and two
    ("crazier_eights", {"num_players": 6}),
    ("crazier_eights", {"num_players": 2, "games": 3}),
]


def configs() -> list[tuple[str, dict]]:
    have = set(available_variants())
    return [(v, c) for v, c in CONFIGS if v in have]


def config_id(pair: tuple[str, dict]) -> str:
    variant, config = pair
    return variant + "-" + "-".join(f"{k}={v}" for k, v in config.items())


# ------------------------------------------------------------------ option sweeps
def _accepted(cls, options: dict) -> bool:
    """Whether ``cls``'s config validator takes ``options``."""
    try:
        cls.Config.from_options(**options)
    except ConfigError:
        return False
    return True


def table_sizes(cls, options: dict) -> list[int]:
    """The smallest and the largest table the validator accepts with ``options`` (one size
    when they agree, none when no table does)."""
    meta = cls.Config.options()["num_players"].metadata
    sizes = [n for n in range(meta["min"], meta["max"] + 1)
             if _accepted(cls, {**options, "num_players": n})]
    return sorted({sizes[0], sizes[-1]}) if sizes else []


def option_values(cls, name: str) -> list:
    """The values an option is swept at, read from its declaration: every other choice, the
    other bool, or the int nearest its default (above first) that some table accepts. A free
    string (a card file's path) has no value to try and is not swept."""
    f = cls.Config.options()[name]
    meta, default = f.metadata, f.default
    if meta["choices"] is not None:
        return [c for c in meta["choices"] if c != default]
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        lo, hi = meta["min"], meta["max"]
        for step in range(1, 5):
            for value in (default + step, default - step):
                if ((lo is None or value >= lo) and (hi is None or value <= hi)
                        and table_sizes(cls, {name: value})):
                    return [value]
    return []


def option_sweep(variant: str) -> list[dict]:
    """Configs that try every option of ``variant``'s config declaration: each value of
    :func:`option_values` alone, at the smallest and the largest table the validator
    accepts with it; then, at the smallest and the largest table of the defaults, all of
    them that the validator accepts together (in declaration order, one value per option).
    A new option is swept as soon as it is declared."""
    cls = engine_class(variant)
    alone = [{name: value} for name in cls.Config.options() if name != "num_players"
             for value in option_values(cls, name)]
    sweep = [{"num_players": n, **options} for options in alone
             for n in table_sizes(cls, options)]
    for n in table_sizes(cls, {}):
        together = {"num_players": n}
        for options in alone:
            if not together.keys() & options.keys() and _accepted(cls, {**together, **options}):
                together.update(options)
        sweep.append(together)
    return sweep


def every_option_config() -> list[tuple[str, dict]]:
    """``(variant, config)`` for every config of :func:`option_sweep`, every variant: what
    the determinization, minimal-view and search sweeps run over."""
    return [(variant, config) for variant in available_variants()
            for config in option_sweep(variant)]


def sweep_id(setup: tuple[str, dict]) -> str:
    """A sweep config's test id: ``crazy_eights-2p-match=True``."""
    variant, config = setup
    return f"{variant}-{config['num_players']}p" + "".join(
        f"-{k}={v}" for k, v in config.items() if k != "num_players")
