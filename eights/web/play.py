"""Play: a person in the browser against bots, with ``eights play``'s keys and sentences.

The game is ``eights play``'s own :class:`~eights.play.session.PlaySession`,
run on a thread of its own: its keys come from the page (:class:`PageKeys`)
instead of a terminal, and what it says goes to the page's live region. So
the keys (Space draws, P passes, C/D/H/S name a suit, E reads the card
counts, numbers and arrows choose a move, Enter makes it) and every sentence
are the terminal's, word for word, and cannot drift apart. A click on a move
button is the one thing a terminal has not; it arrives as a key of its own
(:data:`MOVE_KEY`) that names the move by number.

Beside the sentences the page is sent the seat's view after every event and
its legal moves on its turn (:mod:`eights.web.tables`): never the state.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..agents import IN_PROCESS_KINDS, Agent, check_agent_spec, make_agent, spec_kind
from ..config import ConfigError, parse_options
from ..engines import VARIANTS, engine_class, make_game
from ..engines.table import TableEngine
from ..play.session import PlaySession
from ..play.table_options import people_table_options
from .tables import moves_json, seat_json

#: the key a move button sends, followed by the move's number: ``"move:3"``
MOVE_KEY = "move:"
#: keys with names (the rest are one printable character), as eights.play.keys names them
NAMED_KEYS = frozenset({"enter", "left", "right", "up", "down", "escape", "backspace"})
#: most opponents a page may seat (the largest table of any variant is smaller)
MAX_OPPONENTS = 8

Emit = Callable[[dict[str, Any]], None]


def key_problem(key: str) -> str | None:
    """Why ``key`` is not a key the page may send, or None."""
    if len(key) == 1 and key.isprintable():
        return None
    if key in NAMED_KEYS:
        return None
    return (f"{key!r} is not a key; send one printable character or one of "
            f"{', '.join(sorted(NAMED_KEYS))}")


class PageKeys:
    """A :class:`~eights.play.keys.KeySource` fed by the page's messages.

    :meth:`close` ends the input: the session hears the end of its keys and
    leaves the game, as ``eights play`` does when standard input closes.
    """

    def __init__(self) -> None:
        self._keys: queue.Queue[str | None] = queue.Queue()

    def put(self, key: str) -> None:
        self._keys.put(key)

    def close(self) -> None:
        self._keys.put(None)

    def get(self, timeout: float | None = None) -> str | None:
        try:
            key = self._keys.get(timeout=timeout)
        except queue.Empty:
            return None
        if key is None:
            self._keys.put(None)  # every later read ends too
            raise EOFError("the page left the game")
        return key


class PageSession(PlaySession):
    """``eights play``'s session, telling the page the seat's view as well as its sentences."""

    def __init__(self, engine: TableEngine, seat: int, bots: dict[int, Agent], keys: PageKeys,
                 emit: Emit, **kwargs: Any):
        super().__init__(engine, seat, bots, keys,
                         lambda text: emit({"type": "say", "text": text}), **kwargs)
        self.emit = emit

    def table(self, moves: Sequence[str] | None = None) -> dict[str, Any]:
        """The ``table`` message: the seat's view now, and its moves when it is to act."""
        view = self.engine.view(self.seat)
        return {"type": "table", "view": seat_json(view, self.name),
                "moves": None if moves is None else moves_json(moves, view),
                "game_over": self.engine.game_over,
                "players": [self.name(p) for p in range(self.engine.num_players)]}

    def _narrate(self) -> None:
        super()._narrate()
        if self.engine.game_over or self.engine.current_player != self.seat:
            self.emit(self.table())  # on the seat's turn, _human_turn sends it with the moves

    def _human_turn(self) -> bool:
        view = self.engine.view(self.seat)
        self.emit(self.table([self.engine.action_text(a) for a in view.legal_actions]))
        return super()._human_turn()

    def _key(self, key: str, view: Any, moves: Sequence[str], selected: int | None,
             deadline: float | None) -> tuple[str | None, int | None]:
        if key.startswith(MOVE_KEY):
            number = key.removeprefix(MOVE_KEY)
            n = int(number) if number.isdigit() else 0
            if 1 <= n <= len(moves):
                return moves[n - 1], n - 1
            self.say(f"There is no move {number}; moves are 1 to {len(moves)}.")
            return None, selected
        return super()._key(key, view, moves, selected, deadline)


