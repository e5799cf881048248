"""The README under the contract: generated blocks are fresh, and its prose goes through the
same number checks as the pages (``contracts.readme``). Each rule is shown to fail on a copy.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from contracts.build import build_snapshot
from contracts.model import Methodology
from contracts.readme import (
    ALLOWED_NUMERALS,
    DOCUMENTS,
    README_PATH,
    RENDERERS,
    number_problems,
    parse_blocks,
    prose_paragraphs,
    render,
    run_readme,
    stale_blocks,
)
from contracts.source import REPO_ROOT

README_MAX_LINES = 150
#: The lines a reader sees before scrolling, on a laptop's screen.
FIRST_SCREEN_LINES = 45

#: False claims a writer could append to the README: a digit, a percentage, words.
FALSE_CLAIMS = (
    "Outcome consistency stays neutral until 7 completed runs.",
    "Cost carries 35% of the headline composite.",
    "Cost carries a third of the headline composite.",
)
PLAIN = "This project welcomes careful readers; one at a time, each on their own."


@pytest.fixture(scope="module")
def live() -> Methodology:
    return build_snapshot()


@pytest.fixture
def readme_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "README.md"
    copy.write_text(README_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    return copy


def test_the_readme_is_fresh_and_its_numbers_are_explained() -> None:
    result = run_readme(update=False)
    assert result.exit_code == 0, "\n".join(result.lines)
    assert result.lines == [f"contracts readme: OK; {len(RENDERERS)} generated blocks up to date"]


def test_every_renderer_has_its_block_and_the_allowlist_is_short_and_used() -> None:
    texts = [path.read_text(encoding="utf-8") for path in DOCUMENTS]
    names = [b.name for text in texts for b in parse_blocks(text)]
    assert sorted(names) == sorted(RENDERERS)
    assert len(ALLOWED_NUMERALS) <= 5
    prose = " ".join(p for text in texts for _, p in prose_paragraphs(text))
    assert all(phrase in prose for phrase in ALLOWED_NUMERALS), "an unused README allowlist entry"
    # Measured regions (benchmark figures, test durations) are few; each says what it holds.
    assert 1 <= sum(text.count("<!-- measured: ") for text in texts) <= 3


def test_the_readme_is_for_a_newcomer() -> None:
    """Under 150 lines, the two commands on its first screen, the rest linked."""
    text = README_PATH.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) < README_MAX_LINES
    first_screen = "\n".join(lines[:FIRST_SCREEN_LINES])
    assert first_screen.count('.venv/bin/pip install -e ".[dev]"') == 2
    assert "(CONTRIBUTING.md)" in text
    assert "python -m scoring" not in text.replace(".venv/bin/python -m scoring", "")


def test_the_weights_the_readme_states_are_the_constants(live: Methodology) -> None:
    scores = RENDERERS["scores"](live)
    for name in ("composite.weight.success", "composite.weight.cost"):
        percent = round(float(str(live.constant(name).value)) * 100)
        assert f"{percent}%" in scores
    assert f"latest {live.constant('radar.window_runs').value} terminal runs" in scores


@pytest.mark.parametrize("claim", FALSE_CLAIMS)
def test_a_false_claim_appended_to_the_readme_fails(readme_copy: Path, claim: str) -> None:
    readme_copy.write_text(readme_copy.read_text(encoding="utf-8") + f"\n{claim}\n", "utf-8")
    result = run_readme(update=False, path=readme_copy)
    assert result.exit_code == 1
    line = len(readme_copy.read_text(encoding="utf-8").splitlines())
    assert any(f"README.md:{line}: " in entry and claim in entry for entry in result.lines)


def test_a_plain_sentence_appended_to_the_readme_passes(readme_copy: Path) -> None:
    readme_copy.write_text(readme_copy.read_text(encoding="utf-8") + f"\n{PLAIN}\n", "utf-8")
    assert run_readme(update=False, path=readme_copy).exit_code == 0


def test_a_hand_edited_block_is_stale_and_update_restores_it(readme_copy: Path) -> None:
    fresh = readme_copy.read_text(encoding="utf-8")
    live = build_snapshot()
    weight = round(float(str(live.constant("composite.weight.success").value)) * 100)
    edited = fresh.replace(f"{weight}% success", f"{weight + 5}% success", 1)
    assert edited != fresh
    readme_copy.write_text(edited, encoding="utf-8")
    check = run_readme(update=False, path=readme_copy)
    assert check.exit_code == 1
    assert any("generated block 'scores' is stale" in line for line in check.lines), check.lines
    assert run_readme(update=True, path=readme_copy).exit_code == 0
    assert readme_copy.read_text(encoding="utf-8") == fresh


def test_a_changed_constant_makes_a_block_stale(live: Methodology) -> None:
    text = README_PATH.read_text(encoding="utf-8")
    changed = [
        e.model_copy(update={"value": 250}) if e.name == "radar.window_runs" else e
        for e in live.constants
    ]
    moved = live.model_copy(update={"constants": changed})
    problems = stale_blocks(text, moved)
    assert len(problems) == 1
    assert "'scores' is stale" in problems[0]
    assert "latest 250 terminal runs" in render(text, moved)


def test_numbers_inside_blocks_code_and_the_measured_region_are_not_prose(
    live: Methodology,
) -> None:
    text = (
        "<!-- generated by python -m contracts readme: bad-input -->\nstatus 9\n"
        "<!-- end generated -->\n\n```sh\nsleep 30\n```\n\n"
        "<!-- measured: benchmark output -->\n1.62 s\n<!-- end measured -->\n\nA 7 here.\n"
    )
    problems = number_problems(text, live)
    assert len(problems) == 1
    assert problems[0].startswith("README.md:13: numeral '7'")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<!-- generated by python -m contracts readme: nope -->\n", "unknown generated block"),
        ("<!-- generated by python -m contracts readme: scores -->\nx\n", "never closed"),
        ("<!-- end generated -->\n", "without a generated block"),
    ],
)
def test_a_broken_marker_exits_2_naming_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    result = run_readme(update=True, path=path)
    assert result.exit_code == 2
    assert message in result.lines[0]
    assert ":1: " in result.lines[0]
    assert path.read_text(encoding="utf-8") == text  # nothing half-written


def test_the_command_line_exit_codes() -> None:
    command = [sys.executable, "-m", "contracts", "readme"]
    ok = subprocess.run([*command, "--check"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("contracts readme: OK")
    usage = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    assert usage.returncode == 2
    assert "--check" in usage.stderr
