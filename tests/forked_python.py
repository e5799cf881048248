"""``python ARGS`` in a scratch copy of the project, forked from a process that has already
imported the third-party libraries the project imports, instead of a new interpreter.

The scratch-copy tests (tests/contracts) run ``python -m contracts check``, ``update``,
``impact`` and ``python -m scoring report`` about 130 times in a copy of the project,
each edited its own way. A new interpreter spends about half of each such command (0.4 of
0.9 s of CPU) importing numpy, scipy.special and pydantic, which no copy edits. A *zygote*
(a long-lived ``python`` that has imported them and nothing of the project) forks one child
per command; the child becomes what ``python ARGS`` would be: its working folder, its
environment, ``sys.path`` as the interpreter builds it (``-m`` and ``-c``: the working
folder first, then ``PYTHONPATH``), ``sys.argv``, its stdin ``/dev/null``, its stdout and
stderr captured in files, and its end the interpreter's own (``SystemExit``, a traceback
for an uncaught exception, atexit handlers, non-daemon threads joined). Nothing of
``scoring`` or ``contracts`` is imported before the fork, so the child imports the copy's,
which ``tests/contracts/test_mutation.py`` checks; ``tests/test_forked_python.py`` proves
that a forked run and a new interpreter give the same status, stdout and stderr.

Where ``os.fork`` is missing, :func:`run_python` starts a new interpreter.
"""

from __future__ import annotations

import json
import locale
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from processes import run_captured

#: What ``mkdocs build``, ``zensical build`` and the pages' renderer import besides the
#: libraries of :data:`PRELOADED` (the site tests fork their builds, tests/site/support.py):
#: MkDocs, its theme and plugins, Markdown and Pygments, the MathML converter, sqlglot (the
#: engines' SQL, which the pages show). With those, about a second of each build's CPU.
#: Not duckdb: its import starts a thread, which a fork would not carry into the child.
SITE_BUILDERS = (
    *("mkdocs.commands.build", "mkdocs.config.defaults", "mkdocs.contrib.search"),
    *("material.plugins.search.plugin", "material.plugins.offline.plugin"),
    *("mkdocs_macros.plugin", "zensical.main", "markdown", "jinja2", "yaml", "requests"),
    *("pymdownx.superfences", "pymdownx.highlight", "pygments.lexers.python"),
    *("pygments.formatters.html", "latex2mathml.converter", "sqlglot"),
)

#: What the zygote imports before it forks: the heavy third-party libraries of
#: ``scoring`` and ``contracts`` (never the project's own modules, which each copy edits).
#: ``import pydantic`` loads its parts only when a model is first defined: they are named
#: here, with the few standard modules the project imports that an interpreter does not
#: load itself (the copy's imports took 0.22 s of a child's CPU with the first line alone,
#: 0.12 s with both). scipy.stats is Kendall's τ-b of the drift check's impact: about a
#: second of every drifted copy's check.
PRELOADED = (
    *(
        "numpy",
        "scipy.special",
        "scipy.stats",
        "pydantic",
        "pydantic_core",
        "annotated_types",
        "msgspec",
    ),
    *("pydantic.main", "pydantic.types", "pydantic.fields", "pydantic.json_schema"),
    *("pydantic.functional_validators", "pydantic.functional_serializers"),
    *("zoneinfo", "statistics", "gzip"),
    *SITE_BUILDERS,
)

