"""The report's JSON written by msgspec is the text ``json.dumps`` gives (issue 21).

:func:`scoring.serialize.report_json_text` encodes in C what
:func:`scoring.serialize.to_json_text` writes with the standard library; both claims it rests
on are checked here (msgspec writes every string without a lone surrogate, and every float
from 1e-4 up to 1e16, as ``json.dumps`` does), then whole reports, with the agent ids, latencies
and costs that take the other way (non-ASCII, terminal controls, tiny and huge floats).
"""

from __future__ import annotations

import json
import math

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.models import RunRecord
from scoring.report import ReportBuilder, build_report
from scoring.report_cohort import CohortSums
from scoring.serialize import _plain, report_json_text, report_to_json, to_json_text


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
@example('\x7f\x1b\u202e\u2028\n"\\/')
def test_msgspec_writes_strings_as_json_dumps(text: str) -> None:
    assert msgspec.json.encode(text).decode() == json.dumps(text, ensure_ascii=False)


def test_msgspec_writes_every_character_but_surrogates_as_json_dumps() -> None:
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        assert msgspec.json.encode(char).decode() == json.dumps(char, ensure_ascii=False)


@settings(max_examples=1000)
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(1e-4)
@example(math.nextafter(1e-4, 0))
@example(1e16)
@example(math.nextafter(1e16, 0))
@example(5e-324)
def test_msgspec_writes_plain_floats_as_json_dumps(value: float) -> None:
    if _plain(value):
        assert msgspec.json.encode(value).decode() == json.dumps(value)


def test_the_float_check_catches_the_exponent_forms() -> None:
    for value in (1e-5, 1e16, 2.5e17):
        assert not _plain(value)
        assert msgspec.json.encode(value).decode() != json.dumps(value)


def line(agent: str, run: int, latency: float, cost: float, success: bool | None) -> bytes:
    return json.dumps(
        {
            "run_id": f"run-{run}",
            "agent_id": agent,
            "task_id": f"task-{run % 12}",
            "status": "completed",
            "success": success,
            "latency_ms": latency,
            "cost_usd": cost,
            "steps": run % 7,
            "finished_at": f"2026-01-01T00:{run % 60:02d}:00Z",
        },
        ensure_ascii=True,
    ).encode()


agent_ids = st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6)
amounts = st.one_of(
    st.floats(min_value=0, max_value=1e30, allow_nan=False),
    st.sampled_from([0.0, 1e-7, 9.99e-5, 1e-4, 1e16, 2.5e17, 123.456]),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(agent_ids, amounts, amounts, st.sampled_from([True, False, None])),
        min_size=1,
        max_size=40,
    )
)
def test_report_json_text_is_to_json_text(
    runs: list[tuple[str, float, float, bool | None]],
) -> None:
    report = build_report(
        [
            line(agent, i, latency, cost, success)
            for i, (agent, latency, cost, success) in enumerate(runs)
        ]
    )
    assert report_json_text(report) == to_json_text(report_to_json(report))


def test_a_lone_surrogate_fails_as_in_to_json_text() -> None:
    builder = ReportBuilder()
    builder.add(
        RunRecord.model_construct(
            run_id="r",
            agent_id="a\ud800",
            task_id="t",
            status="completed",
            success=True,
            latency_ms=1.0,
            cost_usd=0.5,
            steps=1,
            finished_at="2026-01-01T00:00:00Z",
        )
    )
    report = builder.finish()
    with pytest.raises(UnicodeEncodeError):
        to_json_text(report_to_json(report))
    with pytest.raises(UnicodeEncodeError):
        report_json_text(report)


# --- per-agent shortcuts -----------------------------------------------------------------


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from([True, False, None]),
            amounts,
            amounts,
        ),
        min_size=1,
        max_size=12,
    )
)
def test_one_run_at_a_time_gives_the_batch_sums(
    runs: list[tuple[str, bool | None, float, float]],
) -> None:
    """``CohortSums.add`` of one run (its own shortcut) and of the whole batch agree."""
    batch, single = CohortSums(), CohortSums()
    batch.add(*map(list, zip(*runs, strict=True)))
    for task, success, latency, cost in runs:
        single.add([task], [success], [latency], [cost])
    assert single.tasks() == batch.tasks()
    assert single.totals() == batch.totals()
