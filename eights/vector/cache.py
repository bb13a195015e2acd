"""numba's disk cache of the kernels, kept true to every source they are compiled from.

numba keys a cached kernel by the stamp of its own source file only. The
kernels here are compiled across files: :mod:`eights.vector.batch` and
:mod:`eights.vector.search` call each core's functions through the overloads
of :mod:`eights.vector.cores`, and kernels read constants of modules outside
this package (card ranks, the heuristic's weights, the belief's epsilons), all
of it compiled into the cached machine code. A core edited (a rules fix, a
``git pull`` into an editable install) would leave ``batch.py``'s cached
kernels playing the old rules while the Python engines play the new: the
differential tests would fail, or worse, a tournament would run on them.

So the cache directory carries a stamp, a digest of every source the kernels
are compiled from (this package's modules, the modules they import at module
level, numba's version); where it differs, :func:`clear_stale_kernels` deletes
the directory's cached kernels before any is loaded, once (under a lock where
the platform has one), and they are compiled anew on first use. The package's
``__init__`` calls it, so nothing that imports a kernel can miss it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import numba

#: the stamp file, in the kernels' cache directory
STAMP = "eights-kernels.sha256"
#: what numba writes there: an index and the data of each cached kernel
CACHE_PATTERNS = ("*.nbi", "*.nbc")
#: the package root (``eights/``)
PACKAGE = Path(__file__).resolve().parent.parent
#: a module-level import from elsewhere in the package (``from ..cards import RANK``)
_OUTSIDE_IMPORT = re.compile(r"^from \.\.([\w.]+) import", re.MULTILINE)


def sources() -> list[Path]:
    """Every file the kernels are compiled from, sorted: this package's modules, and the
    modules of ``eights`` that its kernel modules (those with ``@numba`` decorators)
    import at module level, whose constants compiled code reads. Imports inside
    functions run in Python (they build the constants a kernel is passed as arrays at
    run time), and the Python-side modules' imports (a policy, an env) reach no kernel,
    so an edit there leaves the cache alone."""
    here = sorted(Path(__file__).resolve().parent.glob("*.py"))
    found = set(here)
    for path in here:
        text = path.read_text(encoding="utf-8")
        if "@numba." not in text:
            continue
        for dotted in _OUTSIDE_IMPORT.findall(text):
            target = PACKAGE.joinpath(*dotted.split("."))
            module = target.with_suffix(".py")
            found.add(module if module.is_file() else target / "__init__.py")
    return sorted(found)


def digest(paths: list[Path] | None = None) -> str:
    """The sha256 of ``paths`` (default :func:`sources`), by their paths relative to the
    package and their bytes, and of numba's version."""
    h = hashlib.sha256(f"numba {numba.__version__}\n".encode())
    for path in paths if paths is not None else sources():
        name = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path.name
        h.update(f"{name}\n".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_directory() -> Path:
    """Where numba caches this package's kernels (``__pycache__`` beside the modules, a
    user-wide directory where that is read-only, or under ``NUMBA_CACHE_DIR``), as numba
    itself locates it."""
    from numba.core.caching import FunctionCache

    return Path(FunctionCache(sources)._cache_path)


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory``'s stamp (where ``fcntl`` exists), so of
    processes starting together one checks and clears while the others wait."""
    try:
        import fcntl
    except ImportError:  # (Windows) no lock: a second clearing only costs a compile
        yield
        return
    with open(directory / (STAMP + ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def clear_stale_kernels(directory: Path | None = None, stamp: str | None = None,
                        log: TextIO | None = sys.stderr) -> int:
    """Delete the cached kernels in ``directory`` (default :func:`cache_directory`) unless
    its stamp is ``stamp`` (default :func:`digest`), then write the stamp; return how many
    files were deleted, saying so on ``log`` (``None``: silently). A directory that
    cannot be written is left as it is (numba then compiles in memory, or caches
    elsewhere)."""
    try:
        directory = directory if directory is not None else cache_directory()
        stamp = stamp if stamp is not None else digest()
        directory.mkdir(parents=True, exist_ok=True)
        with _locked(directory):
            stamp_file = directory / STAMP
            if stamp_file.is_file() and stamp_file.read_text().strip() == stamp:
                return 0
            stale = [p for pattern in CACHE_PATTERNS for p in directory.glob(pattern)]
            for path in stale:
                path.unlink(missing_ok=True)
            partial = stamp_file.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(stamp + "\n")
            partial.replace(stamp_file)
    except OSError:
        return 0
    if stale and log is not None:
        print(f"eights.vector: the sources changed since the kernels in {directory} were "
              f"cached; {len(stale)} cached files cleared, compiled anew on first use",
              file=log)
    return len(stale)


__all__ = ["STAMP", "cache_directory", "clear_stale_kernels", "digest", "sources"]