def _options(given: Mapping[str, Any]) -> dict[str, Any]:
    """A start message's options (``{"hand_size": "5"}``) read as ``--option`` reads them."""
    texts = []
    for name, value in given.items():
        if isinstance(value, bool):
            value = str(value).lower()
        if not isinstance(value, str | int | float):
            raise ConfigError(f"option {name}: give its value as text, e.g. \"5\"")
        texts.append(f"{name}={value}")
    return parse_options(texts)


def new_table(variant: str, opponents: Sequence[str], *, seat: int = 0, seed: int | None = None,
              options: Mapping[str, Any] | None = None, hand: bool = False,
              ) -> tuple[TableEngine, dict[int, Agent]]:
    """The engine and bots of a new game, checked as ``eights play`` checks its options.

    Only agents that run in this process may sit at a table a page asks for: a
    page must not start programs on the server's machine (``cmd:``) or make it
    connect elsewhere (``ws://``). A spec that cannot play the table is
    refused before the first card, with :class:`~eights.config.ConfigError`.
    """
    if variant not in VARIANTS:
        raise ConfigError(f"variant {variant!r} is not known; the variants are "
                          f"{', '.join(VARIANTS)}")
    specs = [s.strip() for s in opponents if s.strip()]
    if not specs:
        raise ConfigError("seat at least one opponent, e.g. heuristic")
    if len(specs) > MAX_OPPONENTS:
        raise ConfigError(f"{len(specs)} opponents is more than any table seats")
    for spec in specs:
        if spec_kind(spec) not in IN_PROCESS_KINDS:
            raise ConfigError(f"agent spec {spec!r}: the page seats the built-in agents only "
                              f"({', '.join(sorted(IN_PROCESS_KINDS))}); external bots play "
                              f"with eights play or eights tournament")
    players = len(specs) + 1
    if not 0 <= seat < players:
        raise ConfigError(f"seat {seat} is not at a {players}-player table; seats are 0 to "
                          f"{players - 1}")
    opts = _options(options or {})
    # a card file is read from the server's disk: not a page's to name
    engine_class(variant).Config.refuse_files(opts, "a page's options")
    if "num_players" in opts:
        raise ConfigError("the option num_players is set by the opponents: one seat each, "
                          "and yours")
    opts = people_table_options(variant, opts, hand)
    engine = make_game(variant, num_players=players, seed=seed, **opts)
    for spec in specs:
        check_agent_spec(spec, variant, config=engine.config)
    bot_seats = [p for p in range(players) if p != seat]
    bots = {p: make_agent(spec, variant, seed=None if seed is None else seed + p)
            for p, spec in zip(bot_seats, specs, strict=True)}
    return engine, bots


class PlayTable:
    """One game on its own thread: the page's keys go in, its messages come out by ``emit``."""

    def __init__(self, engine: TableEngine, seat: int, bots: dict[int, Agent], emit: Emit, *,
                 turn_time: float | None = None):
        self.engine = engine
        self.keys = PageKeys()
        self.emit = emit
        self.session = PageSession(engine, seat, bots, self.keys, self._emit,
                                   turn_time=turn_time)
        self.thread = threading.Thread(target=self._run, name="eights-web-play", daemon=True)

    def _emit(self, message: dict[str, Any]) -> None:
        """Every message of the game leaves through here (a test inspects them)."""
        self.emit(message)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        try:
            self.session.run()
        except Exception as err:  # a bot that failed: the page hears why, the server goes on
            self._emit({"type": "say", "text": f"The game stopped: {err}"})
        finally:
            for bot in self.session.bots.values():
                bot.close()
            self._emit({"type": "over", "game_over": self.engine.game_over,
                        "winners": list(self.engine.winners)})

    def key(self, key: str) -> None:
        self.keys.put(key)

    def stop(self) -> None:
        """End the game (the session says it left) and wait for its thread."""
        self.keys.close()
        self.thread.join()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()
