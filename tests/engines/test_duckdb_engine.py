"""``--engine duckdb`` prints exactly what ``--engine python`` prints (stdout, stderr,
exit status), on clean, tied, odd and hostile logs, plain and gzip, and on Parquet copies;
and where it scores a log itself, its stats are the Python reader's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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

from contracts.source import REPO_ROOT
from scoring.engines import Engine, engine_stats
from scoring.engines.proof import count_bytes
from scoring.report.read import read_stats

# Out of the fast lane: an engine of the report, not the written contract
# (tests/engines/test_sql.py keeps the one SQL source and its dialects there).
pytestmark = pytest.mark.slow

# Looked up, not imported: every worker collects this file (the fast lane too), and
# duckdb takes about half a second to import; the engine imports it when it runs.
if importlib.util.find_spec("duckdb") is None:
    pytest.skip("the duckdb extra is not installed", allow_module_level=True)

CORPUS = sorted((REPO_ROOT / "contracts" / "corpus").glob("*.jsonl"))
FORMATS = (["--format", "json"], [])


def _same_as_python(path: Path, *options: str) -> tuple[int, str, str]:
    for format_options in FORMATS:
        python = cli(["report", str(path), *format_options, *options])
        engine = cli(["report", str(path), *format_options, *options, "--engine", "duckdb"])
        assert engine == python
    return python


def _scored_by_the_engine(path: Path) -> None:
    stats = engine_stats(Engine.DUCKDB, str(path))
    assert stats is not None  # not handed to the Python reader
    with path.open("rb") as log:
        assert stats == read_stats(log)


@pytest.mark.parametrize("log", CORPUS, ids=lambda p: p.name)
def test_the_corpus(log: Path) -> None:
    code, _, err = _same_as_python(log)
    assert (code, err) == (0, "")
    _scored_by_the_engine(log)


# Logs with escapes are proven by the Python reader's validation; without, by DuckDB and
# the counting of their bytes alone (scoring.engines.proof.count_bytes).
ESCAPED = pytest.mark.parametrize("escaped", [True, False], ids=["escaped", "unescaped"])


@ESCAPED
@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("seed", range(4))
def test_clean_logs(tmp_path: Path, seed: int, compress: bool, escaped: bool) -> None:
    data = clean_log(seed, 400, 1 + seed * 3, escaped=escaped)
    log = write(tmp_path / "runs.jsonl", data, compress)
    assert (count_bytes(log) is None) == escaped
    assert _same_as_python(log, "--weights", "correctness=2,cost=1", "--pass-k", "2,4")[0] == 0
    _scored_by_the_engine(log)


@pytest.mark.parametrize("ties", [False, True], ids=["spread", "ties"])
def test_the_window_cut_decides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ties: bool
) -> None:
    """The logs above reach the cut of statistics.sql's radar window at its edge: the
    oldest part that can hold a window run. Spoiled to leave that part out, the stats
    differ from the Python reader's (so the clean logs' agreement says the cut is right)."""
    from scoring.engines import duckdb_engine
    from scoring.engines.sql import Query

    kept = "parted.span_part >= reach.oldest_part"
    log = write(tmp_path / "runs.jsonl", clean_log(11 if ties else 0, 800, 2, ties, False))
    with log.open("rb") as lines:
        python = read_stats(lines)
    assert engine_stats(Engine.DUCKDB, str(log)) == python

    written = duckdb_engine.source

    def spoiled(query: Query) -> str:
        text = written(query)
        if query is Query.STATISTICS:
            assert kept in text
            return text.replace(kept, kept.replace(">=", ">"))
        return text

    monkeypatch.setattr(duckdb_engine, "source", spoiled)
    assert engine_stats(Engine.DUCKDB, str(log)) not in (None, python)


@ESCAPED
def test_a_log_full_of_ties(tmp_path: Path, escaped: bool) -> None:
    """Runs of one agent finish within three seconds: the window is chosen by the digits
    beyond the microsecond, then the input order."""
    log = write(tmp_path / "ties.jsonl", clean_log(11, TIES_RUNS, 2, True, escaped))
    _same_as_python(log)
    _scored_by_the_engine(log)


@ESCAPED
@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_hostile_logs(tmp_path: Path, name: str, escaped: bool) -> None:
    log = write(tmp_path / "hostile.jsonl", hostile_log(name, escaped=escaped))
    if not escaped and b"\\" not in HOSTILE_LINES[name].encode():
        # Refused by DuckDB's own reading (json_runs.sql, checks.sql), not by the
        # Python reader's validation.
        assert count_bytes(log) is not None
    code, _, err = _same_as_python(log)
    assert code == 2
    assert "line 21" in err  # the bad line, named by the Python reader's words
    assert engine_stats(Engine.DUCKDB, str(log)) is None


def test_commas_in_strings_and_keys_in_any_order(tmp_path: Path) -> None:
    """Scored by DuckDB alone: a comma inside a string is not a trailing one, and the keys
    of a line may come in any order."""
    for name in ("commas in strings", "keys in another order", "spaces before colons"):
        log = write(tmp_path / "odd.jsonl", ODD_CLEAN_LOGS[name]())
        assert count_bytes(log) is not None
        _scored_by_the_engine(log)


@pytest.mark.parametrize("name", sorted(ODD_CLEAN_LOGS))
def test_odd_but_valid_logs(tmp_path: Path, name: str) -> None:
    log = write(tmp_path / "odd.jsonl", ODD_CLEAN_LOGS[name]())
    _same_as_python(log)


#: Odd logs DuckDB hands to the Python reader, each alone too (compared alone above; that
#: they are handed on is asserted below): joined, they would hand the whole log on.
HANDED_ON = frozenset({"steps beyond 64 bits", "surrogate pair", "a blank line, unescaped"})


@pytest.mark.parametrize("kind", ["escaped", "unescaped"])
def test_odd_logs_joined(tmp_path: Path, kind: str) -> None:
    """The other odd logs but a whole file's, joined (``odd_logs_together``): DuckDB scores
    them itself, and its output is Python's."""
    joined = odd_logs_together(sorted(set(ODD_CLEAN_LOGS) - WHOLE_FILE_ODDITIES - HANDED_ON))
    log = write(tmp_path / f"odd-{kind}.jsonl", joined[kind][0])
    assert _same_as_python(log)[0] == 0
    _scored_by_the_engine(log)
    for name in HANDED_ON:
        alone = write(tmp_path / "alone.jsonl", ODD_CLEAN_LOGS[name]())
        assert engine_stats(Engine.DUCKDB, str(alone)) is None, name