# The zygote: reads one request a line (JSON) on stdin, forks, answers the child's pid and
# then its exit status on stdout. The child runs the command as the interpreter would and
# leaves through the interpreter's own exit (so atexit handlers and thread joins happen).
_ZYGOTE = r"""
import gc, json, os, sys
for name in sys.argv[2:]:
    __import__(name)
del name
# What the imports made lives as long as the zygote: frozen, the children's collections
# never walk it (each walk wrote to every object's page, copying it from the zygote: a
# third of a drift check's CPU). They collect what they make as an interpreter does.
gc.freeze()
_requests, _answers = sys.stdin.buffer, sys.stdout

def _child(request):
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # The zygote's own sys.stdin, sys.stdout and sys.stderr stay (a new interpreter's
    # would be alike: the same locale, a pipe or a file): only their descriptors change.
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, fd)
        os.close(out)
    sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    args = request["args"]
    import runpy, types
    if args[0] == "-m":
        sys.argv = ["-m", *args[2:]]
        sys.path[:1] = [os.getcwd(), *extra]
        runpy._run_module_as_main(args[1], alter_argv=True)
    elif args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[:1] = ["", *extra]
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        exec(compile(args[1], "<string>", "exec"), main.__dict__)
    else:
        script = os.path.abspath(args[0])
        sys.argv = list(args)
        sys.path[:1] = [os.path.dirname(script), *extra]
        main = types.ModuleType("__main__")
        main.__file__, main.__cached__ = args[0], None
        sys.modules["__main__"] = main
        with open(script, "rb") as source:
            exec(compile(source.read(), args[0], "exec"), main.__dict__)

while line := _requests.readline():
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        _requests = _answers = None
        try:
            _child(request)
        except SystemExit:
            raise
        except BaseException as error:
            # The interpreter's report of an uncaught exception, without the zygote's frames.
            start = trace = error.__traceback__
            while trace is not None:
                if trace.tb_frame.f_code.co_filename == "<zygote>":
                    start = trace.tb_next
                trace = trace.tb_next
            sys.excepthook(type(error), error.with_traceback(start), start)
            raise SystemExit(1) from None
        raise SystemExit(0)
    print(pid, flush=True, file=_answers)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True, file=_answers)
"""


# The zygote's code runs under its own file name, so that its frames can be told apart.
_START = "import sys; exec(compile(sys.argv[1], '<zygote>', 'exec'))"


class _Zygote:
    """One zygote process; one command at a time."""

    def __init__(self) -> None:
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPATH", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", _START, _ZYGOTE, *PRELOADED],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=os.path.abspath(os.sep),
            env=env,
            text=True,
        )

    def run(
        self, args: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        process = self.process
        if process.stdin is None or process.stdout is None:
            raise RuntimeError("the zygote has no pipes")
        with tempfile.TemporaryDirectory(prefix="forked-python-") as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            request = {
                "args": list(args),
                "cwd": str(cwd),
                "env": dict(env),
                "stdout": str(out),
                "stderr": str(err),
            }
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            pid = int(process.stdout.readline())
            answer: queue.Queue[str] = queue.Queue()
            reader = threading.Thread(target=lambda: answer.put(process.stdout.readline()))
            reader.start()
            try:
                status = answer.get(timeout=timeout)
            except queue.Empty:
                os.kill(pid, 9)
                reader.join()
                raise subprocess.TimeoutExpired(list(args), timeout) from None
            if not status:
                raise RuntimeError("the zygote ended")
            return subprocess.CompletedProcess(
                [sys.executable, *args], int(status), _text(out), _text(err)
            )


def _text(path: Path) -> str:
    """The file's bytes as ``subprocess.run(text=True)`` gives them: decoded, universal
    newlines."""
    data = path.read_bytes().decode(locale.getpreferredencoding(False))
    return data.replace("\r\n", "\n").replace("\r", "\n")


# Zygotes waiting for a command: one per thread that runs commands at once. Each ends when
# this process does (its stdin closes).
_idle: queue.SimpleQueue[_Zygote] = queue.SimpleQueue()


def _take() -> _Zygote:
    try:
        return _idle.get_nowait()
    except queue.Empty:
        return _Zygote()


def run_python(
    args: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` (``-m MODULE ...``, ``-c CODE ...`` or ``SCRIPT ...``) in ``cwd``
    with the environment ``env``: its status, stdout and stderr as text, as
    ``subprocess.run`` gives them. Raises :class:`subprocess.TimeoutExpired` past
    ``timeout`` seconds (the child is killed)."""
    if not hasattr(os, "fork") or os.environ.get("FORKED_PYTHON") == "0":
        return run_captured([sys.executable, *args], cwd=cwd, env=env, timeout=timeout)
    zygote = _take()
    try:
        done = zygote.run(args, cwd, env, timeout)
    except BaseException:
        # A zygote whose command failed to come back is not reused.
        zygote.process.kill()
        raise
    _idle.put(zygote)
    return done
