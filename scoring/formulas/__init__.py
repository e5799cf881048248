"""The formulas of the scores, one module each, written as the site typesets them.

- :mod:`~scoring.formulas.composite`: the headline composite (success, consistency ×
  latency, cost; docs/composite.md);
- :mod:`~scoring.formulas.curves`: the piecewise-linear latency and cost curves it reads;
- :mod:`~scoring.formulas.radar`: the five-axis fitness radar and its weighted profile;
- :mod:`~scoring.formulas.repeatability`: pass^k;
- :mod:`~scoring.formulas.outcome`: the run-level outcome score.
"""
