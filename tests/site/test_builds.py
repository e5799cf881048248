"""One build under either generator (docs/macros/builds.py): which generator runs, whether a
Zensical build is strict, warnings that stop a strict Zensical build and only print under
``serve``, the fingerprint of the live code, and the ``Site`` kept across the pages of one
build when Zensical's shim loads the macros once per page. The ``zensical`` extra is pinned
and part of ``dev``."""

from __future__ import annotations

import json
import logging
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

import bench_page_load
import pytest
from processes import run_captured
from serving import copy_project
from support import ROOT, import_macros
from zensical.extensions.macros import MacroEnv

builds = import_macros("macros.builds")


@pytest.mark.parametrize(
    ("argv", "strict"),
    [
        (["zensical", "build", "--strict"], True),
        (["zensical", "build", "-s"], True),
        (["zensical", "build", "-cs"], True),
        (["zensical", "build", "-sf", "mkdocs.yml"], True),
        (["zensical", "build", "--clean", "-f", "mkdocs.yml", "--strict"], True),
        (["zensical", "build"], False),
        (["zensical", "build", "-c"], False),
        (["zensical", "build", "-f", "-s"], False),  # -s is the config file's name here
        (["zensical", "build", "-fs.yml"], False),
        (["zensical", "build", "--config-file", "--strict"], False),
        (["zensical", "build", "--", "--strict"], False),
        (["zensical", "serve", "--strict"], False),  # serve is never strict
        (["zensical"], False),
    ],
)
def test_a_strict_zensical_build_is_told_from_its_command_line(
    argv: list[str], strict: bool
) -> None:
    assert builds.zensical_strict(argv) is strict


def test_strict_in_the_configuration_counts_for_build_only() -> None:
    assert builds.zensical_strict(["zensical", "build"], config_strict=True) is True
    assert builds.zensical_strict(["zensical", "serve"], config_strict=True) is False


def test_the_generator_is_told_from_the_environment_object(tmp_path: Path) -> None:
    assert builds.generator(MacroEnv(conf={"root_dir": str(tmp_path)})) == "zensical"
    assert builds.generator(object()) == "mkdocs"


def test_a_warning_stops_a_strict_build_and_prints_otherwise(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = "methodology.test.strict"
    builds.fail_strict_builds([name], strict=False)
    logging.getLogger(name).warning("macro failed in %s", "radar.md")
    assert capsys.readouterr().err == "WARNING -  macro failed in radar.md\n"
    # A later build replaces the handler: one handler, the new mode.
    builds.fail_strict_builds([name], strict=True)
    logger = logging.getLogger(name)
    assert len(logger.handlers) == 1
    with pytest.raises(builds.StrictBuildError, match=r"--strict: macro failed in radar\.md"):
        logger.warning("macro failed in %s", "radar.md")
    logger.info("an info line is not a warning")
    assert capsys.readouterr().err == ""


def test_the_fingerprint_moves_with_an_edit_and_ignores_caches(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "constants.py"
    module.write_text("X = 1\n", encoding="utf-8")
    before = builds.code_fingerprint([tmp_path / "pkg"])
    assert len(before) == 1
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "constants.cpython-311.pyc").write_bytes(b"\0")
    assert builds.code_fingerprint([tmp_path / "pkg"]) == before
    module.write_text("X = 12\n", encoding="utf-8")
    assert builds.code_fingerprint([tmp_path / "pkg"]) != before
    # Same size, another time: still seen.
    module.write_text("X = 13\n", encoding="utf-8")
    stat = module.stat()
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert builds.code_fingerprint([tmp_path / "pkg"]) != before


#: One fresh interpreter for the tests below (each load of the live code there costs
#: seconds): the pages of one build (``bench_page_load.PAGES``, one configuration object),
#: a page of that build one folder down, an edit of the live code and a page of the same
#: configuration after it, then pages each with a configuration of its own.
_LOADS = """
import json, sys
from pathlib import Path
sys.path.insert(0, {benchmarks!r})
from bench_page_load import PAGES, load_pages, new_config
project = Path({project!r})
config = new_config(project)
build = load_pages(project, list(PAGES), config)
nested = load_pages(project, [("radar.md", "sub/radar.html")], config)
constants = project / "scoring" / "constants.py"
constants.write_text(
    # (and a weight of 0.30 to 0.25: the weights still sum to 1, as the invariants ask)
    constants.read_text(encoding="utf-8")
    .replace('Decimal("0.40")', 'Decimal("0.45")', 1)
    .replace('Decimal("0.30")', 'Decimal("0.25")', 1),
    encoding="utf-8",
)
edited = load_pages(project, [("composite.md", "composite.html")], config)
unshared = load_pages(project, list(PAGES[:2]))
print(json.dumps({{"build": build, "nested": nested, "edited": edited, "unshared": unshared}}))
"""


@pytest.fixture(scope="module")
def loads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """What :data:`_LOADS` records of each page, by step (``bench_page_load.load_pages``)."""
    project = copy_project(tmp_path_factory.mktemp("loads") / "project")
    code = _LOADS.format(benchmarks=str(ROOT / "benchmarks"), project=str(project))
    result = run_captured([sys.executable, "-c", code], timeout=600)
    assert result.returncode == 0, result.stderr
    assert (project / "site" / "methodology.json").is_file()  # the first page published it
    data: dict[str, list[dict[str, Any]]] = json.loads(result.stdout.splitlines()[-1])
    return data


@pytest.mark.slow  # loads the live code in a fresh interpreter, as Zensical's shim does
def test_one_site_serves_every_page_of_a_build(loads: dict[str, list[dict[str, Any]]]) -> None:
    build = loads["build"]
    assert len(build) == len(bench_page_load.PAGES)
    # One Site for the whole build (the first page published the files beside the pages:
    # the fixture checks methodology.json).
    assert len({r["site"] for r in build}) == 1
    # Each page's links are relative to that page, and the macros render on every page.
    assert all('href="methodology.json"' in r["link"] for r in build)
    assert all(">0.40<" in r["weight"] for r in build)
    # A new configuration object is a new build: the live code is loaded again.
    unshared = loads["unshared"]
    assert len(unshared) == 2
    assert len({r["site"] for r in unshared}) == len(unshared)


@pytest.mark.slow  # loads the live code in a fresh interpreter, as Zensical's shim does
def test_each_page_links_from_itself_and_an_edit_starts_a_new_site(
    loads: dict[str, list[dict[str, Any]]],
) -> None:
    """Pages of one build share the Site, yet each page's links start from that page; were a
    generator to keep one configuration object across rebuilds, an edited constant would
    still show, since the fingerprint of the live code is part of what a build is."""
    [top] = [r for r in loads["build"] if r["page"] == "composite.md"]
    [nested] = loads["nested"]
    [edited] = loads["edited"]
    assert top["site"] == nested["site"]
    assert 'href="methodology.json"' in top["link"]
    assert 'href="../methodology.json"' in nested["link"]
    assert edited["site"] != top["site"]
    assert ">0.40<" in top["weight"]
    assert ">0.45<" in edited["weight"]


def test_the_zensical_extra_is_pinned_and_in_dev() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert extras["zensical"] == ["zensical==0.0.73"]
    assert "agent-scoring-methodology[zensical]" in extras["dev"]
    assert not any(r.startswith("zensical") for r in extras["docs"] + project["dependencies"])
