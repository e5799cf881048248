"""A command forked from the zygote (``tests/forked_python.py``) gives what a new
interpreter gives: the same exit status, stdout and stderr, for programs that exercise each
thing the child must set up as the interpreter would."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import forked_python
import pytest
from processes import run_captured

# The harness of the scratch-copy tests, which are in the full suite: so is its proof.
pytestmark = pytest.mark.slow

# Each program prints what a scratch-copy command depends on, or ends in one of the ways a
# command can end.
PROGRAMS: dict[str, tuple[str, ...]] = {
    "sys.path, argv, cwd, env": (
        "-c",
        "import os, sys; print(sys.path[:2], sys.argv, os.getcwd(), os.environ['PROBE'],"
        " sys.dont_write_bytecode, __name__)",
        "one",
        "two",
    ),
    "a module run as -m": ("-m", "probe_module", "--flag"),
    "a script": ("probe_script.py", "x"),
    "exit status and stderr": ("-c", "import sys; print('out'); sys.exit('bad input')"),
    "an exit code": ("-c", "raise SystemExit(3)"),
    "an uncaught exception": ("-c", "print('before'); raise ValueError('é')"),
    "atexit and a thread": (
        "-c",
        # The thread prints once the main code has ended: the interpreter joins it, then
        # runs the atexit handlers.
        "import atexit, threading\n"
        "ended = threading.Event()\n"
        "atexit.register(print, 'at exit')\n"
        "threading.Thread(target=lambda: (ended.wait(), print('thread done'))).start()\n"
        "print('main done')\n"
        "ended.set()",
    ),
    "stdin is empty, text is UTF-8, newlines": (
        "-c",
        "import sys; print(repr(sys.stdin.read())); sys.stdout.write('é\\r\\nz\\r');"
        " print('ω', file=sys.stderr)",
    ),
    "a copy's module is the one imported": ("-c", "import probe_module; print(probe_module.WHERE)"),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("forked")
    (root / "probe_module.py").write_text(
        "import os, sys\nWHERE = os.path.dirname(__file__)\n"
        "if __name__ == '__main__':\n    print(sys.argv, sys.path[0] == os.getcwd())\n",
        encoding="utf-8",
    )
    (root / "probe_script.py").write_text(
        "import sys\nprint(sys.argv, sys.path[0], __name__)\n", encoding="utf-8"
    )
    return root


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_forked_command_is_a_new_interpreters(folder: Path, name: str) -> None:
    args = PROGRAMS[name]
    env = {
        **os.environ,
        "PROBE": "probe",
        "PYTHONPATH": str(folder),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    fresh = run_captured([sys.executable, *args], cwd=folder, env=env, timeout=60)
    forked = forked_python.run_python(args, cwd=folder, env=env, timeout=60)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )


def test_a_command_past_its_timeout_is_killed(folder: Path) -> None:
    with pytest.raises(Exception, match="timed out"):
        forked_python.run_python(
            ("-c", "import threading; threading.Event().wait()"),
            cwd=folder,
            env=dict(os.environ),
            timeout=1,
        )


def test_the_zygote_has_imported_nothing_of_the_project(folder: Path) -> None:
    done = forked_python.run_python(
        (
            "-c",
            "import sys; print(sorted(m for m in sys.modules if m.split('.')[0] in"
            " ('scoring', 'contracts', 'numpy')) [:1])",
        ),
        cwd=folder,
        env=dict(os.environ),
        timeout=60,
    )
    # numpy is there (preloaded), the project is not.
    assert done.stdout == "['numpy']\n", done.stdout
