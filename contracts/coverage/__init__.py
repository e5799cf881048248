"""Coverage of the intervals on simulated agents: ``simulate.py`` writes ``coverage.json``."""
