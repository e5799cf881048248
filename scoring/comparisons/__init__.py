"""Comparing agents (docs/uncertainty.md): whether one is really ahead of another
(:mod:`~scoring.comparisons.paired`, and ``scoring compare``'s library part,
:mod:`~scoring.comparisons.compare`), the ranks of a report
(:mod:`~scoring.comparisons.ranks`) and how many runs tell two agents apart
(:mod:`~scoring.comparisons.planning`).
"""
