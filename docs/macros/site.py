"""Every macro of the site. Each one reads the live code (``scoring``, and the snapshot that
``contracts.build.build_snapshot`` builds from it) and marks what it writes (see
:mod:`macros.markup`). Imported afresh at the start of every build (see ``macros``).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import math
import runpy
import shutil
import sys
import tempfile
import weakref
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts import store
from contracts.build import build_snapshot, locate
from contracts.model import Location, Methodology
from contracts.output import OUTPUT_MODELS
from macros import history, inputs, plots, samples
from macros.markup import (
    FORMULA_CLASS,
    block,
    code_block,
    esc,
    exact_text,
    joined,
    markdown_block,
    ms,
    percent,
    plain,
    table,
    usd,
    value,
)
from macros.mathml import to_mathml
from scoring.numeric import decimal_half_up

#: The one site of the current build (set by :func:`define_env`).
SITE: Site | None = None

REFERENCE_PAGE = "reference.html"
DOWNLOADS = "downloads"
SNAPSHOT_FILE = "methodology.json"
SCHEMA_FILE = "methodology.schema.json"
VERSIONS_DIR = "versions"
# Highlighted copies of scoring/ and contracts/ sources, published with the site; a line is
# anchored as #L-<line>.
SOURCE_DIR = "source"
SOURCE_ANCHOR = "L"
SOURCE_PACKAGES = ("scoring", "contracts")
LONG_OUTPUT_LINES = 30


def compact_json(record: Mapping[str, Any]) -> str:
    """A record as JSON, one line per field and one line per entry of a list."""
    lines = []
    for key, item in record.items():
        if isinstance(item, list) and item:
            entries = ",\n".join(f"    {json.dumps(entry)}" for entry in item)
            lines.append(f"  {json.dumps(key)}: [\n{entries}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(item)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def anchor_id(kind: str, name: str) -> str:
    """The HTML id of a constant's or formula's entry on the reference page."""
    return f"{kind}-{name.replace('.', '-').replace('^', '')}"


def _fraction(data: Any) -> Fraction | None:
    """An exact result of the snapshot (``{exact, approx}``), a number, or ``None``."""
    if data is None:
        return None
    if isinstance(data, dict):
        return Fraction(data["exact"])
    if isinstance(data, bool):
        raise TypeError("a boolean is not a number")
    return Fraction(repr(data)) if isinstance(data, float) else Fraction(data)  # Decimal, int


class Site:
    """The live methodology of one build and everything the macros derive from it."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.docs_dir = Path(env.conf["docs_dir"])
        self.snapshot: Methodology = build_snapshot()
        self.infos = {info.meta.name: info for info in C.constants()}
        self.entries = {entry.name: entry for entry in self.snapshot.constants}
        self.workdir = Path(tempfile.mkdtemp(prefix="methodology-site-"))
        # Removed after the build (publish); also if the build stops half-way.
        weakref.finalize(self, shutil.rmtree, self.workdir, True)
        self.files = {
            samples.RUNS_FILE: samples.jsonl(samples.sample_runs()),
            samples.OUTCOMES_FILE: samples.jsonl(samples.sample_outcomes()),
            samples.BAD_RUNS_FILE: samples.bad_runs(),
        }
        for name, text in self.files.items():
            (self.workdir / name).write_text(text, encoding="utf-8")
        self._history: list[Any] | None = None

    # --- links ------------------------------------------------------------------------------

    def rel(self, target: str) -> str:
        """``target`` (a path from the site root) relative to the page being rendered."""
        page = getattr(self.env, "page", None)
        depth = page.url.count("/") if page is not None else 0
        return "../" * depth + target

    def source_href(self, location: Location) -> tuple[str, int]:
        """Link to where ``location`` is defined now (the site's own copy of the source, so
        the line always matches this build and works offline), and its line."""
        line = locate(location)
        return self.rel(f"{SOURCE_DIR}/{location.file}.html") + f"#{SOURCE_ANCHOR}-{line}", line

    def source_link(self, location: Location) -> str:
        href, line = self.source_href(location)
        return f'<a class="source" href="{esc(href)}"><code>{esc(location.file)}:{line}</code></a>'

    # --- constants --------------------------------------------------------------------------

    @staticmethod
    def pick(raw: Any, sub: str) -> Any:
        """A part of a constant: ``0.x``, ``-1.score``, ``correctness``, ``1``."""
        for part in sub.split("."):
            if isinstance(raw, Mapping):
                raw = next(v for k, v in raw.items() if str(k) == part)
            elif isinstance(raw, tuple | list):
                raw = raw[int(part)]
            else:
                raw = getattr(raw, part)
        return raw

    @staticmethod
    def format(raw: Any, fmt: str) -> tuple[str, bool]:
        """A constant (or part of one) as text; the flag asks for code style."""
        if fmt == "pct":
            return percent(raw), False
        if fmt == "ms":
            return ms(raw), False
        if fmt == "usd":
            return usd(raw), False
        if fmt == "code":
            return str(raw), True
        if fmt == "chain":
            return " → ".join(str(item) for item in raw), True
        if fmt == "range":
            return f"0–{plain(raw)}", False
        if fmt == "count":
            return str(len(raw)), False
        if fmt in ("list", "or"):
            items = [plain(i) if isinstance(i, int) else str(i) for i in raw]
            return joined(items, "and" if fmt == "list" else "or"), False
        if fmt == "plain":
            if isinstance(raw, Decimal | int | Fraction) and not isinstance(raw, bool):
                return plain(raw), False
            return str(raw), False
        raise ValueError(f"unknown format {fmt!r}")

    def describe(self, raw: Any) -> str:
        """A whole constant in words, for the reference table."""
        if isinstance(raw, tuple) and raw and isinstance(raw[0], C.Anchor):
            return "; ".join(f"{plain(a.x)} → {plain(a.score)}" for a in raw)
        if isinstance(raw, Mapping):
            return ", ".join(f"{k} {plain(v)}" for k, v in raw.items())
        if isinstance(raw, tuple):
            return ", ".join(str(item) for item in raw)
        return self.format(raw, "plain")[0]

    def constant(self, name: str, fmt: str = "plain", sub: str | None = None) -> str:
        """An inline constant, linked to its entry on the reference page."""
        info = self.infos[name]
        entry = self.entries[name]
        raw = info.value if sub is None else self.pick(info.value, str(sub))
        text, code = self.format(raw, fmt)
        line = locate(entry.defined_in)
        title = f"{name} ({entry.unit}), {entry.defined_in.file}:{line}"
        key = f"constant:{name}" + ("" if sub is None else f"/{sub}")
        href = f"{self.rel(REFERENCE_PAGE)}#{anchor_id('constant', name)}"
        return value(key, text, title=title, href=href, code=code)

    def code_value(self, dotted: str, fmt: str = "plain") -> str:
        """A module-level value of the code that is not a methodology constant
        (an exit status, a limit of the error report), e.g. ``scoring.cli.EXIT_BAD_INPUT``."""
        module, _, attribute = dotted.rpartition(".")
        raw = getattr(importlib.import_module(module), attribute)
        text, code = self.format(raw, fmt)
        return value(f"code:{dotted}", text, code=code, title=dotted)

    # --- formulas and plots -----------------------------------------------------------------

    def evaluate(self, name: str, *args: Any, fmt: str = "exact") -> str:
        """A registered formula evaluated now; string arguments are exact numbers ("1/2")."""
        from scoring.registry import FORMULAS

        exact_args = [Fraction(a) if isinstance(a, str) else a for a in args]
        result = FORMULAS[name].function(*exact_args)
        text, code = self.show(None if result is None else Fraction(result), fmt, name)
        call = f"{name}({', '.join(str(a) for a in args)})"
        return value(f"formula-value:{call}", text, code=code, title=call)

    def formula(self, name: str) -> str:
        """A formula as MathML, with its title and where it is defined."""
        entry = self.snapshot.formula(name)
        caption = (
            f"{esc(entry.title)} · <code>{esc(entry.function)}</code> · "
            f"{self.source_link(entry.defined_in)}"
        )
        return (
            f'\n<figure class="{FORMULA_CLASS}" data-mv="formula:{esc(name)}" '
            f'id="{anchor_id("formula", name)}">{to_mathml(entry.latex)}'
            f"<figcaption>{caption}</figcaption></figure>\n"
        )

    def anchors(self, name: str) -> str:
        """The anchor table of a piecewise-linear curve."""
        anchors: Sequence[C.Anchor] = self.infos[name].value
        money = name.endswith("_usd")
        header = "Mean cost per completed run" if money else "Mean latency of completed runs"
        score = "Cost score" if money else "Latency score"
        rows = [[usd(a.x) if money else ms(a.x), plain(a.score)] for a in anchors]
        return table(f"constant:{name}/table", [header, score], rows, numeric=(0, 1))

    def plot(self, name: str) -> str:
        return PLOTS[name](self)

    def radar_example(self, name: str) -> str:
        from scoring.constants import Axis

        result = self.snapshot.example(name).result
        top = Fraction(C.SCORE_SCALE)
        axes = [
            (axis.value.replace("_", " "), _fraction(result[f"axis.{axis.value}"])) for axis in Axis
        ]
        rings = [top * i / 5 for i in range(1, 6)]
        profile = _fraction(result["profile"])
        caption = (
            f"The radar of the worked example <code>{esc(name)}</code>; its profile "
            f"(default weights) is {plain(profile, C.SCORE_DECIMALS)}."
        )
        return plots.radar_chart(
            f"example:{name}",
            self.snapshot.example(name).title,
            axes,
            rings,
            top,
            lambda v: plain(v, 0) if v.denominator == 1 else plain(v, C.SCORE_DECIMALS),
            caption,
        )

    # --- worked examples --------------------------------------------------------------------

    @staticmethod
    def published_places(key: str) -> int | None:
        """How the report rounds a result called ``key`` (``None``: not rounded)."""
        tail = key.rsplit(".", 1)[-1]
        if tail in ("success_rate", "consistency") or tail.startswith("pass^"):
            return C.FRACTION_DECIMALS
        if tail in ("tasks", "zero_success_floor"):
            return None
        return C.SCORE_DECIMALS

    def show(self, data: Any, fmt: str, key: str) -> tuple[str, bool]:
        if data is None:
            return "null", True
        if isinstance(data, bool):
            return ("true" if data else "false"), True
        if isinstance(data, str):
            try:
                data = Decimal(data)
            except ArithmeticError:
                return data, fmt != "text"
        number = _fraction(data)
        assert number is not None
        if fmt == "exact":
            return exact_text(number), False
        if fmt == "pct":
            return percent(number), False
        if fmt == "usd":
            return usd(Decimal(str(data))), False
        if fmt == "ms":
            return ms(Decimal(str(data))), False
        if fmt == "published":
            places = self.published_places(key)
            return (exact_text(number) if places is None else plain(number, places)), False
        places = {
            "score": C.SCORE_DECIMALS,
            "fraction": C.FRACTION_DECIMALS,
            "reason": C.REASON_DECIMALS,
        }.get(fmt)
        if places is None:
            places = int(fmt) if fmt.isdigit() else None
        return (exact_text(number) if places is None else plain(number, places)), False

    def ex(self, name: str, key: str, fmt: str = "published") -> str:
        """One result of a worked example, computed by the live code."""
        data = self.snapshot.example(name).result[key]
        text, code = self.show(data, fmt, key)
        return value(f"example:{name}/{key}", text, code=code, title=f"worked example {name}")

    def ex_in(self, name: str, key: str, fmt: str = "exact") -> str:
        """One input of a worked example."""
        data = self.snapshot.example(name).inputs[key]
        if isinstance(data, list | dict):
            text = json.dumps(data)
            return value(f"example:{name}/input/{key}", text, code=True)
        text, code = self.show(data, fmt, key)
        return value(f"example:{name}/input/{key}", text, code=code)

    def example_table(self, name: str) -> str:
        """Inputs and results of a worked example; results exact and as published."""
        example = self.snapshot.example(name)
        rows = []
        for key, data in example.inputs.items():
            shown = json.dumps(data) if isinstance(data, list | dict) else str(data)
            rows.append([f"input <code>{esc(key)}</code>", f"<code>{esc(shown)}</code>", ""])
        for key, data in example.result.items():
            exact, code = self.show(data, "exact", key)
            published, _ = self.show(data, "published", key)
            exact_html = f"<code>{esc(exact)}</code>" if code else esc(exact)
            published_html = f"<code>{esc(published)}</code>" if code else esc(published)
            rows.append([f"<code>{esc(key)}</code>", exact_html, published_html])
        return table(
            f"example:{name}/table",
            ["", "Exact value", "As the report prints it"],
            rows,
            numeric=(1, 2),
            caption=esc(example.title),
        )

    def outcome_example(self, name: str) -> str:
        """An outcome record (JSON) and the outcome score the live code gives it."""
        example = self.snapshot.example(name)
        record = compact_json(example.inputs["record"])
        rows = []
        for key, data in example.result.items():
            text, code = self.show(data, "exact", key)
            rows.append(
                [f"<code>{esc(key)}</code>", f"<code>{esc(text)}</code>" if code else esc(text)]
            )
        return code_block(
            f"example:{name}/input", record, lang="json", title=f"{name}: record"
        ) + table(f"example:{name}/table", ["Field", "Value"], rows, caption=esc(example.title))

    def weights_table(self) -> str:
        """The radar's default weights, per axis."""
        rows = [
            [f"<code>{esc(axis)}</code>", percent(weight)]
            for axis, weight in C.RADAR_DEFAULT_WEIGHTS.items()
        ]
        return table(
            "constant:radar.default_weights/table", ["Axis", "Default weight"], rows, numeric=(1,)
        )

    # --- running the code ---------------------------------------------------------------------

    def cli(self, *args: str) -> str:
        """Run ``python -m scoring ARGS`` now, on the sample files; show command and output."""
        from scoring.cli import run

        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.chdir(self.workdir):
            status = run(list(args), stdin=io.BytesIO(), stdout=stdout, stderr=stderr)
        command = "python -m scoring " + " ".join(args)
        key = "cli:" + " ".join(args)
        out = stdout.getvalue()
        if status:
            out += stderr.getvalue() + f"(exit status {status})\n"
        return code_block(key + "/command", command, lang="sh") + self._output(key, out)

    def _output(self, key: str, text: str) -> str:
        rendered = code_block(key + "/output", text, lang="text", title="output")
        lines = text.count("\n")
        if lines <= LONG_OUTPUT_LINES:
            return rendered
        return (
            f'\n<details class="output mv-block" data-mv="{esc(key)}/details" markdown>\n'
            f"<summary>Output ({lines} lines)</summary>\n{rendered}\n</details>\n"
        )

    def script(self, name: str, *args: str) -> str:
        """An example script from ``docs/examples``: its source, and its output, run now."""
        path = self.docs_dir / "examples" / name
        for arg in args:
            source = self.docs_dir / "data" / arg
            if source.exists():
                shutil.copy(source, self.workdir / arg)
        stdout = io.StringIO()
        saved = sys.argv
        sys.argv = [name, *args]
        try:
            with contextlib.chdir(self.workdir), contextlib.redirect_stdout(stdout):
                runpy.run_path(str(path), run_name="__main__")
        finally:
            sys.argv = saved
        download = f'<a href="{esc(self.rel("examples/" + name))}" download>{esc(name)}</a>'
        command = " ".join(["python", name, *args])
        return (
            code_block(
                f"script:{name}/source", path.read_text(encoding="utf-8"), lang="python", title=name
            )
            + block(f"script:{name}/download", f"<p>Download {download}, then run:</p>")
            + code_block(f"script:{name}/command", command, lang="sh")
            + self._output(f"script:{name}", stdout.getvalue())
        )

    def _tau(self) -> tuple[dict[str, Any], Path]:
        namespace = runpy.run_path(str(self.docs_dir / "examples" / "tau_bench.py"), run_name="tau")
        return namespace, self.docs_dir / "data" / "tau-bench-gpt-4o-airline.jsonl"

    def tau_bench_table(self) -> str:
        """Our pass^k on τ-bench's recorded trials beside the values τ-bench publishes."""
        namespace, data = self._tau()
        ours = namespace["pass_hat"](data)
        rows = []
        for k, published in namespace["PUBLISHED"].items():
            mine = ours[k]
            places = len(published.split(".")[1])
            rounded = plain(mine, places)
            agree = "yes" if rounded == published else "<strong>no</strong>"
            rows.append([f"pass^{k}", exact_text(mine), rounded, published, agree])
        return table(
            "tau-bench:pass^k",
            ["Level", "Ours, exact", "Ours, rounded", "τ-bench README", "Agree"],
            rows,
            numeric=(1, 2, 3),
        )

    def tau_bench_levels(self) -> str:
        """pass^k at this methodology's own levels on the τ-bench data."""
        from scoring.repeatability import score_repeatability

        namespace, data = self._tau()
        result = score_repeatability(namespace["tasks"](data))
        rows = [
            [
                f"pass^{k}",
                exact_text(v) if v is not None else "null",
                plain(v, C.FRACTION_DECIMALS) if v is not None else "null",
            ]
            for k, v in result.pass_hat.items()
        ]
        rows.append(["qualifying tasks", str(result.tasks), str(result.tasks)])
        return table(
            "tau-bench:levels", ["", "Exact", "As the report prints it"], rows, numeric=(1, 2)
        )

    def tau_bench_verdict(self) -> str:
        namespace, data = self._tau()
        ours = namespace["pass_hat"](data)
        published = namespace["PUBLISHED"]
        agree = all(plain(ours[k], len(p.split(".")[1])) == p for k, p in published.items())
        levels = joined([str(k) for k in published])
        text = f"all agree (k = {levels})" if agree else f"they disagree for some k in {levels}"
        return value("tau-bench:verdict", text)

    # --- inputs -------------------------------------------------------------------------------

    def model_table(self, name: str) -> str:
        """The fields of an input model, read off the pydantic model itself."""
        from scoring import models

        model = getattr(models, name)
        rules = self._model_rules(name)
        rows = []
        for row in inputs.model_fields(model):
            default = "" if row.required else f"<code>{esc(json.dumps(row.default))}</code>"
            rows.append(
                [
                    f"<code>{esc(row.name)}</code>",
                    row.type_html,
                    "required" if row.required else f"optional, default {default}",
                    "; ".join(rules.get(row.name, [])),
                ]
            )
        headers = ["Field", "Type", "Presence", "Also refused"]
        if not rules:
            headers, rows = headers[:-1], [row[:-1] for row in rows]
        return table(
            f"model:{name}",
            headers,
            rows,
            caption=f"<code>{esc(name)}</code>: {esc(inputs.model_description(model))}",
        )

    def _model_rules(self, name: str) -> dict[str, list[str]]:
        from scoring import models

        found: dict[str, list[str]] = {}
        if name == "RunRecord":
            statuses = [s.value for s in models.RunStatus]
            base = {
                "run_id": "r",
                "agent_id": "a",
                "task_id": "t",
                "success": True,
                "latency_ms": 1.0,
                "cost_usd": 1.0,
                "steps": 1,
                "finished_at": "2026-01-01T00:00:00+00:00",
            }
            for field, hits in inputs.conditional_rules(
                models.RunRecord, base, "status", statuses
            ).items():
                found.setdefault(field, []).append(
                    "<code>null</code> or missing when <code>status</code> is "
                    + joined([f"<code>{esc(s)}</code>" for s, _ in hits], "or")
                )
        if name == "VerificationEntry":
            roles = [r.value for r in models.Role]
            base = {"name": "n", "status": "passed", "severity": "recoverable"}
            for field, hits in inputs.conditional_rules(
                models.VerificationEntry, base, "role", roles
            ).items():
                found.setdefault(field, []).append(
                    "missing when <code>role</code> is "
                    + joined([f"<code>{esc(r)}</code>" for r, _ in hits], "or")
                )
            for role, _ in inputs.forbidden_rules(
                models.VerificationEntry, base, "role", roles, "severity"
            ):
                found.setdefault("severity", []).append(
                    f"given when <code>role</code> is <code>{esc(role)}</code>"
                )
        return found

    def status_table(self) -> str:
        """Which runs each score reads, found by scoring one-status run logs."""
        from scoring import models
        from scoring.report import build_report

        rows = []
        for status in models.RunStatus:
            lines = [
                json.dumps(
                    {
                        "run_id": f"r{i}",
                        "agent_id": "a",
                        "task_id": "t",
                        "status": status.value,
                        "success": True,
                        "latency_ms": 1000,
                        "cost_usd": 0.01,
                        "finished_at": f"2026-01-01T00:00:0{i}+00:00",
                    }
                ).encode()
                for i in range(max(C.REPEATABILITY_MIN_OUTCOMES, C.CONSISTENCY_MIN_RUNS))
            ]
            agent = build_report(lines).agents[0]
            rows.append(
                [
                    f"<code>{esc(status.value)}</code>",
                    "yes" if status in models.TERMINAL_STATUSES else "no",
                    "yes" if agent.composite.completed_runs else "no",
                    "yes" if agent.radar.window_runs else "no",
                    "yes" if agent.repeatability.tasks else "no",
                ]
            )
        return table(
            "model:RunStatus",
            ["Status", "Terminal", "Headline composite", "Fitness radar", "Repeatability"],
            rows,
        )

    def bad_input(self, kind: str) -> str:
        """Bad lines and the messages the live reader gives them."""
        cases = BAD_RUNS if kind == "report" else BAD_OUTCOMES
        intro = ""
        if kind == "report":
            intro = code_block("bad-input:good-line", _GOOD_RUN, lang="json", title="a good line")
        rows = [
            [
                esc(case.what),
                case.shown
                if case.shown
                else "<br>".join(f"<code>{esc(line)}</code>" for line in case.lines),
                "<br>".join(f"<code>{esc(m)}</code>" for m in messages),
            ]
            for case, messages in inputs.bad_input_messages(kind, cases)
        ]
        return intro + table(f"bad-input:{kind}", ["Problem", "Input", "Message"], rows)

    # --- demonstrations -----------------------------------------------------------------------

    def demo(self, name: str) -> str:
        return DEMOS[name](self)

    def pass_k_compare(self, example: str = "repeatability.typical", task: int = 1) -> str:
        """pass^k beside pass@k for one task of a worked example."""
        from scoring.repeatability import pass_hat_k

        n, c = self.snapshot.example(example).inputs["tasks_n_c"][task]
        rows = []
        for k in C.PASS_K_LEVELS:
            hat = pass_hat_k(n, c, k)
            at = 1 - Fraction(math.comb(n - c, k), math.comb(n, k)) if k <= n else Fraction(1)
            rows.append(
                [
                    str(k),
                    exact_text(hat),
                    plain(hat, C.FRACTION_DECIMALS),
                    exact_text(at),
                    plain(at, C.FRACTION_DECIMALS),
                ]
            )
        return table(
            f"pass-k-compare:{example}/{task}",
            ["k", "pass^k exact", "pass^k", "pass@k exact", "pass@k"],
            rows,
            numeric=(0, 1, 2, 3, 4),
            caption=f"A task with n = {n} recorded outcomes and c = {c} successes",
        )

    def source_excerpt(self, python_name: str) -> str:
        """The lines of ``scoring/constants.py`` that define a constant, as they are now."""
        path = Path(C.__file__)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == python_name:
                lines = path.read_text(encoding="utf-8").splitlines()[
                    node.lineno - 1 : node.end_lineno
                ]
                text = "\n".join(lines)
                fence = f'```python linenums="{node.lineno}" title="scoring/constants.py"'
                return markdown_block(f"source:{python_name}", f"{fence}\n{text}\n```")
        raise KeyError(python_name)

    def next_version(self) -> str:
        """The current version with its minor part bumped (what a new constant would need)."""
        major, minor, _ = (int(p) for p in C.METHODOLOGY_VERSION.split("."))
        text = f"{major}.{minor + 1}.0"
        return value("version:next", text, code=True)

    # --- reference ----------------------------------------------------------------------------

    def constants_reference(self) -> str:
        rows = []
        for entry in self.snapshot.constants:
            info = self.infos[entry.name]
            rows.append(
                [
                    f'<code id="{anchor_id("constant", entry.name)}">{esc(entry.name)}</code>'
                    f"<br><small><code>{esc(entry.python_name)}</code></small>",
                    "<br>".join(esc(part) for part in self.describe(info.value).split("; ")),
                    f"{esc(entry.description)}<br><small>Unit: {esc(entry.unit)} · "
                    f"{self.source_link(entry.defined_in)}</small>",
                ]
            )
        return table("reference:constants", ["Constant", "Value", "Meaning"], rows)

    def formulas_reference(self) -> str:
        return "\n".join(self.formula(entry.name) for entry in self.snapshot.formulas)

    # --- versions -----------------------------------------------------------------------------

    def history(self) -> list[Any]:
        if self._history is None:
            from contracts.store import load_history

            self._history = load_history()
        return self._history

    def versions_table(self) -> str:
        hrefs = {r.version: self.rel(f"{VERSIONS_DIR}/{r.version}.json") for r in self.history()}
        return history.releases_table(self.history(), hrefs)

    def changelog(self) -> str:
        return history.changelog(self.history())

    def version_changes(self) -> str:
        releases = self.history()
        if len(releases) < 2:
            only = releases[0].version if releases else "none"
            return block(
                "versions:diff",
                f"<p>Only one version is released so far ({esc(only)}): "
                "there is nothing to compare yet.</p>",
            )
        return history.between_versions(releases)

    def live_drift(self) -> str:
        """Does the code this page was built from match the newest released snapshot?"""
        from contracts.check import diff_snapshots

        releases = self.history()
        newest = releases[-1]
        differences = diff_snapshots(newest.snapshot, self.snapshot)
        version = esc(self.snapshot.methodology_version)
        if not differences:
            body = (
                f'<p class="admonition-title">In step</p><p>This site was built from code '
                f"whose methodology (version {version}) is identical to the committed snapshot "
                f"of version {esc(newest.version)}.</p>"
            )
            return block("versions:drift", f'<div class="admonition success">{body}</div>')
        body = (
            f'<p class="admonition-title">Unreleased changes</p><p>This site was built '
            f"from code (version {version}) that differs from the committed snapshot of "
            f"version {esc(newest.version)} in {len(differences)} places. "
            "<code>python -m contracts check</code> fails until the change is released.</p>"
        )
        diff = history.differences_table(
            "versions:drift/table", differences, before=esc(newest.version), after="this build"
        )
        return block("versions:drift", f'<div class="admonition warning">{body}</div>') + diff

    def check_demo(self, constant: str = "composite.weight.success", delta: str = "0.05") -> str:
        """What the drift check prints now, and what it would print after an edit."""
        from contracts.check import run_check

        now = run_check(live=self.snapshot)
        changed = []
        for entry in self.snapshot.constants:
            if entry.name == constant:
                new = float(Decimal(repr(entry.value)) + Decimal(delta))
                entry = entry.model_copy(update={"value": new})
            changed.append(entry)
        edited = self.snapshot.model_copy(update={"constants": changed})
        after = run_check(live=edited)
        return (
            code_block("check:now/command", "python -m contracts check", lang="sh")
            + self._output(
                "check:now", "\n".join(now.lines()) + f"\n(exit status {now.exit_code})\n"
            )
            + block(
                "check:edited/intro",
                f"<p>The same check, had <code>{esc(constant)}</code> been edited to "
                f"<code>{esc(new)}</code> without a new version:</p>",
            )
            + self._output(
                "check:edited", "\n".join(after.lines()) + f"\n(exit status {after.exit_code})\n"
            )
        )

    # --- downloads ----------------------------------------------------------------------------

    def snapshot_links(self) -> str:
        snap = f'<a href="{esc(self.rel(SNAPSHOT_FILE))}"><code>{SNAPSHOT_FILE}</code></a>'
        schema = f'<a href="{esc(self.rel(SCHEMA_FILE))}"><code>{SCHEMA_FILE}</code></a>'
        return f"{snap} (its JSON Schema: {schema})"

    def downloads(self) -> str:
        """Every file published beside the pages, with what it holds."""
        entries = [
            (SNAPSHOT_FILE, "the live methodology snapshot this site was built from"),
            (SCHEMA_FILE, "its JSON Schema"),
            *(
                (name, f"JSON Schema of {name.split('.')[0]} --format json")
                for name in OUTPUT_MODELS
            ),
            (f"{DOWNLOADS}/{samples.RUNS_FILE}", "a sample run log (input of report)"),
            (f"{DOWNLOADS}/{samples.OUTCOMES_FILE}", "sample outcome records (input of outcome)"),
            (f"{DOWNLOADS}/{samples.BAD_RUNS_FILE}", "a run log with two problems"),
            ("data/tau-bench-gpt-4o-airline.jsonl", "τ-bench trials of gpt-4o, airline domain"),
            ("data/tau-bench-LICENSE.txt", "τ-bench's licence (MIT)"),
            ("examples/report_api.py", "the report from Python"),
            ("examples/outcome_api.py", "an outcome score from Python"),
            ("examples/tau_bench.py", "pass^k on the τ-bench data"),
        ]
        entries += [
            (f"{VERSIONS_DIR}/{r.version}.json", f"committed snapshot of version {r.version}")
            for r in self.history()
        ]
        entries.append(
            (f"{VERSIONS_DIR}/{store.LOCK_FILENAME}", "SHA-256 of each released snapshot (lock)")
        )
        rows = [
            [f'<a href="{esc(self.rel(path))}"><code>{esc(path)}</code></a>', esc(what)]
            for path, what in entries
        ]
        return table("downloads", ["File", "What it holds"], rows)

    def publish(self, site_dir: Path) -> None:
        """Write the snapshot, its schema, the samples and the released snapshots."""
        site_dir.mkdir(parents=True, exist_ok=True)
        data = self.snapshot.model_dump(mode="json")
        (site_dir / SNAPSHOT_FILE).write_text(
            json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
        schema |= Methodology.model_json_schema()
        (site_dir / SCHEMA_FILE).write_text(
            json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        downloads = site_dir / DOWNLOADS
        downloads.mkdir(exist_ok=True)
        for name, text in self.files.items():
            (downloads / name).write_text(text, encoding="utf-8")
        versions = site_dir / VERSIONS_DIR
        versions.mkdir(exist_ok=True)
        # Byte for byte: a reader checks them with python -m contracts verify and the lock.
        for release in self.history():
            shutil.copyfile(
                store.snapshot_path(release.version), versions / f"{release.version}.json"
            )
        shutil.copyfile(store.LOCK_PATH, versions / store.LOCK_FILENAME)
        for name in OUTPUT_MODELS:
            shutil.copyfile(store.SNAPSHOT_DIR / name, site_dir / name)
        publish_sources(site_dir / SOURCE_DIR)
        shutil.rmtree(self.workdir, ignore_errors=True)


def publish_sources(target: Path) -> None:
    """Write a highlighted page, lines anchored, for every Python file of the packages."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    root = Path(C.__file__).resolve().parent.parent
    for package in SOURCE_PACKAGES:
        for path in sorted((root / package).glob("*.py")):
            relative = path.relative_to(root).as_posix()
            formatter = HtmlFormatter(
                full=True,
                linenos="inline",
                lineanchors=SOURCE_ANCHOR,
                anchorlinenos=True,
                noclasses=True,
                title=f"{relative} (the source this site was built from)",
            )
            page = highlight(path.read_text(encoding="utf-8"), PythonLexer(), formatter)
            out = target / f"{relative}.html"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(page, encoding="utf-8")


# --- plots ------------------------------------------------------------------------------------


def _ticks(low: Fraction, high: Fraction, count: int = 6) -> list[Fraction]:
    return plots.nice_ticks(low, high, count)


def _unit_scale(label: str, fmt: Callable[[Fraction], str] | None = None) -> plots.Scale:
    """A 0–1 axis (fractions, readings), ticked every fifth, labelled with one decimal."""
    one = Fraction(1)
    shown = fmt if fmt is not None else (lambda v: plain(v, 1))
    return plots.Scale(label, Fraction(0), one, _ticks(Fraction(0), one, 5), shown)


def _score_scale(label: str) -> plots.Scale:
    top = Fraction(C.SCORE_SCALE)
    return plots.Scale(label, Fraction(0), top, _ticks(Fraction(0), top, 5), lambda v: plain(v, 0))


def _curve_plot(site: Site, name: str, money: bool) -> str:
    from scoring.curves import cost_score, latency_score

    anchors: Sequence[C.Anchor] = site.infos[name].value
    function = cost_score if money else latency_score
    high = Fraction(anchors[-1].x) * Fraction(5, 4)
    xs = [Fraction(a.x) for a in anchors]
    fmt: Callable[[Fraction], str]
    if money:
        fmt = lambda v: usd(Decimal(v.numerator) / Decimal(v.denominator))  # noqa: E731
    else:
        fmt = lambda v: plain(v, 0)  # noqa: E731
    x = plots.Scale(
        "mean cost per completed run (USD)" if money else "mean latency of completed runs (ms)",
        Fraction(0),
        high,
        _ticks(Fraction(0), high),
        fmt,
    )
    markers = [
        plots.Marker(
            Fraction(a.x), Fraction(a.score), f"{usd(a.x) if money else ms(a.x)} → {plain(a.score)}"
        )
        for a in anchors
    ]
    label = "Cost score" if money else "Latency score"
    return plots.line_plot(
        plots.Plot(
            key=f"constant:{name}",
            title=f"{label} against the mean {'cost' if money else 'latency'}",
            x=x,
            y=_score_scale(label.lower()),
            curves=[plots.Curve(label, plots.sample(function, Fraction(0), high, extra=xs))],
            markers=markers,
            caption=f"{label}, sampled from "
            f"<code>{function.__module__}.{function.__name__}</code>; "
            "the dots are the anchors.",
        )
    )


def _consistency_plot(site: Site) -> str:
    from scoring.composite import outcome_consistency

    gate = C.CONSISTENCY_MIN_RUNS
    unit = _unit_scale("success rate p")
    typical = site.snapshot.example("composite.typical").result
    p = _fraction(typical["success_rate"])
    assert p is not None
    return plots.line_plot(
        plots.Plot(
            key="formula:composite.outcome_consistency",
            title="Outcome consistency against the success rate",
            x=unit,
            y=_unit_scale("outcome consistency"),
            curves=[
                plots.Curve(
                    f"{gate} or more completed runs",
                    plots.sample(lambda q: outcome_consistency(q, gate), Fraction(0), Fraction(1)),
                ),
                plots.Curve(
                    f"fewer than {gate} completed runs",
                    plots.sample(
                        lambda q: outcome_consistency(q, gate - 1), Fraction(0), Fraction(1)
                    ),
                    style="curve alt",
                ),
            ],
            markers=[
                plots.Marker(p, _fraction(typical["consistency"]) or Fraction(0), "worked example")
            ],
            caption=(
                f"Solid: {gate} or more completed runs. Dashed: fewer, where consistency stays "
                f"neutral. Sampled from <code>outcome_consistency</code>."
            ),
        )
    )


def _radar_axis_plot(site: Site, axis: str) -> str:
    from scoring import radar

    example = site.snapshot.example("radar.typical")
    inputs_, result = example.inputs, example.result
    top = Fraction(C.SCORE_SCALE)
    y = _score_scale(f"{axis.replace('_', ' ')} axis")
    marker: plots.Marker | None = None
    function: Callable[[Fraction], Fraction | None]
    if axis == "correctness":
        known = 100
        x = _unit_scale("pass rate over window runs with a known outcome", percent)
        function = lambda q: radar.correctness_axis(int(q * known), known)  # noqa: E731
        points = plots.sample(function, Fraction(0), Fraction(1), steps=known)
        rate = Fraction(inputs_["passes"], inputs_["known_outcomes"])
        marker = plots.Marker(
            rate, _fraction(result["axis.correctness"]) or Fraction(0), "worked example"
        )
    elif axis == "latency":
        full = Fraction(C.RADAR_LATENCY_FULL_MS)
        zero_at = full + top / Fraction(C.RADAR_LATENCY_POINTS_PER_STEP) * Fraction(
            C.RADAR_LATENCY_STEP_MS
        )
        high = zero_at * Fraction(5, 4)
        x = plots.Scale(
            "median latency of the window (ms)",
            Fraction(0),
            high,
            _ticks(Fraction(0), high),
            lambda v: plain(v, 0),
        )
        function = lambda t: radar.latency_axis(t, C.RADAR_LATENCY_MIN_RUNS)  # noqa: E731
        points = plots.sample(function, Fraction(0), high, extra=[full, zero_at])
        marker = plots.Marker(
            Fraction(inputs_["median_latency_ms"]),
            _fraction(result["axis.latency"]) or Fraction(0),
            "worked example",
        )
    elif axis == "cost":
        zero = Fraction(C.RADAR_COST_ZERO_USD)
        high = zero * Fraction(13, 10)
        x = plots.Scale(
            "median cost per run (USD)",
            Fraction(0),
            high,
            _ticks(Fraction(0), high),
            lambda v: usd(Decimal(v.numerator) / Decimal(v.denominator)),
        )
        function = radar.cost_axis
        points = plots.sample(
            function, Fraction(0), high, extra=[Fraction(C.RADAR_COST_FULL_USD), zero]
        )
        marker = plots.Marker(
            Fraction(inputs_["median_cost_usd"]),
            _fraction(result["axis.cost"]) or Fraction(0),
            "worked example",
        )
    elif axis == "tool_efficiency":
        free = Fraction(C.RADAR_STEPS_FREE)
        high = free + top / Fraction(C.RADAR_POINTS_PER_EXTRA_STEP) + 3
        x = plots.Scale(
            "median steps of the window",
            Fraction(0),
            high,
            _ticks(Fraction(0), high),
            lambda v: plain(v, 0),
        )
        function = radar.tool_efficiency_axis
        points = plots.sample(function, Fraction(0), high, extra=[free])
        marker = plots.Marker(
            Fraction(inputs_["median_steps"]),
            _fraction(result["axis.tool_efficiency"]) or Fraction(0),
            "worked example",
        )
    elif axis == "robustness":
        known = 100
        x = _unit_scale("pass rate q of one task", percent)
        function = lambda q: radar.robustness_axis([(int(q * known), known)])  # noqa: E731
        points = plots.sample(function, Fraction(0), Fraction(1), steps=known)
    else:
        raise KeyError(axis)
    return plots.line_plot(
        plots.Plot(
            key=f"formula:radar.{axis}",
            title=f"The {axis.replace('_', ' ')} axis",
            x=x,
            y=y,
            curves=[plots.Curve(f"{axis} axis", points)],
            markers=[marker] if marker else [],
            caption="Sampled from <code>scoring.radar</code>"
            + ("; the dot is the worked example below." if marker else "; one task on its own."),
        )
    )


def _tradeoff_plot(site: Site) -> str:
    from scoring.outcome import combine, recoverable_with_floor

    a = site.snapshot.example("outcome.tradeoff_safety").result
    b = site.snapshot.example("outcome.tradeoff_correctness").result
    unit = _unit_scale("correctness c")
    curves = []
    levels = sorted(
        {
            Fraction(repr(a["recoverable_safety"])),
            Fraction(repr(b["recoverable_safety"])),
            recoverable_with_floor(0),
        },
        reverse=True,
    )
    for level in levels:
        curves.append(
            plots.Curve(
                f"rec_v = {exact_text(level)}",
                plots.sample(
                    lambda c, level=level: Fraction(combine(c, level)), Fraction(0), Fraction(1)
                ),
                style="curve" if level == levels[0] else "curve alt",
            )
        )
    markers = [
        plots.Marker(
            Fraction(repr(r["correctness"])),
            Fraction(repr(r["outcome_score"])),
            f"c = {exact_text(Fraction(repr(r['correctness'])))}, "
            f"rec_v = {exact_text(Fraction(repr(r['recoverable_safety'])))}",
            place,
        )
        for r, place in ((a, "below-left"), (b, "above-left"))
    ]
    return plots.line_plot(
        plots.Plot(
            key="formula:outcome.score",
            title="Outcome score against correctness, for three levels of recoverable safety",
            x=unit,
            y=_unit_scale("outcome score"),
            curves=curves,
            markers=markers,
            caption="Curves from top to bottom: rec_v = "
            + ", ".join(exact_text(level) for level in levels)
            + " (the last is the floor). Sampled from <code>scoring.outcome.combine</code>.",
        )
    )


PLOTS: dict[str, Callable[[Site], str]] = {
    "composite.latency": lambda s: _curve_plot(s, "composite.latency_anchors_ms", money=False),
    "composite.cost": lambda s: _curve_plot(s, "composite.cost_anchors_usd", money=True),
    "composite.consistency": _consistency_plot,
    "radar.correctness": lambda s: _radar_axis_plot(s, "correctness"),
    "radar.latency": lambda s: _radar_axis_plot(s, "latency"),
    "radar.cost": lambda s: _radar_axis_plot(s, "cost"),
    "radar.tool_efficiency": lambda s: _radar_axis_plot(s, "tool_efficiency"),
    "radar.robustness": lambda s: _radar_axis_plot(s, "robustness"),
    "outcome.tradeoff": _tradeoff_plot,
}


# --- demonstrations ---------------------------------------------------------------------------


def _median_demo(site: Site) -> str:
    from scoring.numeric import median

    cases = [[900, 1500, 1200], [900, 1500, 1200, 4000]]
    rows = [
        [
            f"<code>{esc(json.dumps(values))}</code>",
            str(len(values)),
            exact_text(median([Fraction(v) for v in values])),
        ]
        for values in cases
    ]
    return table("demo:median", ["Values", "Count", "Median"], rows, numeric=(1, 2))


def _rounding_demo(site: Site) -> str:
    cases = [
        (Fraction(56125, 1000), C.SCORE_DECIMALS, "a score"),
        (Fraction(280, 3), C.SCORE_DECIMALS, "a score"),
        (Fraction(2, 3), C.FRACTION_DECIMALS, "a fraction"),
        (Fraction(5, 100000), C.FRACTION_DECIMALS, "a fraction"),
    ]
    rows = [
        [esc(what), exact_text(v), str(places), str(decimal_half_up(v, places))]
        for v, places, what in cases
    ]
    return table("demo:rounding", ["Kind", "Exact", "Decimals", "Printed"], rows, numeric=(1, 2, 3))


def _window_tie_demo(site: Site) -> str:
    from scoring.report import build_report

    size = C.RADAR_WINDOW_RUNS

    def line(i: int, when: int, success: bool) -> bytes:
        minute, second = divmod(when, 60)
        return json.dumps(
            {
                "run_id": f"r{i}",
                "agent_id": "a",
                "task_id": "t",
                "status": "completed",
                "success": success,
                "latency_ms": 1000,
                "cost_usd": 0.01,
                "finished_at": f"2026-01-01T{minute // 60:02d}:{minute % 60:02d}:{second:02d}Z",
            }
        ).encode()

    tied = [line(0, 0, False), line(1, 0, True)]
    newer = [line(i + 2, i + 1, True) for i in range(size - 1)]
    radar = build_report(tied + newer).agents[0].radar
    correctness = radar.axes[C.Axis.CORRECTNESS]
    rows = [
        ["terminal runs in the input", str(len(tied) + len(newer))],
        ["runs in the window", str(radar.window_runs)],
        [
            "correctness axis",
            plain(correctness, C.SCORE_DECIMALS) if correctness is not None else "null",
        ],
    ]
    return table("demo:window-tie", ["", "Value"], rows, numeric=(1,))


def _efficiency_demo(site: Site) -> str:
    from scoring.models import OutcomeRecord
    from scoring.outcome import score_outcome
    from scoring.serialize import outcome_to_json

    record = dict(site.snapshot.example("outcome.full").inputs["record"])
    variants = [
        ("no efficiency data", None),
        ("quick and frugal", {"latency_sec": 2.5, "total_tokens": 900}),
        ("slow and costly", {"latency_sec": 600.0, "input_tokens": 240000, "total_tokens": 250000}),
    ]
    rows = []
    for label, efficiency in variants:
        data = record if efficiency is None else {**record, "efficiency": efficiency}
        result = outcome_to_json(score_outcome(OutcomeRecord.model_validate_json(json.dumps(data))))
        rows.append(
            [
                esc(label),
                f"<code>{esc(json.dumps(result['efficiency']))}</code>",
                f"<code>{esc(result['outcome_score'])}</code>",
                f"<code>{esc(result['reason'])}</code>",
            ]
        )
    return table("demo:efficiency", ["Run", "efficiency", "outcome_score", "reason"], rows)


DEMOS: dict[str, Callable[[Site], str]] = {
    "efficiency": _efficiency_demo,
    "median": _median_demo,
    "rounding": _rounding_demo,
    "window_tie": _window_tie_demo,
}


# --- bad input --------------------------------------------------------------------------------

_GOOD_RUN = (
    '{"run_id": "r1", "agent_id": "a", "task_id": "t", "status": "completed", "success": true, '
    '"latency_ms": 900, "cost_usd": 0.01, "steps": 4, "finished_at": "2026-07-01T09:00:00+00:00"}'
)


def _bad_run(what: str, old: str, new: str) -> inputs.BadCase:
    """The good run line with ``old`` replaced by ``new``."""
    assert old in _GOOD_RUN
    shown = f"<code>{esc(new)}</code> instead of <code>{esc(old)}</code>"
    return inputs.BadCase(what, (_GOOD_RUN.replace(old, new),), shown)


BAD_RUNS = [
    _bad_run("an unknown field", '"steps": 4', '"steps": 4, "model": "x"'),
    _bad_run("a wrong type", '"success": true', '"success": "yes"'),
    _bad_run("a whole number written as a decimal", '"steps": 4', '"steps": 4.0'),
    _bad_run("NaN", '"latency_ms": 900', '"latency_ms": NaN'),
    _bad_run("Infinity", '"cost_usd": 0.01', '"cost_usd": Infinity'),
    _bad_run("a negative number", '"cost_usd": 0.01', '"cost_usd": -0.01'),
    _bad_run("a missing value on a completed run", '"latency_ms": 900', '"latency_ms": null'),
    inputs.BadCase(
        "a terminal run without finished_at",
        (
            _GOOD_RUN.replace('"completed"', '"failed"').replace(
                '"2026-07-01T09:00:00+00:00"', "null"
            ),
        ),
        '<code>"status": "failed"</code> and <code>"finished_at": null</code>',
    ),
    _bad_run(
        "a timestamp without an offset",
        '"2026-07-01T09:00:00+00:00"',
        '"2026-07-01T09:00:00"',
    ),
    _bad_run("an unknown status", '"completed"', '"done"'),
    inputs.BadCase(
        "a duplicate run_id",
        (_GOOD_RUN, _GOOD_RUN.replace('"task_id": "t"', '"task_id": "u"')),
        "the line twice, the second for another task",
    ),
    inputs.BadCase("a line that is not JSON", ('{"run_id": "r1", "agent_id": ',)),
]


def _outcome_line(**fields: Any) -> str:
    return json.dumps({"run_id": "o1", **fields})


def _check(**fields: Any) -> dict[str, Any]:
    return {"name": "c", "role": "objective", "status": "passed", **fields}


BAD_OUTCOMES = [
    inputs.BadCase(
        "a safeguard without severity",
        (_outcome_line(verification=[_check(role="safeguard")]),),
    ),
    inputs.BadCase(
        "an objective with a severity",
        (_outcome_line(verification=[_check(severity="recoverable")]),),
    ),
    inputs.BadCase("a weight of zero", (_outcome_line(verification=[_check(weight=0)]),)),
    inputs.BadCase("a judged reading above one", (_outcome_line(judged={"checklist": 1.2}),)),
    inputs.BadCase("an unknown status", (_outcome_line(verification=[_check(status="skipped")]),)),
    inputs.BadCase(
        "efficiency inside the judged readings",
        (_outcome_line(judged={"checklist": 0.9, "latency_sec": 3}),),
    ),
    inputs.BadCase("a duplicate run_id", (_outcome_line(), _outcome_line())),
]


# --- mkdocs-macros hooks ----------------------------------------------------------------------

MACROS: dict[str, str] = {
    "c": "constant",
    "formula": "formula",
    "f": "evaluate",
    "anchors": "anchors",
    "plot": "plot",
    "radar_example": "radar_example",
    "ex": "ex",
    "ex_in": "ex_in",
    "example_table": "example_table",
    "outcome_example": "outcome_example",
    "weights_table": "weights_table",
    "cli": "cli",
    "script": "script",
    "tau_bench_table": "tau_bench_table",
    "tau_bench_levels": "tau_bench_levels",
    "tau_bench_verdict": "tau_bench_verdict",
    "model_table": "model_table",
    "status_table": "status_table",
    "bad_input": "bad_input",
    "downloads": "downloads",
    "demo": "demo",
    "pass_k_compare": "pass_k_compare",
    "code_value": "code_value",
    "source_excerpt": "source_excerpt",
    "next_version": "next_version",
    "constants_reference": "constants_reference",
    "formulas_reference": "formulas_reference",
    "versions_table": "versions_table",
    "changelog": "changelog",
    "version_changes": "version_changes",
    "live_drift": "live_drift",
    "check_demo": "check_demo",
    "snapshot_links": "snapshot_links",
}


def define_env(env: Any) -> None:
    """Build this build's :class:`Site` and register its macros."""
    global SITE
    site = Site(env)
    for name, method in MACROS.items():
        env.macro(getattr(site, method), name)
    env.variables["methodology_version"] = site.snapshot.methodology_version
    SITE = site


def on_post_build(env: Any) -> None:
    """Publish the JSON files and downloads beside the pages."""
    if SITE is not None:
        SITE.publish(Path(env.conf["site_dir"]))
