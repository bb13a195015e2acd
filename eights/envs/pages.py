"""The env pages in ``docs/envs/``: generated blocks inside hand-written pages.

A page (``docs/envs/<variant>.md``) is prose written by people (the rules
summary, the shipped agents' measured strength) around blocks marked::

    <!-- generated: observation -->
    ...
    <!-- /generated -->

Each block is made here from the variant's registration and its env module's
:class:`~eights.envs.docs.EnvDoc`: the spaces, the observation table from the
declared view fields, the options with their defaults, a rendered position and
the version history. Pages about every variant at once (:data:`SHARED_PAGES`:
docs/training.md's table of Gymnasium ids, docs/protocol.md's of the variants a
hello may name and of every variant's event kinds) hold blocks made from the registry
alone (:data:`SHARED_BLOCKS`), so a new variant cannot be left out of them.
``python -m eights.envs.pages`` rewrites the blocks in place; ``--check`` only
reports the stale ones, which is what the test suite runs, so a page cannot
drift from the code.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ..variants import REGISTRY
from .docs import EnvDoc

#: where the pages are, relative to the repository root
PAGES = Path("docs") / "envs"
BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /generated -->)",
                   re.DOTALL)
#: the decisions played at least before the page's picture of a position, and the deal's seed
POSITION_DECISIONS = 3
POSITION_SEED = 4


def env_doc(variant: str) -> EnvDoc:
    """The :class:`EnvDoc` of ``variant``'s env module."""
    return importlib.import_module(REGISTRY[variant].env).DOC


def position(variant: str) -> str:
    """A seeded game between heuristics, when seat 0 is first to act after a few decisions,
    as seat 0 sees it (the others' cards hidden)."""
    from ..agents import make_agent
    from ..engines import make_game

    game = make_game(variant, seed=POSITION_SEED)
    agents = [make_agent("heuristic", variant, seed=seat) for seat in range(game.num_players)]
    decisions = 0
    while not game.game_over and (decisions < POSITION_DECISIONS or game.current_player != 0):
        seat = game.current_player
        game.step(agents[seat].act(game.view(seat)))
        decisions += 1
    return "\n".join(["```text", game.render(seat=0).rstrip(), "```"])


def options(variant: str) -> str:
    """The variant's options with their defaults, what is allowed and what each means."""
    return env_doc(variant).engine.Config.describe()


def summary(variant: str) -> str:
    """The env's summary without its title line, and where its rules are."""
    text = env_doc(variant).summary.strip().split("\n", 1)[1].strip()
    rules = REGISTRY[variant].docs
    return text.replace(f"``{rules}``", f"[{rules}](../{rules.removeprefix('docs/')})")


BLOCKS: dict[str, Callable[[str], str]] = {
    "summary": summary,
    "overview": lambda v: env_doc(v).overview(),
    "position": position,
    "actions": lambda v: env_doc(v).action_space(),
    "observation": lambda v: env_doc(v).observation_space(),
    "options": options,
    "notes": lambda v: env_doc(v).notes.strip(),
    "history": lambda v: env_doc(v).version_history(),
}


def gym_ids() -> str:
    """Every variant's Gymnasium id and PettingZoo module, as a Markdown table."""
    from ..registration import GYM_IDS

    rows = ["| variant | Gymnasium id | PettingZoo module |", "| --- | --- | --- |"]
    rows += [f"| `{variant}` | `{GYM_IDS[variant]}` | `{REGISTRY[variant].env}` |"
             for variant in REGISTRY]
    return "\n".join(rows)


def protocol_variants() -> str:
    """Every variant a hello may name, what it is, and its actions' text forms (the protocol's
    ``legal`` lists and answers), as a Markdown table."""
    from ..engines import engine_class

    rows = ["| variant | in one line | actions |", "| --- | --- | --- |"]
    rows += [f"| `{variant}` | {REGISTRY[variant].summary} | "
             f"{', '.join(engine_class(variant).actions.forms())} |" for variant in REGISTRY]
    return "\n".join(rows)


