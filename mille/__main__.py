"""``python -m mille``: the same as the ``mille`` command."""

import sys

from .cli import main

sys.exit(main())
