"""The notebooks run in ``make test`` with small budgets.

Each notebook reads ``EIGHTS_NOTEBOOK_BUDGET``: ``"small"`` (set here, so the
kernels nbmake starts inherit it) runs a few seconds of games and training;
unset, as when a person runs the notebook or ``make notebooks`` refreshes the
committed outputs, it runs the full budgets whose outputs are committed.
"""

import os

os.environ.setdefault("EIGHTS_NOTEBOOK_BUDGET", "small")
