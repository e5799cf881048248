"""The suite's figures in CONTRIBUTING.md are the ones ``benchmarks/bench_suite.py`` writes:
the region exists once, holds lines in the script's format (or says it is not measured
yet), and the script's writer replaces exactly that region."""

from __future__ import annotations

import re
from pathlib import Path

import bench_suite
import pytest

#: A figure line as :meth:`bench_suite.Lane.line` writes it.
NOT_YET = (
    "Not measured yet on this commit: run `.venv/bin/python benchmarks/bench_suite.py --update`."
)
LINE = re.compile(r"- (fast lane|full suite): median \d+ s of \d+ run\(s\) \(.*\); load average")


def test_the_region_holds_what_the_script_writes() -> None:
    text = bench_suite.CONTRIBUTING.read_text(encoding="utf-8")
    regions = bench_suite.REGION.findall(text)
    assert len(regions) == 1
    body = regions[0][1]
    lines = body.splitlines()
    assert lines == [NOT_YET] or all(LINE.match(line) for line in lines), body


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of CONTRIBUTING.md, the one the script's writer writes into."""
    copied = tmp_path / "CONTRIBUTING.md"
    copied.write_text(bench_suite.CONTRIBUTING.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(bench_suite, "CONTRIBUTING", copied)
    return copied


def test_the_writer_replaces_the_region_only(copy: Path) -> None:
    lane = bench_suite.Lane("fast lane", [30.0, 31.0, 29.0], [1.0, 1.5, 0.5], True)
    bench_suite.update([lane])
    text = copy.read_text(encoding="utf-8")
    assert lane.line() in text
    assert LINE.match(lane.line())
    assert "median 30 s of 3 run(s)" in lane.line()
    outside = bench_suite.REGION.sub("", text)
    # (Against the file itself: bench_suite.CONTRIBUTING is the copy here.)
    original = (bench_suite.REPO / "CONTRIBUTING.md").read_text("utf-8")
    assert outside == bench_suite.REGION.sub("", original)


def test_a_busy_run_is_quoted_beside_the_quiet_one_and_replaces_only_its_own(copy: Path) -> None:
    quiet = bench_suite.Lane("full suite", [250.0], [0.5], True, cpu=[400.0])
    busy = bench_suite.Lane("full suite", [290.0], [2.5], True, cpu=[410.0], busy=2)
    bench_suite.update([quiet])
    bench_suite.update([busy])
    body = bench_suite.REGION.findall(copy.read_text(encoding="utf-8"))[0][1]
    assert quiet.line() in body
    assert busy.line() in body
    assert ", beside 2 busy processes;" in busy.line()
    assert all(LINE.match(line) for line in body.splitlines())
    again = bench_suite.Lane("full suite", [240.0], [0.4], True, cpu=[390.0])
    bench_suite.update([again])
    body = bench_suite.REGION.findall(copy.read_text(encoding="utf-8"))[0][1]
    assert quiet.line() not in body
    assert again.line() in body
    assert busy.line() in body


def test_a_line_with_its_cpu_time_is_still_a_figure_line() -> None:
    lane = bench_suite.Lane("full suite", [250.0], [3.0], True, cpu=[400.4], top=[])
    assert LINE.match(lane.line())
    assert lane.line().endswith("; CPU time median 400 s")
    failed = bench_suite.Lane("fast lane", [40.0], [1.0], False, cpu=[70.0])
    assert failed.line().endswith("CPU time median 70 s (a run FAILED)")


def test_a_line_says_which_code_it_measured() -> None:
    lane = bench_suite.Lane("full suite", [250.0], [3.0], True, cpu=[400.0], commit="abc1234")
    assert LINE.match(lane.line())
    assert lane.line().endswith("; CPU time median 400 s; the code of commit abc1234")
    if not (bench_suite.REPO / ".git").exists():
        pytest.skip("not a git checkout: no commit to name")
    commit = bench_suite.measured_commit()
    assert re.fullmatch(r"[0-9a-f]{7}( with uncommitted changes)?", commit), commit


def test_the_slowest_items_are_read_from_the_durations_report() -> None:
    output = "\n".join(
        [
            "..F.  [100%]",
            "============ slowest 3 durations ============",
            "12.34s call     tests/a.py::test_x",
            "3.10s setup    tests/b.py::test_y[1]",
            "0.50s teardown tests/c.py::test_z",
            "(2 durations < 0.005s hidden.)",
            "FAILED tests/a.py::test_w - 1.00s call is not a duration line",
        ]
    )
    assert bench_suite.slowest(output, 2) == [
        "12.34s call     tests/a.py::test_x",
        "3.10s setup    tests/b.py::test_y[1]",
    ]
    assert len(bench_suite.slowest(output, 10)) == 3
    assert bench_suite.slowest(output, 0) == []
