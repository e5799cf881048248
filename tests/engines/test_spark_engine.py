"""``--engine spark`` (local mode) prints exactly what ``--engine python`` prints (stdout,
stderr, exit status), on JSON Lines (plain and gzip), every hostile log of
``engine_logs`` (plain and gzip), its odd logs (those of a whole file and those handed to
the Python reader alone, the rest joined into two logs), an empty file, a log full of
ties, Parquet copies of clean, tied and hostile logs, and a table.

One Spark session for the module (a JVM is slow to start): the command line finds it
active and uses it. Each file is scored by Spark once (:func:`_spark_stats`, keyed by its
path and bytes): every format's output and every comparison with the Python reader read
that one result, since the command computes the stats before it knows the format. A
computation takes Spark seconds whatever the log's size, so each property is proven with as
few of them as it needs. Slow: the JVM and its jobs take about a minute on an otherwise idle
2-core machine, so the fast lane leaves this file to the whole suite; the SQL the engines
share (``scoring/engines/statistics.sql``) stays in the fast lane through DuckDB
(``test_duckdb_engine.py``), and Spark's translation of it through ``test_sql.py``. CI
installs the spark extra (``.ci/run``), so there the tests run; elsewhere they are skipped,
saying so, where pyspark is not installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engine_logs import (
    HOSTILE_LINES,
    ODD_CLEAN_LOGS,
    TIES_RUNS,
    WHOLE_FILE_ODDITIES,
    clean_log,
    cli,
    hostile_log,
    odd_logs_together,
    parquet_copy,
    write,
)

import scoring.cli
from contracts.source import REPO_ROOT
from scoring.engines import SPARK_LOCAL_MASTER, Engine, engine_stats
from scoring.report.read import read_stats
from scoring.report.stats import AgentStats

# Looked up, not imported: the fast lane collects this file without running it, and
# pyspark takes a second to import in every worker.
if os.environ.get("CI") != "true" and importlib.util.find_spec("pyspark") is None:
    pytest.skip("the spark extra is not installed (CI installs it)", allow_module_level=True)

pytestmark = pytest.mark.slow

CORPUS_LOG = REPO_ROOT / "contracts" / "corpus" / "synthetic-runs.jsonl"


#: The suite's JVM compiles with the JIT's first tier only (C1). Its jobs are many and small,
#: and the second tier's compiles (C2) cost CPU that the suite's other worker needs: on this
#: file's corpus, odd and clean logs, the JVM's CPU fell by about 30 % with it (201 → 137
#: CPU-s, `-n0`). Not the engine's setting: a large log's long stages gain from C2.
SUITE_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1"


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from scoring.engines.spark_engine import session

    with ExitStack() as stack:
        with pytest.MonkeyPatch.context() as patch:
            # Read by the JVM as it starts (the session starts it), added to any given.
            given = os.environ.get("JAVA_TOOL_OPTIONS", "")
            patch.setenv("JAVA_TOOL_OPTIONS", f"{given} {SUITE_JAVA_OPTIONS}".strip())
            active = stack.enter_context(session(SPARK_LOCAL_MASTER))
        yield active


def test_the_suite_jvm_runs_the_first_tier_only(spark: Any) -> None:
    """The option reached the session's JVM (the fixture sets it while the JVM starts)."""
    runtime = spark.sparkContext._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()
    assert SUITE_JAVA_OPTIONS in list(runtime.getInputArguments())


#: Spark's result for a file, by its path, the master and its bytes' digest.
_SCORED: dict[tuple[str, str | None, str], list[AgentStats] | None] = {}


def _digest(file: Path) -> str | None:
    """The SHA-256 of the file's bytes (a folder's: each file's name and bytes); ``None``
    for a path that is neither (a table's name, a missing file)."""
    if file.is_file():
        parts = [file]
    elif file.is_dir():
        parts = sorted(part for part in file.rglob("*") if part.is_file())
    else:
        return None
    digest = hashlib.sha256()
    for part in parts:
        for piece in (str(part.relative_to(file)).encode(), part.read_bytes()):
            # Length-prefixed: no two folders hash the same bytes.
            digest.update(len(piece).to_bytes(8, "big") + piece)
    return digest.hexdigest()


def _spark_stats(path: str, master: str | None = None) -> list[AgentStats] | None:
    """``engine_stats(Engine.SPARK, path, master)``, computed once per file's bytes (a
    Spark job is seconds; the stats are a function of the bytes, the path and the master).
    A raised error is not kept: the next call raises it again."""
    digest = _digest(Path(path))
    if digest is None:
        return engine_stats(Engine.SPARK, path, master)
    key = (path, master, digest)
    if key not in _SCORED:
        _SCORED[key] = engine_stats(Engine.SPARK, path, master)
    return _SCORED[key]  # frozen dataclasses in a list each caller only reads