def test_a_missing_file(tmp_path: Path) -> None:
    code, _, err = _same_as_python(tmp_path / "nowhere.jsonl")
    assert code == 2
    assert "cannot read" in err


def test_a_broken_gzip_stream(tmp_path: Path) -> None:
    log = write(tmp_path / "runs.jsonl.gz", clean_log(2, 50, 2), compress=True)
    log.write_bytes(log.read_bytes()[:-20])
    assert _same_as_python(log)[0] == 2


# --- Parquet -----------------------------------------------------------------------------


def _parquet_same_as_jsonl(log: Path, parquet: Path) -> tuple[int, str, str]:
    result = ()
    for format_options in FORMATS:
        python = cli(["report", str(log), *format_options])
        engine = cli(["report", str(parquet), *format_options, "--engine", "duckdb"])
        assert engine[0] == python[0]
        assert engine[1] == python[1]
        assert engine[2] == python[2].replace(str(log), str(parquet))
        result = python
    return result


@pytest.mark.parametrize("log", CORPUS, ids=lambda p: p.name)
def test_parquet_copies_of_the_corpus(tmp_path: Path, log: Path) -> None:
    typed = parquet_copy(log, tmp_path / "typed.parquet")
    _parquet_same_as_jsonl(log, typed)
    assert engine_stats(Engine.DUCKDB, str(typed)) == read_stats(log.open("rb"))
    # Copied with the types DuckDB guesses (whole numbers, timestamps, all-null JSON).
    _parquet_same_as_jsonl(log, parquet_copy(log, tmp_path / "auto.parquet", auto=True))


