"""numba's cache of the kernels is cleared when any source they are compiled from changes."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from eights.vector import cache


def _cached(directory: Path) -> set[str]:
    return {p.name for pattern in cache.CACHE_PATTERNS for p in directory.glob(pattern)}


def test_a_stale_stamp_clears_the_cached_kernels_once_and_keeps_other_files(tmp_path):
    for name in ("batch.step_many-64.py311.nbi", "batch.step_many-64.py311.1.nbc",
                 "search.iterate-321.py311.nbi"):
        (tmp_path / name).write_bytes(b"old")
    (tmp_path / "tables.cpython-311.pyc").write_bytes(b"bytecode")
    log = io.StringIO()
    assert cache.clear_stale_kernels(tmp_path, "new", log) == 3
    assert _cached(tmp_path) == set() and (tmp_path / "tables.cpython-311.pyc").exists()
    assert (tmp_path / cache.STAMP).read_text().strip() == "new"
    assert "3 cached files cleared" in log.getvalue() and str(tmp_path) in log.getvalue()
    (tmp_path / "batch.step_many-64.py311.nbi").write_bytes(b"compiled under new")
    assert cache.clear_stale_kernels(tmp_path, "new", log) == 0  # the same sources: kept
    assert _cached(tmp_path) == {"batch.step_many-64.py311.nbi"}
    assert cache.clear_stale_kernels(tmp_path, "newer", None) == 1


def test_a_directory_without_a_stamp_is_stale(tmp_path):
    (tmp_path / "kernels.kernel-1.py311.nbi").write_bytes(b"from before stamps")
    assert cache.clear_stale_kernels(tmp_path, "any", None) == 1


def test_the_sources_are_every_module_here_and_what_kernels_import_from_outside():
    """A core's rules reach ``batch.py``'s kernels through ``cores.py``; the belief's
    epsilons and the heuristic's weights are constants compiled into the search: an
    edit to any of them must clear the cache."""
    found = cache.sources()
    here = set(Path(cache.__file__).parent.glob("*.py"))
    assert here <= set(found)
    outside = {str(p.relative_to(cache.PACKAGE)) for p in found if p not in here}
    assert {"agents/heuristic.py", "cards.py", "engines/determinizers/belief.py"} <= outside
    assert "agents/policy.py" not in outside  # Python-side imports reach no kernel


def test_the_digest_changes_with_any_source_byte(tmp_path):
    copies = []
    for path in cache.sources()[:3]:
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        copies.append(copy)
    before = cache.digest(copies)
    assert cache.digest(copies) == before
    copies[-1].write_bytes(copies[-1].read_bytes() + b"\n")
    assert cache.digest(copies) != before


def test_the_package_stamps_numbas_own_cache_directory_with_todays_sources():
    from eights.vector import mt

    directory = cache.cache_directory()
    assert directory == Path(mt.splitmix_next._cache._cache_path)  # where kernels are cached
    assert (directory / cache.STAMP).read_text().strip() == cache.digest()
