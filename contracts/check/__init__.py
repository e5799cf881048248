"""The drift check (``python -m contracts check``): the live methodology against the committed
contracts, one named check after another (:mod:`~contracts.check.drift`).

- :mod:`~contracts.check.snapshots`: the committed snapshots, the lock and the changelog;
- :mod:`~contracts.check.diff` and :mod:`~contracts.check.causes`: how two snapshots differ,
  the causes first;
- :mod:`~contracts.check.formulas`, :mod:`~contracts.check.agreement` and
  :mod:`~contracts.check.registration`: each formula's LaTeX held equal to its code;
- :mod:`~contracts.check.words` and :mod:`~contracts.check.claims`: numbers written in words;
- :mod:`~contracts.check.invariants`: the methodology's own invariants;
- :mod:`~contracts.check.findings` and :mod:`~contracts.check.failure`: what a check found,
  as the lines it prints.
"""