def protocol_events() -> str:
    """Every variant's declared event kinds (:mod:`eights.engines.events`): what a history
    holds, each argument's kind and who sees the card, as a Markdown table."""
    from ..engines import engine_class
    from ..engines.events import events_table

    return events_table({variant: engine_class(variant).event_kinds for variant in REGISTRY})


def protocol_view(variant: str) -> Callable[[], str]:
    """The table of ``variant``'s view fields in docs/protocol.md (required, default, meaning),
    from the engine's declarations."""
    def table() -> str:
        from ..protocol.schema_views import view_table

        return view_table(variant)
    return table


#: blocks of the pages about every variant at once, made from the registry
SHARED_BLOCKS: dict[str, Callable[[], str]] = {
    "gym-ids": gym_ids, "protocol-variants": protocol_variants,
    "protocol-events": protocol_events,
    **{f"protocol-view-{variant}": protocol_view(variant) for variant in REGISTRY}}
#: those pages, relative to the repository root
SHARED_PAGES = (Path("docs") / "training.md", Path("docs") / "protocol.md")


def refreshed(text: str, variant: str | None, where: str = "") -> str:
    """``text`` with every generated block made anew for ``variant`` (``None``: a shared
    page, whose blocks are :data:`SHARED_BLOCKS`)."""
    blocks = BLOCKS if variant is not None else SHARED_BLOCKS

    def fill(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in blocks:
            raise ValueError(f"{where}: unknown generated block {name!r}; the blocks are "
                             f"{', '.join(blocks)}")
        made = BLOCKS[name](variant) if variant is not None else SHARED_BLOCKS[name]()
        return f"{match.group(1)}{made.rstrip()}\n{match.group(4)}"
    return BLOCK.sub(fill, text)


def page_path(root: Path, variant: str) -> Path:
    return root / PAGES / f"{variant}.md"


def stale_blocks(root: Path, variant: str | None, path: Path | None = None) -> list[str]:
    """The names of the blocks of ``variant``'s page (or of the shared page ``path``, with
    ``variant=None``) that differ from what the code makes now."""
    path = page_path(root, variant) if variant is not None else root / path
    text = path.read_text(encoding="utf-8")
    fresh = refreshed(text, variant, str(path))
    old = {m.group("name"): m.group("body") for m in BLOCK.finditer(text)}
    new = {m.group("name"): m.group("body") for m in BLOCK.finditer(fresh)}
    return [name for name in old if old[name] != new[name]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m eights.envs.pages",
        description="Rewrite the generated blocks of docs/envs/<variant>.md and of the pages "
                    "about every variant (docs/training.md) from the code.")
    parser.add_argument("variants", nargs="*", metavar="VARIANT",
                        help=f"variants (default: all of {', '.join(REGISTRY)}, and the "
                             f"shared pages)")
    parser.add_argument("--root", type=Path, default=Path("."), help="the repository root")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a block is out of date")
    args = parser.parse_args(argv)
    unknown = [v for v in args.variants if v not in REGISTRY]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; the variants are {', '.join(REGISTRY)}")
    status = 0
    targets: list[tuple[str | None, Path | None]] = [(v, None) for v in args.variants or REGISTRY]
    if not args.variants:
        targets += [(None, shared) for shared in SHARED_PAGES]
    for variant, shared in targets:
        path = page_path(args.root, variant) if variant is not None else args.root / shared
        if not path.is_file():
            print(f"error: {path} does not exist", file=sys.stderr)
            return 2
        stale = stale_blocks(args.root, variant, shared)
        if not stale:
            print(f"{path}: up to date")
        elif args.check:
            print(f"{path}: out of date: {', '.join(stale)} (run python -m eights.envs.pages)")
            status = 1
        else:
            path.write_text(refreshed(path.read_text(encoding="utf-8"), variant, str(path)),
                            encoding="utf-8")
            print(f"{path}: rewrote {', '.join(stale)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
