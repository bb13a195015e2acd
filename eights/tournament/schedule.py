"""What a tournament is, and the exact list of games it plays.

A :class:`Tournament` is everything that decides its results: the variant
and its options, the agents, the table size, the games per table, the seed,
and how deals and seats are assigned. :meth:`Tournament.schedule` turns it
into numbered :class:`ScheduledGame` s, each carrying its own deal seed and
agent seeds, so a game plays the same wherever and whenever it is played:
serially, in another process, on a Ray worker, or after a resume.

**Tables.** Two players: every pair of agents. More: every set of distinct
agents that fills the table, or, with fewer agents than seats, every
multiset with at least two different agents.

**Seatings.** Each table plays every seating of a set (the table's cyclic
rotations, or all permutations with ``seating="permute"``), so every agent
spends the same number of games in every seat and plays first equally often.

**Teams.** In team play (a config whose ``team_of()`` groups seats, such as
Baby-Eating Eights with ``teams=2``) a table's members are the teams: each
agent plays every seat of one team, so a 4-player two-team table is one
agent's pair against another's, and the seatings rotate which team each
agent holds. Without teams every seat is its own team and this is the rule
above.

**Duplicate deals.** With ``duplicate=True`` (the default) one deal, the
same shuffled deck and first seat, is played once per seating: the agents
swap hands and positions, and the luck of the deal cancels out. All tables
share the same deals. Without it every game has a fresh deal.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..agents import split_specs
from ..config import ConfigError
from ..engines import engine_class

SEATINGS = ("rotate", "permute")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts``, the same in every process and on every machine."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


class ScheduledGame(NamedTuple):
    """One game of the schedule: who sits where, which deal, which agent seeds."""

    index: int
    table: int
    deal: int
    seating: int
    seats: tuple[str, ...]
    deal_seed: int
    agent_seeds: tuple[int, ...]


@dataclass(frozen=True)
class Tournament:
    """A round-robin's definition; equal definitions play identical games."""

    variant: str
    agents: tuple[str, ...]
    num_players: int = 2
    #: games per table, rounded up to whole sets of seatings
    games: int = 100
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    duplicate: bool = True
    seating: str = "rotate"

    def __post_init__(self) -> None:
        agents = self.agents
        if isinstance(agents, str):
            agents = split_specs(agents)
        object.__setattr__(self, "agents", tuple(agents))
        object.__setattr__(self, "options", dict(self.options))
        engine_class(self.variant)  # names the known variants if this is not one
        if "num_players" in self.options:
            raise ConfigError("give the table size as num_players, not as a game option")
        # validates the table size and the options; a card_file is read here, once, and the
        # options keep its content (card_set): the store compares it when a run resumes, and
        # its games replay after the file is edited or deleted
        object.__setattr__(self, "options", self.config().portable(self.options))
        if len(set(self.agents)) < 2:
            raise ConfigError("a tournament needs at least two different agents, e.g. "
                              "random,heuristic")
        if len(set(self.agents)) != len(self.agents):
            twice = sorted({a for a in self.agents if self.agents.count(a) > 1})
            raise ConfigError(f"agents are listed twice: {', '.join(twice)}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ConfigError(f"games={self.games!r} is not allowed; play at least one game "
                              f"per table")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed={self.seed!r} is not allowed; the seed must be an int")
        if self.seating not in SEATINGS:
            raise ConfigError(f"seating={self.seating!r} is not allowed; seating must be one "
                              f"of {', '.join(SEATINGS)}")

    # ------------------------------------------------------------ structure
    def config(self):
        """The game config every table plays (validated)."""
        return engine_class(self.variant).Config.from_options(
            num_players=self.num_players, **self.options)

    def team_of(self) -> tuple[int, ...]:
        """Each seat's team (each seat its own team without team play)."""
        return self.config().team_of()

    @property
    def sides(self) -> int:
        """Members of a table: one agent per team (per seat without team play)."""
        return len(set(self.team_of()))

    def tables(self) -> list[tuple[str, ...]]:
        """The agents of each table (one per team), before seating."""
        n = self.sides
        if len(self.agents) >= n:
            return list(itertools.combinations(self.agents, n))
        return [t for t in itertools.combinations_with_replacement(self.agents, n)
                if len(set(t)) > 1]

    def seatings(self) -> list[tuple[int, ...]]:
        """Each seating maps team ``k`` (seat ``k`` without teams) to the member ``seating[k]``."""
        n = self.sides
        if self.seating == "permute":
            return list(itertools.permutations(range(n)))
        return [tuple((k + r) % n for k in range(n)) for r in range(n)]

    @property
    def rounds(self) -> int:
        """Deals per table with duplicate deals: each is played once per seating."""
        per_round = len(self.seatings())
        return -(-self.games // per_round)

    @property
    def games_per_table(self) -> int:
        return self.rounds * len(self.seatings())

    @property
    def games_per_round(self) -> int:
        """Games of one round: one deal at every table in every seating."""
        return len(self.tables()) * len(self.seatings())

    @property
    def total_games(self) -> int:
        return self.games_per_table * len(self.tables())

    def schedule(self) -> list[ScheduledGame]:
        """Every game, numbered round by round so a partial run covers every table."""
        tables, seatings, team = self.tables(), self.seatings(), self.team_of()
        games: list[ScheduledGame] = []
        for rnd in range(self.rounds):
            for t, table in enumerate(tables):
                for s, seating in enumerate(seatings):
                    deal = rnd if self.duplicate else rnd * len(seatings) + s
                    index = len(games)
                    games.append(ScheduledGame(
                        index=index, table=t, deal=deal, seating=s,
                        seats=tuple(table[seating[team[k]]] for k in range(self.num_players)),
                        deal_seed=derive_seed(self.seed, "deal", deal),
                        agent_seeds=tuple(derive_seed(self.seed, "agent", index, k)
                                          for k in range(self.num_players)),
                    ))
        return games

    # ---------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "agents": list(self.agents),
            "num_players": self.num_players, "games": self.games, "seed": self.seed,
            "options": dict(self.options), "duplicate": self.duplicate,
            "seating": self.seating,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament a results file describes; options naming a file are refused
        (:meth:`~eights.config.GameConfig.refuse_files`): it carries their content."""
        engine_class(data.get("variant")).Config.refuse_files(data.get("options") or {},
                                                          "the tournament's options")
        return cls(**{**data, "agents": tuple(data["agents"])})

    def describe(self) -> str:
        deals = "duplicate deals" if self.duplicate else "fresh deals"
        seats = "rotated" if self.seating == "rotate" else "permuted"
        teams = f" in {self.sides} teams" if self.sides < self.num_players else ""
        tables = len(self.tables())
        return (f"{self.variant}, {self.num_players} players{teams}, {tables} "
                f"table{'s' if tables != 1 else ''} x {self.games_per_table} games "
                f"({seats} seats, {deals})")


def agent_files(tournament: Tournament) -> dict[str, str]:
    """SHA-256 of the model file behind each ``policy`` agent, to tell a changed model apart."""
    from ..agents.policy import resolve_model

    digests = {}
    for spec in tournament.agents:
        kind, _, arg = spec.partition(":")
        if kind != "policy":
            continue
        path = resolve_model(arg.removesuffix("?sample"), tournament.variant,
                             tournament.num_players)
        digests[spec] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests

