"""The causes of a set of snapshot differences and what follows from them
(``contracts/check/causes.py``), on differences written here: which are causes, how the rest is
grouped and counted, and what the check's lines say. The drift check on real edits (a copy
with an anchor moved, a formula changed, a snapshot edited) is ``test_mutation.py``."""

from __future__ import annotations

from contracts.check.causes import Cause, changed_entries, explain
from contracts.check.diff import Difference, Kind
from contracts.model import Methodology

WEIGHT = Difference("constants[composite.weight.cost].value", 0.3, 0.25, "scoring/constants.py:9")
ANCHOR = Difference(
    "constants[composite.latency_anchors_ms].value[1].x", 2000, 2500, "scoring/constants.py:7"
)
CURVE = Difference(
    "golden[curve.piecewise_linear@latency,x=3500].result",
    {"exact": "65", "approx": 65.0},
    {"exact": "195/2", "approx": 97.5},
    "scoring/formulas/curves.py:5",
)
LATENCY = Difference(
    "golden[composite.latency_score@3500].result",
    {"exact": "65", "approx": 65.0},
    {"exact": "70", "approx": 70.0},
    "scoring/formulas/curves.py:50",
)
GONE = Difference("golden[composite.latency_score@2000]", {"x": 1}, None, None, Kind.REMOVED)
EXAMPLE = Difference(
    "examples[composite.typical].result.score", 56.1, 55.4, "scoring/examples.py:3"
)
BOARD = Difference("scoreboard[corpus.jsonl].agents[gale].composite", 80.62, 81.26, "corpus.jsonl")


def test_one_constant_is_the_cause_and_the_rest_is_counted(live: Methodology) -> None:
    explained = explain(live, live, [ANCHOR, CURVE, LATENCY, GONE, EXAMPLE, BOARD])
    [cause] = explained.causes
    assert cause.lines() == [
        "constant composite.latency_anchors_ms[1].x 2000 → 2500 (LATENCY_ANCHORS_MS, defined "
        "at scoring/constants.py:7)"
    ]
    assert [(g.label, g.count) for g in explained.groups] == [
        ("golden evaluations", 3),
        ("worked examples", 1),
        ("scoreboard of the reference corpus", 1),
    ]
    assert explained.following == 5
    golden = explained.groups[0].lines()
    assert golden[0] == (
        "  golden evaluations: 3 differences in 3 evaluations of 2 formulas "
        "(curve.piecewise_linear, composite.latency_score), e.g."
    )
    # A changed result first (an exact fraction by its decimal), then another difference.
    assert golden[1:] == [
        "      curve.piecewise_linear@latency,x=3500 result: 65 → 97.5",
        "      composite.latency_score@2000: removed",
    ]


def test_two_constants_are_two_causes_and_the_fix_is_said_once(live: Methodology) -> None:
    explained = explain(live, live, [WEIGHT, ANCHOR, EXAMPLE])
    assert [c.what for c in explained.causes] == [
        "composite.weight.cost",
        "composite.latency_anchors_ms",
    ]
    lines = explained.lines("HEADER", "FIX", more="MORE")
    assert lines[0] == "HEADER"
    assert lines[1].startswith("cause 1 of 2: constant composite.weight.cost 0.3 → 0.25 (")
    assert lines[2].startswith("cause 2 of 2: constant composite.latency_anchors_ms[1].x ")
    assert lines[3] == "what follows from them:"
    assert lines[-2:] == ["fix: FIX", "MORE"]
    assert [line for line in lines if "FIX" in line] == ["fix: FIX"]


def test_a_field_that_mirrors_a_constant_is_part_of_its_cause(live: Methodology) -> None:
    version = Difference("constants[methodology.version].value", "1.3.0", "1.4.0", "c.py:1")
    field = Difference("methodology_version", "1.3.0", "1.4.0", "c.py:1")
    explained = explain(live, live, [version, field])
    [cause] = explained.causes
    assert cause.differences == (version, field)
    assert explained.groups == ()
    assert explained.lines("H", "F")[2] == "nothing else in the snapshot follows from it"


def test_without_a_changed_constant_the_formula_that_changed_is_the_cause(
    live: Methodology,
) -> None:
    """The latency score uses the curve (a binding of its symbol): the curve is the cause."""
    explained = explain(live, live, [CURVE, LATENCY, EXAMPLE])
    [cause] = explained.causes
    assert (cause.kind, cause.what, cause.location) == (
        "formula",
        "curve.piecewise_linear",
        "scoring/formulas/curves.py:5",
    )
    assert cause.lines()[0].startswith(
        "formula curve.piecewise_linear gives other results at 1 golden point with the same "
        "inputs: its code changed"
    )
    # Its golden evaluations are still counted with the rest.
    assert explained.following == 3
    # A golden point gone, not a result: the registration changed.
    [cause] = explain(live, live, [GONE]).causes
    assert cause.note == "has other golden points (1 point of it): its registration changed"


def test_examples_alone_or_the_scoreboard_alone_name_a_cause(live: Methodology) -> None:
    [cause] = explain(live, live, [EXAMPLE]).causes
    assert cause.lines()[0].startswith(
        "the worked examples give other results with the same inputs (1 example): the code "
        "they run changed"
    )
    corpus = Difference("scoreboard[c.jsonl].sha256", "a", "b", "contracts/corpus/c.jsonl")
    [cause] = explain(live, live, [corpus, BOARD]).causes
    assert cause.lines() == ["reference corpus file contracts/corpus/c.jsonl changed"]


def test_a_snapshot_edited_by_hand_is_the_one_cause(live: Methodology) -> None:
    explained = explain(live, live, [WEIGHT, EXAMPLE], edited="contracts/snapshots/x.json")
    assert [c.lines() for c in explained.causes] == [
        ["contracts/snapshots/x.json was edited by hand: its bytes are not those the lock records"]
    ]
    assert [(g.label, g.count) for g in explained.groups] == [
        ("constants", 1),
        ("worked examples", 1),
    ]


def test_a_cause_in_several_places_lists_the_first_and_counts_the_rest() -> None:
    parts = tuple((f"[{i}].x", str(i), str(i + 1)) for i in range(5))
    cause = Cause("constant", "curve", "c.py:1", parts, python_name="CURVE")
    assert cause.lines() == [
        "constant curve changed in 5 places (CURVE, defined at c.py:1):",
        "    curve[0].x 0 → 1",
        "    curve[1].x 1 → 2",
        "    curve[2].x 2 → 3",
        "    and 2 more",
    ]


def test_the_entries_a_change_touches(live: Methodology) -> None:
    version = Difference("methodology_version", "1.3.0", "1.4.0", None)
    assert changed_entries([ANCHOR, LATENCY, EXAMPLE, BOARD, version], live, live) == {
        ("constant", "composite.latency_anchors_ms"),
        ("formula", "composite.latency_score"),
        ("example", "composite.typical"),
        ("scoreboard", ""),
        ("constant", "methodology.version"),
    }
