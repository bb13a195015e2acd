"""Shared test helpers: which variants exist, and their configs to sweep."""

from __future__ import annotations

import importlib.util
from collections import Counter

from eights.engines import VARIANTS


def drawn_card(game) -> int:
    """The card the player to act just drew and is deciding whether to play (-1 if none):
    it is theirs alone to see. Read from their view (variants without the field: none)."""
    if game.game_over:
        return -1
    return getattr(game.view(game.current_player), "drawn_card", -1)


def all_cards(game) -> Counter:
    """Every card at the table: the stock, the piles, the hands and the zones."""
    s = game.state
    cards = Counter(s.stock)
    for place in (*s.piles, *s.hands, *s.zones):
        cards += Counter(place)
    return cards


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
    ("crazier_eights", {"num_players": 6, "teams": 2}),
    ("crazier_eights", {"num_players": 6}),
    ("crazier_eights", {"num_players": 2, "games": 3}),
]


def configs() -> list[tuple[str, dict]]:
    have = set(available_variants())
    return [(v, c) for v, c in CONFIGS if v in have]


def config_id(pair: tuple[str, dict]) -> str:
    variant, config = pair
    return variant + "-" + "-".join(f"{k}={v}" for k, v in config.items())
