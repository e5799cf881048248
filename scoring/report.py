"""The agent report: composite, radar and repeatability from one pass over a run log.

Memory grows with agents × tasks, not with runs: per agent the report keeps counts, exact
decimal sums, a bounded list of window candidates (trimmed to the latest
``RADAR_WINDOW_RUNS`` terminal runs) and a count per (task, outcome). The one per-run cost
is the duplicate ``run_id`` check: an 8-byte BLAKE2b fingerprint per run.

Speed (a million runs take about twice as long as ``json.loads`` alone, see
``benchmarks/bench_report.py``): lines are read in chunks and each chunk is validated in C,
straight into tuples; the status rules, grouping and counting are done per chunk, sums in
batches, and the garbage collector is paused. A repeated key is ruled out by counting the
quotes of the chunk in C (``_keys_repeated``). A chunk with a bad (or blank) line, or a
repeated key, is read again line by line with :class:`RunRecord` and
:func:`scoring.jsonlines.validate_line`, which name every problem. Every path gives the
same result, which ``tests/scoring/test_report.py`` checks against a plain computation;
``tests/scoring/test_faults.py`` checks that both paths accept and refuse the same lines.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, Inexact, localcontext
from fractions import Fraction
from itertools import compress, islice, repeat
from operator import attrgetter, eq, itemgetter, mul, not_, or_, sub, truediv
from typing import Annotated, Any

from pydantic import StringConstraints, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from scoring.composite import CompositeResult, score_composite
from scoring.constants import (
    METHODOLOGY_VERSION,
    RADAR_WINDOW_RUNS,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import Problem, ProblemLog, shown
from scoring.jsonlines import fingerprints, repeated_keys, validate_line, without_bom
from scoring.models import RunRecord, RunStatus, _RunFields, instant_key
from scoring.numeric import Number, as_written, round_half_up
from scoring.radar import (
    RadarResult,
    correctness_axis,
    cost_axis,
    latency_axis,
    profile,
    robustness_axis,
    tool_efficiency_axis,
)
from scoring.repeatability import RepeatabilityResult, score_repeatability

# Sums of latency and cost are exact decimals of the numbers as written (see
# ``as_written``). The context never rounds a sum of floats (their digits span under 700
# places); Inexact is trapped all the same, so a rounded sum could never go unnoticed.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[Inexact])
# Values buffered per agent before they are added to the exact sums in one C-level pass.
_SUM_BATCH = 1024
# Window candidates kept per agent before they are trimmed to the latest RADAR_WINDOW_RUNS.
_WINDOW_TRIM = 4 * RADAR_WINDOW_RUNS
# Input lines validated and accounted for together.
_CHUNK_LINES = 16384

_COMPLETED, _FAILED, _TIMEOUT = RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT

# A run as the report reads it, one tuple built in C: (agent_id, status, success, task_id,
# finished_at, latency_ms, cost_usd, steps, run_id). Taking it right after validation lets
# the model go while it is still in the CPU cache.
_ROW_FIELDS = (
    "agent_id",
    "status",
    "success",
    "task_id",
    "finished_at",
    "latency_ms",
    "cost_usd",
    "steps",
    "run_id",
)
_ROW = attrgetter(*_ROW_FIELDS)
_Row = tuple[
    str, RunStatus, bool | None, str, str | None, float | None, float | None, int | None, str
]
_ROW_RUN_ID = itemgetter(8)
# Width of a run_id fingerprint (scoring.jsonlines.fingerprints).
_CODE_BITS = 64

# A window candidate: (instant, finer digits, input order, row), the first two being
# ``instant_key`` of finished_at (exact to any number of fraction digits, offsets applied).
# The input order is unique, so candidates compare by instant, then by input order (later
# is newer), never by row.
_Kept = tuple[timedelta, str, int, _Row]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# What ``datetime.fromisoformat`` would not read exactly: fraction digits beyond the
# microsecond, or a lowercase "z" (the only letter z a timestamp can hold).
_BEYOND_FROMISOFORMAT = re.compile(r"\.[0-9]{7}|z")


def _instant_keys(timestamps: list[str]) -> tuple[Sequence[timedelta], Sequence[str]]:
    """``instant_key`` of every timestamp, as two columns; in C when none needs more.

    >>> from scoring.models import instant_key
    >>> stamps = ["2026-07-01T12:00:00Z", "2026-07-01t14:00:00.5+02:00"]
    >>> list(zip(*_instant_keys(stamps))) == [instant_key(t) for t in stamps]
    True
    """
    if _BEYOND_FROMISOFORMAT.search("\n".join(timestamps)):
        keys = list(map(instant_key, timestamps))
        return [k[0] for k in keys], [k[1] for k in keys]
    moments = map(datetime.fromisoformat, timestamps)
    return list(map(sub, moments, repeat(_EPOCH))), [""] * len(timestamps)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a report reads its input.

    Reading allocates millions of short-lived objects and no reference cycles: collecting
    would only slow it down (by about a tenth). The collector is resumed afterwards, also
    on error, unless it was already paused.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# Fixed point for the exact sums, so that most values need no decimal conversion: a float
# x <= 2^22 and an integer n with n / 10^9 == x (Python divides integers correctly rounded)
# give x as written = n·10^-9 exactly. Below 2^22 the reals that round to x span less than
# 10^-9, so n·10^-9 is the only multiple of 10^-9 among them, and the shortest decimal
# that rounds to x (``repr``) has no more decimals than it, so it is that multiple.
_FIXED_DIGITS = 9
_FIXED_SCALE = 10**_FIXED_DIGITS
_FIXED_LIMIT = float(2**22)


def _exact_sum(total: Decimal, values: list[float]) -> Decimal:
    """``total`` plus every value as written (``repr``), exactly.

    >>> _exact_sum(Decimal("0.1"), [0.2, 1e-10, 5e6, 1234.5])
    Decimal('5001234.8000000001')
    """
    clamped = map(min, values, repeat(_FIXED_LIMIT))
    scaled = list(map(round, map(mul, clamped, repeat(float(_FIXED_SCALE)))))
    fits = list(map(eq, map(truediv, scaled, repeat(_FIXED_SCALE)), values))
    if all(fits):
        fixed, rest = sum(scaled), []
    else:
        fixed, rest = sum(compress(scaled, fits)), list(compress(values, map(not_, fits)))
    with localcontext(_EXACT):
        start = total + Decimal(fixed).scaleb(-_FIXED_DIGITS)
        return sum(map(Decimal, map(repr, rest)), start)


def _median_as_written(values: Sequence[float]) -> Fraction:
    """Median of a non-empty list of floats, exact as written; an even count averages.

    Floats sort in the same order as their shortest decimals, so only the middle values
    are converted.
    """
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return as_written(ordered[middle])
    return (as_written(ordered[middle - 1]) + as_written(ordered[middle])) / 2


class _SeenIds:
    """Open-addressing set of 64-bit ``run_id`` fingerprints, 8 bytes a slot (no objects
    per run).

    A slot holds ``fingerprint(run_id) | 1`` (never 0, the empty slot): BLAKE2b, so the
    same on every run, unlike Python's salted ``hash``. Two different ids share
    it with probability about n² / 2^64 (under 6 in 100 million for a million runs); such
    a pair would be reported as a duplicate. The same id always shares it: no duplicate is
    ever missed.

    A code's home slot is given by its high bits, so a batch inserted in sorted order, and
    a table rehashed in slot order, sweep memory in one direction: far fewer cache misses
    than jumping about a table of many megabytes.
    """

    def __init__(self) -> None:
        self._slots = array("Q", bytes(8 * 1024))
        self._mask = 1023
        self._shift = _CODE_BITS - 10
        self._used = 0

    def add(self, key: str) -> bool:
        """Add ``key``; ``False`` if it was already present."""
        return not self.add_all((key,))

    def add_all(self, keys: Iterable[str]) -> list[int]:
        """Add every key; the positions (0-based) of the keys that were already present."""
        codes = list(map(or_, fingerprints(keys), repeat(1)))
        while (self._used + len(codes)) * 3 > self._mask * 2:
            self._grow()  # room for the whole batch: no check per key
        slots, mask, shift = self._slots, self._mask, self._shift
        repeated = []
        for code in sorted(codes):
            index = (code >> shift) & mask
            held = slots[index]
            while held:
                if held == code:
                    repeated.append(code)
                    break
                index = (index + 1) & mask
                held = slots[index]
            else:
                slots[index] = code
        self._used += len(codes) - len(repeated)
        return _repeated_positions(codes, repeated) if repeated else []

    def _grow(self) -> None:
        old = self._slots
        self._mask = mask = 2 * len(old) - 1
        self._shift = shift = self._shift - 1
        self._slots = slots = array("Q", bytes(8 * (mask + 1)))
        for code in filter(None, old):
            index = (code >> shift) & mask
            while slots[index]:
                index = (index + 1) & mask
            slots[index] = code


def _repeated_positions(codes: list[int], repeated: list[int]) -> list[int]:
    """Where the repeats are: of a code repeated r times in a batch, its last r places.

    (Its first place overall holds the original, which is before them all.)
    """
    times = Counter(repeated)
    places: defaultdict[int, list[int]] = defaultdict(list)
    for position, code in enumerate(codes):
        if code in times:
            places[code].append(position)
    return sorted(p for code, r in times.items() for p in places[code][-r:])


@dataclass(slots=True)
class _WindowRun:
    task_id: str
    success: bool | None
    latency_ms: float | None
    cost_usd: float | None
    steps: int | None


@dataclass(slots=True)
class _AgentState:
    completed: int = 0
    successes: int = 0
    latency_sum: Decimal = Decimal(0)
    cost_sum: Decimal = Decimal(0)
    # Values of completed runs not yet added to the exact sums.
    latencies: list[float] = field(default_factory=list)
    costs: list[float] = field(default_factory=list)
    # Window candidates, trimmed to the newest RADAR_WINDOW_RUNS when they reach
    # _WINDOW_TRIM; ``floor`` is then the oldest run kept: an older one can never enter
    # the window again.
    window: list[_Kept] = field(default_factory=list)
    floor: _Kept | None = None
    # (task_id, success) -> recorded outcomes, over every terminal run with a known one.
    outcomes: Counter[tuple[str, bool]] = field(default_factory=Counter)

    def account(self, rows: Iterable[_Row], order: int) -> int:
        """Account for this agent's rows, in input order; returns the last input order used."""
        terminal = [r for r in rows if r[1] is _COMPLETED or r[1] is _FAILED or r[1] is _TIMEOUT]
        if not terminal:
            return order
        completed = [r for r in terminal if r[1] is _COMPLETED]
        if completed:
            self.completed += len(completed)
            self.successes += [r[2] for r in completed].count(True)
            # The model guarantees latency and cost on completed runs.
            self.latencies += [r[5] for r in completed]  # type: ignore[misc]
            self.costs += [r[6] for r in completed]  # type: ignore[misc]
            if len(self.latencies) >= _SUM_BATCH:
                self.flush_sums()
        self.outcomes.update([(r[3], r[2]) for r in terminal if r[2] is not None])
        # The model guarantees finished_at on terminal runs.
        instants, finer = _instant_keys([r[4] for r in terminal])  # type: ignore[misc]
        positions = range(order + 1, order + 1 + len(terminal))
        candidates = zip(instants, finer, positions, terminal, strict=True)
        floor, window = self.floor, self.window
        if floor is None:
            window += candidates
        else:
            window += [c for c in candidates if c > floor]  # newer than the oldest kept
        if len(window) >= _WINDOW_TRIM:
            self.floor = self.latest()[0]
        return order + len(terminal)

    def tasks(self) -> list[tuple[int, int]]:
        """(recorded outcomes n, successes c) per task."""
        per_task: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (task_id, success), n in self.outcomes.items():
            per_task[task_id][0] += n
            per_task[task_id][1] += n if success else 0
        return [(n, c) for n, c in per_task.values()]

    def flush_sums(self) -> None:
        """Add the buffered latencies and costs to the exact sums."""
        self.latency_sum = _exact_sum(self.latency_sum, self.latencies)
        self.cost_sum = _exact_sum(self.cost_sum, self.costs)
        self.latencies.clear()
        self.costs.clear()

    def latest(self) -> list[_Kept]:
        """The window: the newest RADAR_WINDOW_RUNS terminal runs, oldest first."""
        self.window.sort()
        del self.window[:-RADAR_WINDOW_RUNS]
        return self.window


