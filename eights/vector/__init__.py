"""``eights.vector``: many tables advanced together, with a compiled core where a variant has one.

::

    import eights.vector
    env = eights.vector.make("crazy_eights", num_envs=1024, opponents="heuristic", seed=0)
    obs, infos = env.reset()
    obs, rewards, terminated, truncated, infos = env.step(actions)   # one action per table

:func:`make` returns a :class:`~eights.vector.env.VectorEnv`: a learner seat
at every table, the opponents answering in batches
(:mod:`eights.vector.opponents`), observations and masks written in place,
auto-reset with the final observation kept. Its tables are
:class:`~eights.vector.tables.CompiledTables` (a numba core:
:data:`~eights.vector.tables.COMPILED`) or
:class:`~eights.vector.tables.PythonTables` (the Python engines, every
variant and option), with the same games for the same seeds. Adapters:
:class:`~eights.vector.adapters.GymVectorEnv` (Gymnasium's ``VectorEnv``) and
:class:`~eights.vector.adapters.SB3VecEnv` (stable-baselines3's ``VecEnv``
with MaskablePPO's ``action_masks``).

Importing ``eights`` does not import this package: numba compiles the cores
here on their first use and caches them on disk (``__pycache__`` beside the
modules, or ``NUMBA_CACHE_DIR``), so only the first use in a fresh install
pays the compile time. numba keys a cached kernel by its own file only, so the
cache directory also carries a digest of every source the kernels are compiled
from, and a stale cache is cleared before anything loads from it
(:mod:`eights.vector.cache`).
"""

from .cache import clear_stale_kernels

clear_stale_kernels()

from .env import VectorEnv, make  # noqa: E402  (after the cache is known to be true)
from .tables import (  # noqa: E402
    COMPILED,
    CompiledTables,
    PythonTables,
    Tables,
    game_seeds,
    make_tables,
)

__all__ = ["COMPILED", "CompiledTables", "PythonTables", "Tables", "VectorEnv", "game_seeds",
           "make", "make_tables"]
