"""``python -m rednovember``: the same as the ``rednovember`` command."""

import sys

from .cli import main

sys.exit(main())
