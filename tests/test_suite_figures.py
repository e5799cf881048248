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


def test_the_writer_replaces_the_region_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "CONTRIBUTING.md"
    copy.write_text(bench_suite.CONTRIBUTING.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(bench_suite, "CONTRIBUTING", copy)
    lane = bench_suite.Lane("fast lane", [30.0, 31.0, 29.0], [1.0, 1.5, 0.5], True)
    bench_suite.update([lane])
    text = copy.read_text(encoding="utf-8")
    assert lane.line() in text
    assert LINE.match(lane.line())
    assert "median 30 s of 3 run(s)" in lane.line()
    outside = bench_suite.REGION.sub("", text)
    assert outside == bench_suite.REGION.sub("", bench_suite.CONTRIBUTING.read_text("utf-8"))
