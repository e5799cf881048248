"""``python -m scoring``."""

from scoring.cli import main

main()
