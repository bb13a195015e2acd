"""Agents: every kind behind one interface, made from a spec string.

Specs: ``"random"``, ``"greedy"``, ``"heuristic"``, ``"ismcts"``, ``"policy:PATH"``,
and external bots speaking the protocol: ``"exec:COMMAND"``, ``"ws://HOST:PORT"``
(see docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module

from ..config import ConfigError, GameConfig, did_you_mean
from ..engines import engine_class
from ..variants import REGISTRY
from .base import Agent, AgentForfeit, play_game
from .greedy import GreedyAgent
from .heuristic import PileHeuristic
from .ismcts import ISMCTSAgent, ismcts_from_spec
from .policy import PolicyAgent
from .random_agent import RandomAgent

#: variant id -> its heuristic agent, "module:class" (from :mod:`eights.variants`)
HEURISTICS = {v.id: v.heuristic for v in REGISTRY.values()}


def _heuristic(variant: str, seed: int | None) -> Agent:
    """The variant's registered heuristic."""
    if variant not in HEURISTICS:
        raise ConfigError(f"variant {variant!r} is not known; the variants are "
                          f"{', '.join(HEURISTICS)}")
    module, name = HEURISTICS[variant].split(":")
    return getattr(import_module(module), name)(seed)


Factory = Callable[[str, str, int | None], Agent]


def _plain(kind: str, make: Callable[[str, int | None], Agent]) -> Factory:
    """The factory of an agent kind that takes no arguments: ``random:xyz`` is refused
    rather than played as ``random`` (a typo in an argument must not pass unnoticed)."""

    def factory(variant: str, arg: str, seed: int | None) -> Agent:
        if arg:
            raise ConfigError(f"agent spec '{kind}:{arg}': {kind} takes no arguments; write "
                              f"'{kind}' (or '{kind}#label' for a second entry of it)")
        return make(variant, seed)

    return factory


#: spec kind -> factory(variant, argument, seed)
AGENT_KINDS: dict[str, Factory] = {
    "random": _plain("random", lambda variant, seed: RandomAgent(seed)),
    "greedy": _plain("greedy", lambda variant, seed: GreedyAgent(seed)),
    "heuristic": _plain("heuristic", _heuristic),
    "ismcts": lambda variant, arg, seed: ismcts_from_spec(arg, seed, variant),
    "policy": lambda variant, arg, seed: PolicyAgent(variant, arg, seed),
    # external bots; "ws://host:port" partitions into kind "ws" and arg "//host:port"
    "exec": lambda variant, arg, seed: _external(f"exec:{arg}", seed),
    "ws": lambda variant, arg, seed: _external(f"ws:{arg}", seed),
    "wss": lambda variant, arg, seed: _external(f"wss:{arg}", seed),
}


def _external(spec: str, seed: int | None) -> Agent:
    """An ExternalAgent (imported on use: the protocol package is not needed otherwise)."""
    from ..protocol.external import ExternalAgent

    return ExternalAgent.from_spec(spec, seed)


#: the agent kinds that run in this process (the others are external programs)
IN_PROCESS_KINDS = frozenset({"random", "greedy", "heuristic", "ismcts", "policy"})


def _kind_and_arg(spec: str) -> tuple[str, str]:
    """A spec's kind and argument, its ``#label`` dropped: ``"policy:m.npz#b"`` ->
    ``("policy", "m.npz")``."""
    kind, _, arg = spec.rpartition("#")[0].partition(":") if "#" in spec else spec.partition(":")
    return kind, arg


def spec_kind(spec: str) -> str:
    """The agent kind a spec names (``"ismcts:sims=50"`` -> ``"ismcts"``), known or not."""
    return _kind_and_arg(spec)[0]


def make_agent(spec: str, variant: str, seed: int | None = None) -> Agent:
    """An agent for ``variant`` from a spec like ``"heuristic"`` or ``"policy:model.zip"``.

    A ``#label`` suffix names a second entry of the same agent (``random#b``),
    so a tournament can seat an agent against itself as a control.
    """
    engine_class(variant)  # validates the variant
    kind, arg = _kind_and_arg(spec)
    if kind not in AGENT_KINDS:
        raise ConfigError(f"agent spec {spec!r} is not known{did_you_mean(kind, AGENT_KINDS)}; "
                          f"the kinds are {', '.join(AGENT_KINDS)}")
    agent = AGENT_KINDS[kind](variant, arg, seed)
    agent.name = spec
    return agent


def check_agent_spec(spec: str, variant: str, num_players: int | None = None, *,
                     config: GameConfig | None = None, **options: object) -> None:
    """Refuse, before the first card, an agent spec that cannot play this table.

    The spec must name a known agent kind, and the agent must accept the table: ``config``,
    or ``variant``'s config with ``num_players`` and ``options`` (``policy`` needs a model
    for that table size, for example). Raises :class:`~eights.config.ConfigError` saying
    what exists instead. External bots are not started here; they are checked when they
    meet the game.
    """
    if config is None:
        given = {} if num_players is None else {"num_players": num_players}
        config = engine_class(variant).Config.from_options(**given, **options)
    agent = make_agent(spec, variant)
    try:
        agent.check_table(config)
    finally:
        agent.close()


def split_specs(text: str, extra_kinds: Iterable[str] = ()) -> list[str]:
    """Agent specs from a comma-separated list, keeping commas inside a spec's arguments.

    ``"random,ismcts:sims=50,c=2,heuristic"`` is three specs: a ``name=value``
    piece that names no agent kind, such as ``c=2``, continues the spec
    with arguments before it. Anything else starts a spec, so a misspelt
    kind still reaches :func:`make_agent` and its error. ``extra_kinds`` adds
    words that start a spec in that list (the training pool's ``self``).
    """
    kinds = set(AGENT_KINDS) | set(extra_kinds)
    specs: list[str] = []
    for piece in (part.strip() for part in text.split(",")):
        if not piece:
            continue
        kind = piece.split(":", 1)[0].split("@", 1)[0]
        argument = "=" in piece and ":" not in piece and kind not in kinds
        if specs and argument and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


__all__ = [
    "AGENT_KINDS", "IN_PROCESS_KINDS", "Agent", "AgentForfeit", "GreedyAgent", "ISMCTSAgent",
    "PileHeuristic", "PolicyAgent", "RandomAgent", "check_agent_spec", "make_agent", "play_game",
    "spec_kind", "split_specs",
]
