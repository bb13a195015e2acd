"""Run notebooks in place with their full budgets, so their committed outputs are fresh.

    .venv/bin/python notebooks/run.py                 # every notebook
    .venv/bin/python notebooks/run.py 02_train.ipynb  # one

``make notebooks`` calls this. The test suite runs the same notebooks with small
budgets (``notebooks/conftest.py``) and never writes them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def run(path: Path, timeout: int) -> float:
    """Execute ``path`` in its own directory and write it back with its outputs."""
    notebook = nbformat.read(path, as_version=4)
    started = time.monotonic()
    NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(notebook, path)
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("notebooks", nargs="*", help="notebook files (default: all here)")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per cell")
    args = parser.parse_args(argv)
    os.environ.pop("EIGHTS_NOTEBOOK_BUDGET", None)  # the full budgets
    paths = [Path(p).resolve() if os.sep in p or Path(p).exists() else HERE / p
             for p in args.notebooks] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        if not path.is_file():
            print(f"error: no notebook {path}", file=sys.stderr)
            return 2
        print(f"{path.name}: running ...", flush=True)
        print(f"{path.name}: done in {run(path, args.timeout):.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
