"""``python -m mille``: the same as the ``mille`` command."""

import sys

from .frontends.cli import main

sys.exit(main())