@pytest.fixture(autouse=True)
def _scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's Spark stats through :func:`_spark_stats` (its other engines as is)."""

    def scored(engine: Engine, path: str, master: str | None = None) -> list[AgentStats] | None:
        if engine is Engine.SPARK:
            return _spark_stats(path, master)
        return engine_stats(engine, path, master)

    monkeypatch.setattr(scoring.cli, "engine_stats", scored)


def _same_as_python(path: Path, shown: Path | None = None, *formats: str) -> tuple[int, str, str]:
    """The engine's output on ``path`` is Python's on ``shown`` (the JSON Lines log it is a
    copy of; the same file by default)."""
    log = shown or path
    for format_options in (["--format", "json"], *([[f] for f in formats])):
        python = cli(["report", str(log), *format_options])
        engine = cli(["report", str(path), *format_options, "--engine", "spark"])
        assert engine == (python[0], python[1], python[2].replace(str(log), str(path)))
    return python


def test_a_gzip_copy_of_the_corpus(spark: Any, tmp_path: Path) -> None:
    """Spark reads the gzip copy and scores it as Python scores the corpus itself: one
    computation proves both (a plain log is scored by Spark in every other test here)."""
    packed = write(tmp_path / "runs.jsonl.gz", CORPUS_LOG.read_bytes(), compress=True)
    _same_as_python(packed, CORPUS_LOG)
    stats = _spark_stats(str(packed))
    assert stats is not None  # scored by Spark, not handed to the Python reader
    assert stats == read_stats(CORPUS_LOG.open("rb"))