@dataclass(frozen=True, slots=True)
class AgentReport:
    """Every score of one agent, as exact values."""

    agent_id: str
    composite: CompositeResult
    radar: RadarResult
    repeatability: RepeatabilityResult


@dataclass(frozen=True, slots=True)
class Report:
    """The report over one run log: agents by composite, highest first (``null`` last)."""

    methodology_version: str
    agents: tuple[AgentReport, ...]


class ReportBuilder:
    """Feeds validated runs in input order; :meth:`finish` computes every score."""

    def __init__(self) -> None:
        self._agents: dict[str, _AgentState] = {}
        self._order = 0

    def add(self, run: RunRecord) -> None:
        """Account for one run (already validated)."""
        self.add_all((run,))

    def add_all(self, runs: Iterable[RunRecord]) -> None:
        """Account for several runs (already validated), given in input order."""
        self._add_rows(map(_ROW, runs))

    def _add_rows(self, rows: Iterable[_Row]) -> None:
        by_agent: defaultdict[str, list[_Row]] = defaultdict(list)
        for row in rows:
            by_agent[row[0]].append(row)  # each agent's rows stay in input order
        agents = self._agents
        for agent_id, mine in by_agent.items():
            state = agents.get(agent_id)
            if state is None:
                state = agents[agent_id] = _AgentState()
            self._order = state.account(mine, self._order)

    def finish(self, weights: Mapping[Axis, Number] | None = None) -> Report:
        """Score every agent seen so far."""
        agents = [
            _score_agent(agent_id, state, weights) for agent_id, state in self._agents.items()
        ]
        agents.sort(key=_rank)
        return Report(METHODOLOGY_VERSION, tuple(agents))


