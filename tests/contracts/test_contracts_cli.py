"""The command line of ``python -m contracts`` (``contracts/cli.py``): check and update
(``impact`` is tested in ``test_impact.py``).

Named for its package: ``test_cli.py`` is the scoring command line's, and test
modules share one namespace (the test folders have no ``__init__.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_builders import VERSION, line_of, with_constant

import contracts.check.drift
import contracts.update
from contracts.cli import Command, main
from contracts.model import Methodology

# --- CLI -------------------------------------------------------------------------------------


def test_cli_has_one_enum_of_commands() -> None:
    assert [command.value for command in Command] == [
        "check",
        "update",
        "release",
        "impact",
        "readme",
        "verify",
    ]


def test_cli_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr() == ("contracts check: OK\n", "")


def test_cli_check_prints_the_cause_then_one_fix(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], live: Methodology
) -> None:
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.check.drift, "build_snapshot", lambda: drifted)
    assert main(["check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    weight = line_of(live, "composite.weight.cost")
    version = line_of(live, "methodology.version")
    assert err.splitlines() == [
        f"contracts/snapshots/{VERSION}.json: the live methodology differs from released "
        f"version {VERSION}:",
        "cause: constant composite.weight.cost 0.3 → 0.25 (COMPOSITE_WEIGHT_COST, defined at "
        f"scoring/constants.py:{weight})",
        "what follows from it:",
        "  README.md: the generated block 'scores' shows the change; python -m contracts "
        "readme --update rewrites it",
        'fix: to publish the change, run: python -m contracts release --note "what changed and '
        f'why" (it bumps METHODOLOGY_VERSION, scoring/constants.py:{version}, and writes the '
        "contracts/CHANGELOG.md entry) (or revert the change)",
        "every difference, value by value: python -m contracts check --verbose",
        "contracts check: FAILED (1 cause and no differences that follow from it; exit 1)",
    ]


def test_cli_check_verbose_prints_every_difference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], live: Methodology
) -> None:
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.check.drift, "build_snapshot", lambda: drifted)
    assert main(["check", "--verbose"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    weight = line_of(live, "composite.weight.cost")
    version = line_of(live, "methodology.version")
    assert err.splitlines() == [
        f"contracts/snapshots/{VERSION}.json: the live methodology differs from the committed "
        f"snapshot of version {VERSION} (1 difference):",
        "  constants[composite.weight.cost].value",
        "      committed: 0.3",
        "      live:      0.25",
        f"      defined:   scoring/constants.py:{weight}",
        '      fix:       python -m contracts release --note "what changed and why" (or revert '
        "the change)",
        f"version {VERSION} is released and its snapshot is immutable: to publish this change, "
        'run: python -m contracts release --note "what changed and why" (it bumps '
        f"METHODOLOGY_VERSION, scoring/constants.py:{version}, and writes the "
        "contracts/CHANGELOG.md entry)",
        "contracts check: FAILED (2 problems, exit 1)",
    ]


def test_cli_check_exit_2_names_the_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("## nope\n", encoding="utf-8")
    monkeypatch.setattr(contracts.check.drift, "CHANGELOG_PATH", changelog)
    assert main(["check"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{changelog}:1: '## nope': a section heading must read "
        "'## <MAJOR.MINOR.PATCH> (<YYYY-MM-DD>)'",
        "contracts check: FAILED (1 problem, exit 2)",
    ]


def test_cli_update(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path],
    live: Methodology,
) -> None:
    snapshots, changelog = files
    monkeypatch.setattr(contracts.update, "SNAPSHOT_DIR", snapshots)
    monkeypatch.setattr(contracts.update, "CHANGELOG_PATH", changelog)
    assert main(["update"]) == 0
    assert capsys.readouterr().out == (
        f"contracts update: OK; version {VERSION} is up to date, nothing written\n"
    )
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.check.drift, "build_snapshot", lambda: drifted)
    assert main(["update"]) == 1
    assert capsys.readouterr().err.startswith(f"contracts update: REFUSED: version {VERSION}")


def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["bogus"], ["check", "--amend"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    assert "usage: python -m contracts" in capsys.readouterr().err