def test_parquet_with_an_input_order_column(tmp_path: Path) -> None:
    """The rows in another order than the log's: the ``input_order`` column decides."""
    log = write(tmp_path / "ties.jsonl", clean_log(12, TIES_RUNS, 2, ties=True))
    shuffled = parquet_copy(
        log,
        tmp_path / "ordered.parquet",
        "row_number() OVER () AS input_order, *",
        order="ORDER BY hash(run_id)",
    )
    _parquet_same_as_jsonl(log, shuffled)
    assert engine_stats(Engine.DUCKDB, str(shuffled)) == read_stats(log.open("rb"))


@pytest.mark.parametrize(
    "name", ["negative latency", "duplicate run_id", "failed without finished_at", "unknown status"]
)
def test_hostile_parquet(tmp_path: Path, name: str) -> None:
    """A rule broken in a typed Parquet copy: the Python reader's message, for the line
    that is the row's position in the input order."""
    log = write(tmp_path / "hostile.jsonl", hostile_log(name))
    # (A double column holds no trace of how the log wrote a number: -1 is read back as
    # -1.0, so the bad values here are not whole numbers.)
    log.write_bytes(log.read_bytes().replace(b'"latency_ms": -1,', b'"latency_ms": -1.5,'))
    code, _, err = _parquet_same_as_jsonl(log, parquet_copy(log, tmp_path / "hostile.parquet"))
    assert code == 2
    assert "line 21" in err


def test_a_folder_of_parquet_files(tmp_path: Path) -> None:
    """As Spark writes one: the files in order of their names, each in its rows' order."""
    log = write(tmp_path / "ties.jsonl", clean_log(13, TIES_RUNS, 2, ties=True))
    folder = tmp_path / "runs"
    folder.mkdir()
    half = TIES_RUNS // 2
    # Written later half first: the names, not the writing, give the order.
    parquet_copy(log, folder / "part-1.parquet", order=f"LIMIT {half} OFFSET {half}")
    parquet_copy(log, folder / "part-0.parquet", order=f"LIMIT {half}")
    _parquet_same_as_jsonl(log, folder)
    assert engine_stats(Engine.DUCKDB, str(folder)) == read_stats(log.open("rb"))


# --- The count of the bytes --------------------------------------------------------------


@pytest.mark.parametrize("block", [1 << 20, 1, 2, 3], ids=lambda b: f"block-{b}")
def test_count_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """Lines (a last one without its line feed included) and commas, in blocks of any
    size; a carriage return that ends no line, a backslash or a binary head: not
    countable (the Python reader's validation decides)."""
    from scoring.engines import proof

    monkeypatch.setattr(proof, "_COUNT_BLOCK_BYTES", block)
    log = tmp_path / "log.jsonl"
    cases = {
        b'{"a": 1, "b": 2}\n{"a": 3}\n': proof.ByteCounts(2, 1),
        b'{"a": 1}\r\n{"a": ","}': proof.ByteCounts(2, 1),
        b"\n\n": proof.ByteCounts(2, 0),
        b"": proof.ByteCounts(0, 0),
        b'{"a": 1}\r{"a": 2}\n': None,
        b'{"a": 1}\r': None,
        b'{"a": "\\u00e9"}\n': None,
        b"PK\x03\x04": None,
        b'{"a": 1}\x00\n': None,
    }
    for data, expected in cases.items():
        assert count_bytes(write(log, data)) == expected, data
        if expected is not None:
            assert count_bytes(write(log, data, compress=True)) == expected, data