def _rank(agent: AgentReport) -> tuple[bool, float, str]:
    score = agent.composite.score
    shown = 0.0 if score is None else round_half_up(score, SCORE_DECIMALS)
    return (score is None, -shown, agent.agent_id)


def _score_agent(
    agent_id: str, state: _AgentState, weights: Mapping[Axis, Number] | None
) -> AgentReport:
    state.flush_sums()
    completed = state.completed
    if completed:
        mean_latency = Fraction(state.latency_sum) / completed
        mean_cost = Fraction(state.cost_sum) / completed
    else:
        mean_latency = mean_cost = Fraction(0)
    composite = score_composite(completed, state.successes, mean_latency, mean_cost)
    window = [_WindowRun(r[3], r[2], r[5], r[6], r[7]) for *_, r in state.latest()]
    radar = score_window(window, weights)
    repeatability = score_repeatability(state.tasks())
    return AgentReport(agent_id, composite, radar, repeatability)


def score_window(
    window: Iterable[_WindowRun], weights: Mapping[Axis, Number] | None = None
) -> RadarResult:
    """The radar over the runs of one window (order does not matter)."""
    runs = list(window)
    known = [r.success for r in runs if r.success is not None]
    latencies = [r.latency_ms for r in runs if r.latency_ms is not None]
    costs = [r.cost_usd for r in runs if r.cost_usd is not None]
    steps = [r.steps for r in runs if r.steps is not None]
    per_task: dict[str, list[int]] = {}
    for r in runs:
        if r.success is not None:
            counts = per_task.setdefault(r.task_id, [0, 0])
            counts[0] += int(r.success)
            counts[1] += 1
    median_latency = _median_as_written(latencies) if latencies else None
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: correctness_axis(sum(known), len(known)),
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: cost_axis(_median_as_written(costs) if costs else None),
        Axis.TOOL_EFFICIENCY: tool_efficiency_axis(_median_as_written(steps) if steps else None),
        Axis.ROBUSTNESS: robustness_axis((p, k) for p, k in per_task.values()),
    }
    return RadarResult(axes, profile(axes, weights), len(runs), median_latency)


