"""A large run log read in two parts at once (``scoring.report._read_in_parts``): the same
builder, the same document and the same problems as one reading, or one reading instead.

The size threshold is lowered to 0 here and a second core is assumed, so that small logs
are read in parts too; each test checks that the parts were read where they should be.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from builders import good_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from report_logs import RANDOM_LOGS, random_log
from report_reference import to_lines

from scoring import InputError, build_report, report_to_json
from scoring import forking as forking_module
from scoring import report as report_module
from scoring.forking import Helper, SharedCounts
from scoring.published import publish
from scoring.report import ReportBuilder, read_runs

_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def in_parts(share: float = 0.5) -> Iterator[list[int]]:
    """Every file read in parts (``share`` of it by the helper); yields a list that gets a
    1 for each merge of a helper's part."""
    merges: list[int] = []
    merge = ReportBuilder.merge

    def counted(self: ReportBuilder, later: ReportBuilder) -> None:
        merges.append(1)
        merge(self, later)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(report_module, "PARALLEL_MIN_BYTES", 0)
        patch.setattr(report_module, "HELPER_SHARE", share)
        patch.setattr(report_module, "helpers_allowed", lambda: True)
        patch.setattr(ReportBuilder, "merge", counted)
        yield merges


def _file(tmp_path: Path, data: bytes, name: str = "runs.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _documents(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The exact report and the published document of the file."""
    with path.open("rb") as source:
        builder = read_runs(source)
    return publish(builder), report_to_json(builder.finish())


def _problems(read: Any) -> str:
    with pytest.raises(InputError) as raised:
        read()
    return str(raised.value)


@_SETTINGS
@given(**RANDOM_LOGS, share=st.floats(0.05, 0.95))
def test_the_parts_give_the_report_of_one_reading(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    size: int,
    agents: int,
    tasks: int,
    minutes: int,
    share: float,
) -> None:
    records = random_log(random.Random(seed), size, agents, tasks, minutes)
    lines = to_lines(records)
    path = _file(tmp_path_factory.mktemp("parts"), b"".join(lines))
    with in_parts(share) as merges:
        published, exact = _documents(path)
    data = path.read_bytes()
    cut = len(data) - int(len(data) * share)
    starts = [i + 1 for i, byte in enumerate(data[:-1]) if byte == ord("\n")]
    assert merges == ([1] if any(cut <= start for start in starts) else [])
    assert exact == report_to_json(build_report(lines))
    assert published == report_to_json(build_report(lines))


def test_a_merge_that_loses_the_later_window_is_caught(tmp_path: Path) -> None:
    """The comparison above can fail: a merge that drops the helper's window candidates
    gives another radar."""
    records = random_log(random.Random(7), 400, 3, 5, 60)
    path = _file(tmp_path, b"".join(to_lines(records)))

    def forgetful(self: Any, later: Any, offset: int) -> None:
        later.window.clear()
        merge(self, later, offset)

    merge = report_module._AgentState.merge
    with in_parts(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(report_module._AgentState, "merge", forgetful)
        _, exact = _documents(path)
    assert exact != report_to_json(build_report(to_lines(records)))


def _log(runs: list[dict[str, Any]]) -> bytes:
    return b"".join(to_lines(runs))


_CLEAN = [good_run(i, f"agent-{i % 3}") for i in range(40)]


@pytest.mark.parametrize(
    "data",
    [
        # a bad line early, late, in both parts
        _log([*_CLEAN[:3], good_run(3, latency_ms=-1), *_CLEAN[4:]]),
        _log([*_CLEAN[:37], good_run(37, status="done"), *_CLEAN[38:]]),
        _log([good_run(0, steps=-1), *_CLEAN[1:39], good_run(39, cost_usd="x")]),
        # a run_id in both parts, and twice in the later part
        _log([*_CLEAN, good_run(1, "agent-9")]),
        _log([*_CLEAN, good_run(90), good_run(90)]),
        # a repeated key, a byte-order mark, a blank line after the split
        _log(_CLEAN) + b'{"run_id": "x", "run_id": "y"}\n',
        _log(_CLEAN[:20]) + b"\xef\xbb\xbf" + _log(_CLEAN[20:]),
        _log(_CLEAN[:30]) + b"\n\n" + _log(_CLEAN[30:]),
        # an unterminated last line, good and bad
        _log(_CLEAN).rstrip(b"\n"),
        _log(_CLEAN) + b'{"run_id": "cut',
        # a completed run without its latency (a status rule), in the later part
        _log([*_CLEAN[:35], good_run(35, latency_ms=None), *_CLEAN[36:]]),
    ],
    ids=[
        "bad-early",
        "bad-late",
        "bad-both",
        "duplicate-across",
        "duplicate-later",
        "repeated-key",
        "mark-at-split",
        "blank-lines",
        "unterminated",
        "cut-line",
        "status-rule",
    ],
)
@pytest.mark.parametrize("share", [0.1, 0.3, 0.45, 0.5, 0.55, 0.7, 0.9])
def test_an_input_in_parts_ends_as_one_reading_ends(
    tmp_path: Path, data: bytes, share: float
) -> None:
    """Wherever the split falls (the shares move it over the lines)."""
    path = _file(tmp_path, data)
    try:
        expected: Any = report_to_json(build_report(io.BytesIO(data)))
    except InputError as error:
        expected = str(error)
    with in_parts(share):
        try:
            found: Any = _documents(path)[1]
        except InputError as error:
            found = str(error)
    assert found == expected


def _share_at(data: bytes, position: int) -> float:
    """The helper's share that makes the later part start at ``position`` (a line start)."""
    return (len(data) - position + 0.5) / len(data)


@pytest.mark.parametrize(
    "between",
    [b"\xef\xbb\xbf", b"\n", b"\n\n", b"\xef\xbb\xbf\n", b" "],
    ids=["mark", "blank", "blanks", "mark-alone", "space"],
)
def test_the_later_part_starting_at_an_odd_line_ends_as_one_reading(
    tmp_path: Path, between: bytes
) -> None:
    """A line that starts the later part is read as one reading reads it there (a
    byte-order mark inside a file belongs to its line)."""
    head = _log(_CLEAN[:20])
    data = head + between + _log(_CLEAN[20:])
    path = _file(tmp_path, data)
    try:
        expected: Any = report_to_json(build_report(io.BytesIO(data)))
    except InputError as error:
        expected = str(error)
    with in_parts(_share_at(data, len(head))):
        try:
            found: Any = _documents(path)[1]
        except InputError as error:
            found = str(error)
    assert found == expected


def test_a_problem_ends_the_parts_and_one_reading_names_it(tmp_path: Path) -> None:
    data = _log([*_CLEAN[:38], good_run(38, latency_ms=-1), *_CLEAN[39:]])
    path = _file(tmp_path, data)
    readings: list[int] = []
    read = report_module._read

    def counted(*args: Any, **kwargs: Any) -> Any:
        readings.append(1)
        return read(*args, **kwargs)

    with in_parts() as merges, pytest.MonkeyPatch.context() as patch:
        patch.setattr(report_module, "_read", counted)
        message = _problems(lambda: read_runs(path.open("rb")))
    assert "line 39" in message
    assert "latency_ms" in message
    assert merges == []  # the parts were not merged
    assert len(readings) == 2  # the parent's part, then the one reading


@pytest.mark.parametrize("how", ["raises", "exits", "killed"])
def test_a_failed_helper_leaves_the_reading_to_the_parent(tmp_path: Path, how: str) -> None:
    path = _file(tmp_path, _log(_CLEAN))

    def broken(*args: Any) -> Any:
        if how == "raises":
            raise RuntimeError("helper failed")
        if how == "exits":
            os._exit(3)
        os.kill(os.getpid(), 9)

    with in_parts() as merges, pytest.MonkeyPatch.context() as patch:
        patch.setattr(report_module, "_read_part", broken)
        published, exact = _documents(path)
    assert merges == []
    assert exact == report_to_json(build_report(to_lines(_CLEAN)))
    assert published == exact


def test_gzip_and_a_file_read_from_its_middle_are_read_at_once(tmp_path: Path) -> None:
    data = _log(_CLEAN)
    packed = _file(tmp_path, gzip.compress(data), "runs.jsonl.gz")
    plain = _file(tmp_path, data)
    expected = report_to_json(build_report(to_lines(_CLEAN)))
    later = report_to_json(build_report(to_lines(_CLEAN[1:])))
    with in_parts() as merges:
        assert report_to_json(read_runs(packed.open("rb")).finish()) == expected
        with plain.open("rb") as source:
            source.readline()  # the first run read already: the rest is the input
            assert report_to_json(read_runs(source).finish()) == later
    assert merges == []


def test_a_file_opened_as_text_is_read_at_once(tmp_path: Path) -> None:
    path = _file(tmp_path, _log(_CLEAN))
    with pytest.raises(TypeError) as once, path.open() as text:
        build_report(text)
    with in_parts() as merges, pytest.raises(TypeError) as parts, path.open() as text:
        read_runs(text)
    assert merges == []
    assert str(parts.value) == str(once.value)


def test_the_progress_counts_both_parts(tmp_path: Path) -> None:
    data = _log(_CLEAN * 1)
    path = _file(tmp_path, data)
    read: list[int] = []
    rows: list[int] = []
    with in_parts() as merges, path.open("rb") as source:
        read_runs(source, on_read=read.append, on_rows=rows.append)
    assert merges == [1]
    assert sum(read) == len(data)
    assert sum(rows) == len(_CLEAN)


def test_no_process_to_fork_leaves_the_reading_to_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forking_module.os, "fork", no_fork)
    path = _file(tmp_path, _log(_CLEAN))
    with in_parts() as merges:
        published, exact = _documents(path)
    assert merges == []
    assert exact == published == report_to_json(build_report(to_lines(_CLEAN)))


def test_a_program_with_threads_reads_on_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forking_module, "usable_cores", lambda: 2)
    monkeypatch.delenv(forking_module.WORKERS_ENV, raising=False)
    assert forking_module.helpers_allowed() is (threading.active_count() == 1)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forking_module.helpers_allowed()
    finally:
        stop.set()
        thread.join()
    monkeypatch.setenv(forking_module.WORKERS_ENV, "1")
    assert not forking_module.helpers_allowed()


def test_a_helper_returns_its_result_or_none() -> None:
    assert Helper(lambda: {"runs": [1, 2]}).result() == {"runs": [1, 2]}
    assert Helper(lambda: 1 / 0).result() is None
    counts = SharedCounts(1)
    Helper(lambda: counts.add(0, 5)).result()
    assert counts.value(0) == 5  # raised by the child, read by the parent