def test_a_spoiled_statistic_fails(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the tests prove through the cache: a statistic Spark got wrong fails the
    comparison, and a file rewritten at the same path is scored again. The engine's
    statistics are replaced by the exact ones spoiled (Spark still reads and checks the
    log; its statistics query would only be thrown away)."""
    from scoring.engines import spark_engine

    log = write(tmp_path / "runs.jsonl", clean_log(40, 80, 2))

    def spoiled(session: Any) -> list[AgentStats]:
        # Every window's lower middle latency 1 s off (an agent without one left as is:
        # the comparison below says whether the spoil reached the output).
        return [
            agent
            if (middle := agent.window.latency_ms) is None
            else replace(
                agent,
                window=replace(agent.window, latency_ms=replace(middle, low=middle.low + 1000)),
            )
            for agent in read_stats(log.open("rb"))
        ]

    with monkeypatch.context() as patched:
        patched.setattr(spark_engine, "statistics_of", spoiled)
        with pytest.raises(AssertionError):
            _same_as_python(log)
        wrong = _spark_stats(str(log))
        assert wrong is not None  # scored by Spark (spoiled), not by the Python reader
        assert wrong != read_stats(log.open("rb"))
    write(log, clean_log(41, 80, 2))  # other bytes, the same path: scored by Spark again
    _same_as_python(log)
    assert _spark_stats(str(log)) == read_stats(log.open("rb"))


def test_a_log_full_of_ties(spark: Any, tmp_path: Path) -> None:
    log = write(tmp_path / "ties.jsonl", clean_log(21, TIES_RUNS, 2, ties=True))
    _same_as_python(log, None, "--format=table")
    assert _spark_stats(str(log)) == read_stats(log.open("rb"))


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_hostile_logs(spark: Any, tmp_path: Path, name: str, compress: bool) -> None:
    suffix = ".jsonl.gz" if compress else ".jsonl"
    log = write(tmp_path / f"hostile{suffix}", hostile_log(name), compress)
    code, _, err = _same_as_python(log, None, "--format=table")
    assert code == 2
    assert "line 21" in err  # the bad line, in the Python reader's words
    assert _spark_stats(str(log)) is None  # never scored by Spark


#: Odd logs the engine hands to the Python reader (what Spark's JSON reader cannot be
#: trusted with): scored alone, so that each is seen handed on.
HANDED_ON = frozenset({"steps beyond 64 bits", "surrogate pair"})

#: The other odd logs, joined into two (see ``odd_logs_together``): Spark scores each
#: joined log once, where scoring them one by one took eleven jobs of seconds each.
JOINED = odd_logs_together(sorted(set(ODD_CLEAN_LOGS) - WHOLE_FILE_ODDITIES - HANDED_ON))


@pytest.mark.parametrize("name", sorted(WHOLE_FILE_ODDITIES | HANDED_ON))
def test_odd_but_valid_logs(spark: Any, tmp_path: Path, name: str) -> None:
    log = write(tmp_path / "odd.jsonl", ODD_CLEAN_LOGS[name]())
    _same_as_python(log)
    if name in HANDED_ON:
        assert _spark_stats(str(log)) is None  # handed to the Python reader


@pytest.mark.parametrize("kind", sorted(JOINED))
def test_odd_logs_joined(spark: Any, tmp_path: Path, kind: str) -> None:
    log = write(tmp_path / f"odd-{kind}.jsonl", JOINED[kind][0])
    assert _same_as_python(log, None, "--format=table")[0] == 0
    stats = _spark_stats(str(log))
    # Scored by Spark: a part it hands to the Python reader belongs in HANDED_ON instead,
    # where it is scored alone, and the joined log tests what Spark computes.
    assert stats is not None, f"Spark handed the {kind} odd logs to the Python reader"
    assert stats == read_stats(log.open("rb"))


def test_an_empty_gzip_file_and_a_missing_one(spark: Any, tmp_path: Path) -> None:
    assert "no runs" in _same_as_python(write(tmp_path / "empty.jsonl.gz", b"", True))[2]
    code, _, err = _same_as_python(tmp_path / "nowhere.jsonl")
    assert code == 2
    assert "cannot read" in err


def test_a_clean_log_and_a_parquet_copy(spark: Any, tmp_path: Path) -> None:
    """A clean log of many agents (each Spark computation takes seconds, whatever the log's
    size: one log of nine agents, not three logs of a few), and its Parquet copy with the
    types DuckDB guesses (the contract's typed copies are those of the log full of ties
    below)."""
    log = write(tmp_path / "runs.jsonl", clean_log(30, 900, 9))
    assert _same_as_python(log, None, "--format=table")[0] == 0
    assert _spark_stats(str(log)) == read_stats(log.open("rb"))
    # With the types DuckDB guesses: whole numbers, timestamps with a time zone.
    auto = parquet_copy(log, tmp_path / "auto.parquet", auto=True)
    _same_as_python(auto, log, "--format=table")
    assert _spark_stats(str(auto)) == read_stats(log.open("rb"))


def test_a_parquet_copy_of_a_log_full_of_ties(spark: Any, tmp_path: Path) -> None:
    log = write(tmp_path / "ties.jsonl", clean_log(23, TIES_RUNS, 2, ties=True))
    shuffled = parquet_copy(
        log,
        tmp_path / "ordered.parquet",
        "row_number() OVER () AS input_order, *",
        order="ORDER BY hash(run_id)",
    )
    _same_as_python(shuffled, log, "--format=table")
    assert _spark_stats(str(shuffled)) == read_stats(log.open("rb"))
    # A copy without the column is read in its rows' order: the clean log's copy above, the
    # hostile copies below (their line numbers) and the folder Spark writes take that path.


@pytest.mark.parametrize(
    "name", ["negative latency", "duplicate run_id", "failed without finished_at", "unknown status"]
)
def test_hostile_parquet(spark: Any, tmp_path: Path, name: str) -> None:
    """A rule broken in a typed Parquet copy: the Python reader's message, for the line
    that is the row's position in the input order."""
    log = write(tmp_path / "hostile.jsonl", hostile_log(name))
    # A double column keeps no trace of how the log wrote a number (-1 reads back -1.0).
    log.write_bytes(log.read_bytes().replace(b'"latency_ms": -1,', b'"latency_ms": -1.5,'))
    code, _, err = _same_as_python(parquet_copy(log, tmp_path / "hostile.parquet"), log)
    assert code == 2
    assert "line 21" in err


def test_parquet_and_a_table(spark: Any, tmp_path: Path) -> None:
    log = write(tmp_path / "ties.jsonl", clean_log(22, TIES_RUNS, 3, ties=True))
    frame = spark.read.schema(
        "run_id STRING, agent_id STRING, task_id STRING, status STRING, success BOOLEAN, "
        "latency_ms DOUBLE, cost_usd DOUBLE, steps BIGINT, finished_at STRING"
    ).json(str(log))
    # The folder Spark writes, its rows in the log's order: its order is the input order.
    frame.coalesce(1).write.parquet(str(tmp_path / "runs.parquet"))
    parquet = tmp_path / "runs.parquet"
    _same_as_python(parquet, log)
    assert _spark_stats(str(parquet)) == read_stats(log.open("rb"))
    # A table has no row order: it carries the input order as a column.
    from pyspark.sql import functions

    ordered = frame.withColumn("input_order", functions.monotonically_increasing_id())
    ordered.orderBy(functions.rand(seed=3)).createOrReplaceTempView("scored_runs")
    assert _spark_stats("scored_runs") == read_stats(log.open("rb"))