def _one_by_one(chunk: Sequence[bytes], first: int, seen: _SeenIds, log: ProblemLog) -> list[_Row]:
    """Validate a chunk line by line (it holds a bad or a blank line); problems in line order.

    ``first`` is the number of the chunk's first line. Blank lines are skipped.
    """
    validate = RunRecord.__pydantic_validator__.validate_json
    rows: list[_Row] = []
    for number, line in enumerate(chunk, first):
        if not line.strip():
            continue
        run, problems = validate_line(validate, line, number)
        if run is None:
            log.extend(problems)
            continue
        if seen.add(run.run_id):
            rows.append(_ROW(run))
        else:
            log.add(_duplicate(run.run_id, number))
    return rows


def _duplicate(run_id: str, number: int) -> Problem:
    return Problem(number, "run_id", f"duplicate run_id {shown(run_id)} [unique]")


def _status_rules_hold(rows: list[_Row]) -> bool:
    """Whether every row keeps :class:`RunRecord`'s rules that depend on the status: a
    terminal run has ``finished_at``, a completed one also ``latency_ms`` and ``cost_usd``."""
    terminal = [r for r in rows if r[1] is _COMPLETED or r[1] is _FAILED or r[1] is _TIMEOUT]
    broken = [
        r
        for r in terminal
        if r[4] is None or (r[1] is _COMPLETED and (r[5] is None or r[6] is None))
    ]
    return not broken


