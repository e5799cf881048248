"""The differential check of ``scoring report`` (``benchmarks/differential_report.py``) and
its logs (``benchmarks/random_logs.py``): the logs are what they claim (the same bytes from
the same seed, good ones scored, every planted fault refused), and the harness finds no
difference between a tree and itself but finds one in a copy with a changed constant.

A few logs of a few runs; the harness runs two of them in subprocesses, each importing the
project: a benchmark's tool, not the written contract, out of the fast lane.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import differential_report as harness
import pytest
import random_logs
from random_logs import FILE_FAULTS, LINE_FAULTS, LINE_ODDITIES, Kind, LogSpec, Plan

from contracts.source import REPO_ROOT
from scoring.cli import run
from scoring.constants import METHODOLOGY_VERSION

pytestmark = pytest.mark.slow

REPO = REPO_ROOT
# Runs and agents of the small logs here: a few of each, so every check takes milliseconds.
RUNS, AGENTS = 24, 3
#: File faults the report still answers with status 0: an input without runs is no error.
NO_RUNS_FAULTS = frozenset({"empty_file", "only_blank_lines", "flood"})


def _report(path: Path, *options: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["report", str(path), *options], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("gzip", [False, True])
def test_a_seed_writes_the_same_bytes_and_another_seed_others(tmp_path: Path, gzip: bool) -> None:
    paths = [tmp_path / f"{name}.jsonl" for name in ("a", "b", "c")]
    for path, seed in zip(paths, (7, 7, 8), strict=True):
        random_logs.write_log(LogSpec(seed, RUNS, AGENTS, Kind.HOSTILE, gzip), path)
    first, again, other = (path.read_bytes() for path in paths)
    assert first == again
    assert first != other


@pytest.mark.parametrize("seed", range(6))
def test_good_logs_are_scored(tmp_path: Path, seed: int) -> None:
    spec = LogSpec(seed, 300, 1 + seed * 7, Kind.GOOD, seed % 2 == 1)
    path = tmp_path / spec.name
    random_logs.write_log(spec, path)
    code, out, err = _report(path, "--format", "json")
    assert (code, err) == (0, "")
    assert out.count('"agent_id"') == spec.agents


@pytest.mark.parametrize("name", sorted(LINE_FAULTS))
def test_every_line_fault_is_refused_naming_its_line(tmp_path: Path, name: str) -> None:
    # Line 5 (counted from 0): the report numbers lines from 1.
    path = tmp_path / "log.jsonl"
    random_logs.write_log(
        LogSpec(3, RUNS, AGENTS, Kind.HOSTILE, False), path, Plan({5: name}, [], [])
    )
    code, out, err = _report(path)
    assert code == 2
    assert out == ""
    assert "line 6" in err


@pytest.mark.parametrize("name", sorted(LINE_ODDITIES))
def test_oddities_are_valid(tmp_path: Path, name: str) -> None:
    path = tmp_path / "log.jsonl"
    plan = Plan({}, [], ["odd_lines"], {5: name})
    random_logs.write_log(LogSpec(3, RUNS, AGENTS, Kind.GOOD, False), path, plan)
    assert _report(path)[0] == 0


@pytest.mark.parametrize("name", FILE_FAULTS)
def test_file_faults_are_refused_unless_no_runs_remain(tmp_path: Path, name: str) -> None:
    path = tmp_path / "log.jsonl"
    spec = LogSpec(3, RUNS, AGENTS, Kind.HOSTILE, name.startswith("gzip"))
    random_logs.write_log(spec, path, Plan({}, [name], []))
    assert _report(path)[0] == (0 if name in NO_RUNS_FAULTS else 2)


def test_a_full_plan_has_its_large_plain_logs_gzip_and_a_third_hostile() -> None:
    specs = harness.plan_logs(0, harness.DEFAULT_LOGS, random_logs.MAX_RUNS, quick=False)
    assert specs == harness.plan_logs(0, harness.DEFAULT_LOGS, random_logs.MAX_RUNS, quick=False)
    large_plain = {s.kind for s in specs if not s.gzip and s.runs >= harness.TWO_PART_RUNS}
    assert large_plain == {Kind.GOOD, Kind.HOSTILE}
    assert max(s.runs for s in specs) == random_logs.MAX_RUNS
    assert sum(s.gzip for s in specs) >= harness.MIN_GZIP_LOGS
    hostile = sum(s.kind is Kind.HOSTILE for s in specs)
    assert abs(hostile - harness.DEFAULT_LOGS * harness.HOSTILE_SHARE) <= 2
    assert all(1 <= s.agents <= min(s.runs, random_logs.MAX_AGENTS) for s in specs)


def test_the_first_differing_lines_are_shown() -> None:
    same = b"a\nb\nc\nd\ne\nf\ng\nh\n"
    lines = harness.first_lines_diff(same, same.replace(b"f", b"F"), ("baseline", "candidate"))
    assert "-f" in lines
    assert "+F" in lines
    assert "-a" not in lines  # beyond the context of the first difference
    assert harness.first_lines_diff(b"x\n", b"x", ("a", "b")) == [
        "bytes differ at offset 1 (2 vs 1 bytes)"
    ]


def _harness(
    capsys: pytest.CaptureFixture[str], candidate: Path, keep: Path, logs: int = 2, seed: int = 4
) -> tuple[int, str]:
    """The harness on ``logs`` quick logs from ``seed``: two from seed 4 are a hostile one
    and a good one; one from any seed is a good one. Each log is six processes' starts."""
    code = harness.main(
        [
            "--baseline",
            str(REPO),
            "--candidate",
            str(candidate),
            "--baseline-python",
            sys.executable,
            "--candidate-python",
            sys.executable,
            "--quick",
            "--logs",
            str(logs),
            "--seed",
            str(seed),
            "--keep",
            str(keep),
        ]
    )
    return code, capsys.readouterr().out


