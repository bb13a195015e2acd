"""``python -m eights``: the ``eights`` command, for when its script is not on ``PATH``
(a venv that is not activated, or ``pip install --user`` without the scripts folder)."""

import sys

from .cli import main

sys.exit(main())