# The fast path's reading of ``finished_at``: models.Timestamp's RFC 3339 pattern with the
# calendar written into it (day of month, leap years, years 0001 to 9999), so that no Python
# runs per line. A line it refuses is read again by the model, whose check names the problem;
# tests/scoring/test_report.py checks that both accept exactly the same timestamps.
# ASCII digits only: pydantic's regular expressions read \d as any Unicode digit.
_D = "[0-9]"
_YEAR = rf"(?:{_D}{{3}}[1-9]|{_D}{{2}}[1-9]{_D}|{_D}[1-9]{_D}{{2}}|[1-9]{_D}{{3}})"
_MONTH_DAY = (
    r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"
    r"|(?:0[13-9]|1[0-2])-(?:29|30)"
    r"|(?:0[13578]|1[02])-31)"
)
_LEAP_DAY = (
    rf"(?:{_D}{{2}}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29"
)
CALENDAR_PATTERN = (
    rf"^(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_DAY})[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)


def _dict_validator() -> Callable[[bytes], dict[str, Any]]:
    """Validation of one line straight into a dict, with no model instance to build.

    The fields, types, constraints and configuration are those of ``_RunFields``, except
    that every key is required (a line that leaves an optional field out fails here and is
    validated again with ``_RunFields`` itself) and ``finished_at`` is checked by
    ``CALENDAR_PATTERN`` alone.
    """
    fields = {
        name: Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        for name, info in _RunFields.model_fields.items()
    }
    fields["finished_at"] = Annotated[str, StringConstraints(pattern=CALENDAR_PATTERN)] | None
    every_key = with_config(_RunFields.model_config)(TypedDict("_EveryKey", fields))  # type: ignore[operator]
    return TypeAdapter(every_key).validator.validate_json


_validate_every_key = _dict_validator()
_DICT_ROW = itemgetter(*_ROW_FIELDS)


def _rows(chunk: list[bytes]) -> list[_Row] | None:
    """The rows of a chunk validated field by field, or ``None`` if a line fails or
    repeats a key."""
    try:
        rows = list(map(_DICT_ROW, map(_validate_every_key, chunk)))
        key_counts: Sequence[int] = [len(_ROW_FIELDS)] * len(chunk)
    except ValidationError:
        # A key left out (allowed), a bad line or a blank one.
        try:
            models = list(map(_RunFields.__pydantic_validator__.validate_json, chunk))
        except ValidationError:
            return None
        rows = list(map(_ROW, models))
        key_counts = list(map(len, map(_FIELDS_SET, models)))
    return None if _keys_repeated(chunk, key_counts, rows) else rows


_FIELDS_SET = attrgetter("model_fields_set")
_FINISHED_AT = itemgetter(4)
# Values a validated row certainly holds as JSON strings: run_id, agent_id, task_id and
# status (an enum read from a string); finished_at too when it is not null. Only fields
# whose values are strings by the model may be counted (see _keys_repeated).
_STRING_VALUES_PER_ROW = 4


def _string_tokens(key_counts: Sequence[int], rows: list[_Row]) -> int:
    """JSON strings written in lines with these keys and values, if no key is repeated."""
    unset = list(map(_FINISHED_AT, rows)).count(None)
    return sum(key_counts) + (_STRING_VALUES_PER_ROW + 1) * len(rows) - unset


def _keys_repeated(chunk: list[bytes], key_counts: Sequence[int], rows: list[_Row]) -> bool:
    """Whether a validated chunk repeats a key in a line (``key_counts``: distinct keys).

    Outside strings JSON has no ``"``; inside one, a ``"`` is written ``\\"``. So a line
    holds ``2 × (keys written + string values written) + escaped quotes`` of them. A repeated
    key writes one more key (and maybe one more string value) than the validated row holds,
    so the count can equal ``2 × (distinct keys + string values of the row)`` only when no
    key is repeated (and no quote is escaped). That is two scans of the chunk in C; the
    lines of a chunk that fails it are counted one by one, and a line whose count differs
    is parsed again for its repeats.
    """
    joined = b"".join(chunk)
    if joined.count(b'"') == 2 * _string_tokens(key_counts, rows):
        return False
    for line, keys, row in zip(chunk, key_counts, rows, strict=True):
        if line.count(b'"') != 2 * _string_tokens((keys,), [row]) and repeated_keys(line):
            return True
    return False


def build_report(source: Iterable[bytes], weights: Mapping[Axis, Number] | None = None) -> Report:
    """Read a JSON Lines run log once and score every agent.

    ``source`` yields the raw lines (an open binary file works). Blank lines are skipped.
    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    nothing is scored from an input that has one.
    """
    builder = ReportBuilder()
    log = ProblemLog()
    seen = _SeenIds()
    lines = without_bom(source)
    first = 1
    with _collector_paused():
        while chunk := list(islice(lines, _CHUNK_LINES)):
            # Each field is checked in C; RunRecord's status rules on the whole chunk.
            rows = _rows(chunk)
            if rows is None or not _status_rules_hold(rows):
                rows = _one_by_one(chunk, first, seen, log)
            else:
                for position in seen.add_all(map(_ROW_RUN_ID, rows)):
                    log.add(_duplicate(rows[position][8], first + position))
            if not log.total:
                builder._add_rows(rows)
            first += len(chunk)
    log.raise_if_any()
    return builder.finish(weights)