def test_a_tree_against_itself_is_all_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _harness(capsys, REPO, tmp_path / "kept")
    assert code == 0, out
    assert out.count(" OK ") == 2
    assert "2 logs" in out
    assert " 0 DIFF" in out
    assert not (tmp_path / "kept").exists() or not any((tmp_path / "kept").iterdir())


def test_a_changed_constant_is_a_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(
        REPO / "scoring", copy / "scoring", ignore=shutil.ignore_patterns("__pycache__")
    )
    constants = copy / "scoring" / "constants.py"
    text = constants.read_text()
    written = f'] = "{METHODOLOGY_VERSION}"'
    assert written in text  # the methodology version, printed by every JSON report
    constants.write_text(text.replace(written, '] = "0.0.9"', 1))
    # One good log is enough to show the difference (every JSON report prints the version).
    code, out = _harness(capsys, copy, tmp_path / "kept", logs=1, seed=3)
    assert code == harness.EXIT_DIFFERENT, out
    assert "1 logs" in out
    assert " DIFF " in out
    assert f'-  "methodology_version": "{METHODOLOGY_VERSION}",' in out
    assert '+  "methodology_version": "0.0.9",' in out
    kept = list((tmp_path / "kept").rglob("*.jsonl*"))
    assert kept


def test_a_tree_without_scoring_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        harness.main(["--baseline", str(REPO), "--candidate", str(tmp_path)])
    assert exit_info.value.code == harness.EXIT_USAGE
    assert f"--candidate: {tmp_path} has no scoring/__init__.py" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("status", "stderr", "why"),
    [
        (-9, b"", "was killed by signal 9"),
        (None, b"", "timed out"),
        (1, b"Traceback ...\nMemoryError\n", "ran out of memory"),
    ],
)
def test_equal_bytes_of_killed_reports_are_a_difference(
    status: int | None, stderr: bytes, why: str
) -> None:
    killed = harness.Outcome(b"", stderr, status, 1.0)
    difference = harness.compare(harness.Call(()), killed, killed, ("baseline", "candidate"))
    assert difference is not None
    assert f"baseline {why}" in difference.lines[0]
    ended = harness.Outcome(b"", b"", 2, 1.0)
    assert harness.compare(harness.Call(()), ended, ended, ("baseline", "candidate")) is None
