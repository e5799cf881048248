"""Builders of the outcome score tests (``test_outcome.py``, ``test_outcome_records.py``):
verification entries by role, a record read as the command line reads it, and its score.
"""

from __future__ import annotations

import json
from decimal import Context, Decimal
from typing import Any

from scoring import OutcomeRecord, score_outcome
from scoring.formulas.outcome import OutcomeScore


def exact_sqrt(value: str) -> float:
    """The correctly rounded float of sqrt(value), for a decimal written exactly."""
    return float(Decimal(value).sqrt(Context(prec=60)))


def entry(name: str, role: str, status: str, severity: str | None = None, weight: Any = None):
    e: dict[str, Any] = {"name": name, "role": role, "status": status}
    if severity is not None:
        e["severity"] = severity
    if weight is not None:
        e["weight"] = weight
    return e


def obj(name: str, status: str, weight: Any = None) -> dict[str, Any]:
    return entry(name, "objective", status, weight=weight)


def rec_guard(name: str, status: str, weight: Any = None) -> dict[str, Any]:
    return entry(name, "safeguard", status, "recoverable", weight)


def cat_guard(name: str, status: str) -> dict[str, Any]:
    return entry(name, "safeguard", status, "catastrophic")


def record(data: dict[str, Any]) -> OutcomeRecord:
    """A record read from its JSON text, as the command line reads it (strict model)."""
    return OutcomeRecord.model_validate_json(json.dumps(data))


def score(
    verification: list[dict[str, Any]] | None = None,
    judged: dict[str, Any] | None = None,
    efficiency: dict[str, Any] | None = None,
    run_id: str = "r",
) -> OutcomeScore:
    data: dict[str, Any] = {"run_id": run_id}
    if verification is not None:
        data["verification"] = verification
    if judged is not None:
        data["judged"] = judged
    if efficiency is not None:
        data["efficiency"] = efficiency
    return score_outcome(record(data))


def scored(data: dict[str, Any]) -> OutcomeScore:
    """Score a record given as JSON data (``run_id`` "r" unless given)."""
    return score_outcome(record({"run_id": "r"} | data))
