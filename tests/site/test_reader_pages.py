"""What a reader meets on the versions and reproduce pages:

- the versions page summarises each release for a reader first: every weight and anchor
  changed, old → new, on a line of its own, the other constants, formulas and worked
  examples added, removed or changed, and the full diff folded under it with long values
  shortened (the whole value one click away);
- the sample run log on the downloads gives every score of some agent an interval, and
  shows each reason an interval is null on another, in the report the reproduce page runs;
- the links to the zip of the site are never broken: the build writes the zip it links.
"""

from __future__ import annotations

import html as htmllib
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, import_macros

from contracts.check.drift import diff_snapshots
from contracts.store import load_history

history = import_macros("macros.history")

#: The constants a reader looks for first: the composite's weights and the curves' anchors.
HEADLINE = (
    "composite.weight.success",
    "composite.weight.reliability",
    "composite.weight.cost",
    "composite.latency_anchors_ms",
    "composite.cost_anchors_usd",
)


def _edited(snapshot: Any, values: dict[str, Any]) -> Any:
    """``snapshot`` with the constants of ``values`` set to them."""
    constants = [
        c.model_copy(update={"value": values[c.name]}) if c.name in values else c
        for c in snapshot.constants
    ]
    return snapshot.model_copy(update={"constants": constants})


def _text(html: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", html))


def test_the_summary_lists_every_weight_and_anchor_change_old_to_new() -> None:
    older = load_history()[-1].snapshot
    new_values = {
        "composite.weight.success": 0.45,
        "composite.weight.cost": 0.15,
        "composite.latency_anchors_ms": [{"score": 100, "x": 400}, {"score": 0, "x": 9000}],
    }
    lines = [
        _text(line)
        for line in history.summary_lines(diff_snapshots(older, _edited(older, new_values)))
    ]
    for name, new in new_values.items():
        old = older.constant(name).value
        line = next((x for x in lines if name in x), None)
        assert line is not None, f"{name} is not in the summary: {lines}"
        assert "→" in line
        before, after = line.split("→")
        assert json.dumps(old)[:8] in before.replace(" ", "") or str(old) in before, line
        assert json.dumps(new)[:8] in after.replace(" ", "") or str(new) in after, line
    unchanged = [n for n in HEADLINE if n not in new_values]
    assert not any(n in x for n in unchanged for x in lines), "an unchanged weight is listed"


def test_a_release_without_weight_changes_says_so() -> None:
    older = load_history()[-1].snapshot
    lines = history.summary_lines(diff_snapshots(older, _edited(older, {"interval.z": 2.0})))
    text = [_text(line) for line in lines]
    assert any("Weights and anchors: none changed" in x for x in text), text
    assert any("interval.z" in x and "→" in x for x in text), text


def test_every_release_of_the_history_is_summarised_in_short_lines() -> None:
    releases = load_history()
    html = history.between_versions(releases)
    for older, newer in itertools.pairwise(releases):
        assert f"{older.version}..{newer.version}" in html
    summaries = re.findall(r'data-mv="versions:summary:[^"]+">(.*?)</div>', html)
    assert len(summaries) == len(releases) - 1
    for summary in summaries:
        # A value in the summary is cut short; the whole of it is in the folded full diff.
        for shown in re.findall(r"<code>(.*?)</code>", summary):
            assert len(_text(shown)) <= history.SUMMARY_CHARS, shown


def test_a_long_value_of_the_full_diff_is_cut_and_kept_whole_in_a_fold() -> None:
    long = {"a": "x" * (history.FULL_DIFF_CHARS * 3)}
    cell = history._value(long)
    assert "<details" in cell
    shown = re.search(r"<summary>(.*?)</summary>", cell)
    assert shown is not None
    assert len(_text(shown.group(1))) <= history.FULL_DIFF_CHARS
    assert "x" * (history.FULL_DIFF_CHARS * 3) in cell  # the whole of it, on demand
    assert "<details" not in history._value("short")


# --- the sample run log --------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    samples = import_macros("macros.samples")
    log = tmp_path_factory.mktemp("sample") / samples.RUNS_FILE
    log.write_text(samples.jsonl(samples.sample_runs()), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "scoring", "report", str(log), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def _intervals(agent: dict[str, Any]) -> dict[str, Any]:
    found = {
        "composite": agent["composite"]["interval"],
        "success rate": agent["composite"]["success_rate_interval"],
        **{f"radar {k}": v for k, v in agent["radar"]["intervals"].items()},
        **agent["repeatability"]["intervals"],
    }
    return found


def _reasons(agent: dict[str, Any]) -> set[str]:
    reasons = {agent["composite"].get("interval_reason")}
    reasons |= set((agent["radar"].get("interval_reasons") or {}).values())
    reasons |= set((agent["repeatability"].get("interval_reasons") or {}).values())
    return {re.sub(r"\s*\(\d+\)$", "", r) for r in reasons if r}


def test_the_sample_log_gives_an_agent_every_interval(sample_report: dict[str, Any]) -> None:
    complete = [a for a in sample_report["agents"] if all(_intervals(a).values())]
    assert complete, "no agent of the sample log has every interval"


def test_the_sample_log_shows_each_null_reason(sample_report: dict[str, Any]) -> None:
    shown: set[str] = set()
    for agent in sample_report["agents"]:
        shown |= _reasons(agent)
    # An agent with intervals for its composite but none for pass^k: the second reason.
    assert any(
        a["composite"]["interval"] and not any(a["repeatability"]["intervals"].values())
        for a in sample_report["agents"]
    )
    assert {"fewer than 10 distinct tasks", "fewer than 10 qualifying tasks"} <= {
        re.sub(r"\d+", "10", r) for r in shown
    }, shown
    assert any(a["composite"]["completed_runs"] == 0 for a in sample_report["agents"])


@pytest.mark.slow
def test_the_reproduce_page_prints_intervals_and_links_a_written_zip(site: Path) -> None:
    page = (site / "reproduce.html").read_text(encoding="utf-8")
    assert re.search(r"\d+\.\d+ \[\d+\.\d+, \d+\.\d+\]", page), "no interval in the report"
    for href in re.findall(r'href="([^"]*methodology-site-[^"]*)"', page):
        assert (site / href).is_file(), f"{href} is linked but not written"
