"""``python -m contracts``."""

import sys

from contracts.cli import main

sys.exit(main())
