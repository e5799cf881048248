"""Settings shared by every test folder.

``--doctest-modules`` (pyproject.toml) would also collect each folder's ``conftest.py`` as
a doctest module; the folders are not packages, so two of them named on one command line
(``pytest tests/scoring tests/contracts``) would clash as the module ``conftest``. They hold
fixtures, not doctests, so they are left out of collection (pytest still loads them).
"""

collect_ignore_glob = ["*conftest.py"]


import pytest  # noqa: E402 - below the note on collection it belongs to


@pytest.fixture(autouse=True)
def _outside_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs as on a developer's machine, also inside a GitHub Actions job: the
    commands print plain text (``GITHUB_ACTIONS`` would switch ``check`` and ``readme`` to
    workflow commands) and no test appends to the job's step summary. Subprocesses started
    with ``os.environ`` inherit this. The tests of the GitHub style set both themselves."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
