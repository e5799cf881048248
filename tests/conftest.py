"""Settings shared by every test folder.

``--doctest-modules`` (pyproject.toml) would also collect each folder's ``conftest.py`` as
a doctest module; the folders are not packages, so two of them named on one command line
(``pytest tests/scoring tests/contracts``) would clash as the module ``conftest``. They hold
fixtures, not doctests, so they are left out of collection (pytest still loads them).
"""

collect_ignore_glob = ["*conftest.py"]

import gc  # noqa: E402
import sys  # noqa: E402

# pytest keeps each test module's rewritten (assert-explaining) code in __pycache__, unless
# the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE, as on the shared
# development machine): then every run, in every worker, rewrites and compiles all 200
# test modules again (about 7 s of CPU a process). The cache is pytest's own and ignored by
# git; the product's modules are not affected (the site build still writes no .pyc under
# its watched folders, macros/__init__.py).
sys.dont_write_bytecode = False


from collections.abc import Iterator  # noqa: E402

import fast_lane  # noqa: E402
import formula_check_memo  # noqa: E402
import pytest  # noqa: E402 - below the note on collection it belongs to


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("markexpr", "") == fast_lane.FAST_LANE:
        fast_lane.cap_examples()


def pytest_unconfigure(config: pytest.Config) -> None:
    fast_lane.uncap_examples()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every test module, the libraries they import, the collected
    items) lives as long as the process: frozen out of the garbage collector's reach, the
    collections the tests set off walk only what the tests make, not all of it each time
    (5 to 8 % of the CPU of tests/scoring). The garbage that collection left is collected
    first, so that none of it is kept."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _outside_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs as on a developer's machine, also inside a GitHub Actions job: the
    commands print plain text (``GITHUB_ACTIONS`` would switch ``check`` and ``readme`` to
    workflow commands) and no test appends to the job's step summary. Subprocesses started
    with ``os.environ`` inherit this. The tests of the GitHub style set both themselves."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture(autouse=True)
def _no_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables ``scoring`` prints fit ``COLUMNS`` when it is set (docs/reproduce.md):
    every test sees the width a file or a pipe gets, whatever terminal runs the suite. The
    tests of the width set it themselves."""
    monkeypatch.delenv("COLUMNS", raising=False)


#: The xdist group of every browser test: one worker, one browser for all of them.
BROWSER_GROUP = "browser"
#: The fixture behind ``chromium`` (tests/site/conftest.py): a test that reaches it drives
#: the session's browser.
_BROWSER_FIXTURE = "_chromium_session"
#: A session-scoped fixture defined in a test module is that module's own too: in two
#: workers, the second would wait on the first's lock (tests/session_folders.py) doing
#: nothing, where one group lets it run other tests meanwhile.
_SHARED_SCOPES = frozenset({"session", "module", "package", "class"})
#: Fixtures that build or serve the whole site, or drive the browser (tests/site/conftest.py):
#: a test that uses one is slow whether or not it says so, and leaves the fast lane.
SLOW_FIXTURES = frozenset({"site", "all_pages", "base_url", _BROWSER_FIXTURE})


def _own_costly_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture that its module sets up once for all its tests (a
    scratch project, a build, a server): split across workers, each would set it up again."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    module_id = item.nodeid.split("::", 1)[0]
    return any(
        definition.scope in _SHARED_SCOPES and definition.baseid == module_id
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
    )


def pytest_itemcollected(item: pytest.Item) -> None:
    """Groups for ``--dist loadgroup`` (pyproject.toml), decided from what each test uses,
    so that a new test file needs no list: every test that drives the browser goes to one
    group (one worker starts one Chromium); the tests of a module that sets up a fixture
    of its own once for them all stay together (it is set up once). The others are spread
    one by one. Marked as each test is collected, before xdist reads the groups and ``-m``
    selects.

    A test that uses a fixture of :data:`SLOW_FIXTURES` is also marked ``slow``: a missing
    mark would put a whole site build into the fast lane."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & SLOW_FIXTURES and not item.get_closest_marker("slow"):
        item.add_marker(pytest.mark.slow)
    if item.get_closest_marker("xdist_group"):
        return
    if _BROWSER_FIXTURE in fixtures:
        item.add_marker(pytest.mark.xdist_group(BROWSER_GROUP))
    elif _own_costly_fixture(item):
        item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


@pytest.fixture(autouse=True, scope="session")
def _formula_check_once_per_code_state() -> Iterator[None]:
    """The drift check's formula check, evaluated once per state of the code in each test
    process (``tests/formula_check_memo.py``): the in-process checks and updates of the
    contracts tests would each spend a second on the same evaluation."""
    undo = formula_check_memo.install()
    yield
    undo()
