"""How far a score can be trusted: the 95% intervals, clustered by task (docs/uncertainty.md).

- :mod:`~scoring.intervals.rates`: the intervals of the rates (success, correctness, pass^k),
  read from :mod:`~scoring.intervals.rate_bounds` and typeset by
  :mod:`~scoring.intervals.rate_tex`;
- :mod:`~scoring.intervals.moves`: the headline composite's interval, asymmetric moves read
  off each part's own interval;
- :mod:`~scoring.intervals.variance`: the clustered variance and covariance of per-task
  sums, and the composite's gradient (the slopes of its curves);
- :mod:`~scoring.intervals.clustered`: the per-task sums, the effective sample size and the
  Wilson bounds they share;
- :mod:`~scoring.intervals.surd`: exact bounds ``a + b·√q`` rounded outwards;
- :mod:`~scoring.intervals.quantiles`: the Beta and Student t quantiles.
"""
