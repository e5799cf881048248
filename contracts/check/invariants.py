"""The methodology's own invariants (:mod:`scoring.invariants`) as the contracts see them:
``contracts check`` fails on a broken one and ``contracts update`` refuses to record it.

A broken invariant is a disagreement between the code and the rules of the methodology,
so it ends the check with exit 1, like drift; each line names the constant, its line and
the invariant, so that the fix is to edit that constant.
"""

from __future__ import annotations

from scoring.errors import Breach
from scoring.invariants import breaches


def invariant_lines(found: list[Breach] | None = None) -> list[str]:
    """What the check and the update print for the live breaches (none: no lines)."""
    found = breaches() if found is None else found
    if not found:
        return []
    count = len(found)
    head = (
        f"scoring/invariants.py: the live constants break the methodology's invariants "
        f"({count} problem{'' if count == 1 else 's'}); fix each constant named:"
    )
    return [head, *(f"  {breach}" for breach in found)]
