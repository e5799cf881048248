"""Under ``mkdocs serve``, a rebuild converts again only the pages whose rendered Markdown
changed (``docs/hooks/serve_reload.py``), and the site it leaves is the one a build from
scratch makes of the same files, byte for byte.

The builds are serve's, made in a process of their own (``serve_rebuilds.py``), on a copy
of the project cut to three pages (``serving.cut_to_pages``): the composite page, which
shows the success weight; the versions page, which shows every change since the released
version; and the efficiency page, which shows neither. The other pages are stubs. One page
is edited, then the weight; after each rebuild the test reads which pages were converted
again, and compares the last rebuild's site with a first build of the same files.
"""

from __future__ import annotations

import json
import os
import re
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from processes import run_captured
from serving import copy_project

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.release import with_assignment
from scoring.numeric import number_text

pytestmark = pytest.mark.slow

DRIVER = Path(__file__).with_name("serve_rebuilds.py")
PAGES = ("composite.md", "versions.md", "efficiency.md")
#: Sets the sitemap's dates, which are otherwise the day of the build.
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "NO_MKDOCS_2_WARNING": "1"}
#: What the edit of the efficiency page adds to it.
ADDED = "A paragraph added while serving."
#: The weights after the edit of the constants: five points from cost to success.
MOVED = Decimal("0.05")
SUCCESS, COST = C.COMPOSITE_WEIGHT_SUCCESS + MOVED, C.COMPOSITE_WEIGHT_COST - MOVED
#: The success weight on a page, and the note of an unreleased change under a page's title.
WEIGHT = r'data-mv="constant:composite\.weight\.success"[^>]*>{}<'
NOTE = 'data-mv="drift:page"'


def _builds(project: Path, out: Path, *edits: str) -> list[list[str]]:
    done = run_captured(
        [sys.executable, str(DRIVER), str(out), *edits], cwd=project, env=ENV, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    converted: list[list[str]] = json.loads(done.stdout.splitlines()[-1])
    return converted


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_a_rebuild_converts_what_changed_and_leaves_the_site_a_build_makes(
    tmp_path: Path,
) -> None:
    project = copy_project(tmp_path / "project", pages=PAGES)
    page = project / "docs" / "efficiency.md"
    edited_page = tmp_path / "efficiency.md"
    edited_page.write_text(page.read_text(encoding="utf-8") + f"\n{ADDED}\n", encoding="utf-8")
    constants = project / "scoring" / "constants.py"
    text = with_assignment(
        constants.read_text(encoding="utf-8"), "COMPOSITE_WEIGHT_SUCCESS", f'Decimal("{SUCCESS}")'
    )
    edited_constants = tmp_path / "constants.py"
    edited_constants.write_text(
        with_assignment(text, "COMPOSITE_WEIGHT_COST", f'Decimal("{COST}")'), encoding="utf-8"
    )

    served = tmp_path / "served"
    converted = _builds(
        project,
        served,
        f"docs/efficiency.md={edited_page}",
        f"scoring/constants.py={edited_constants}",
    )

    # The edited page alone, then the pages that show the weight or the drift, not the
    # efficiency page (shown as it was after the first edit) nor the stubs.
    assert converted[0] == ["efficiency.md"]
    assert {"composite.md", "versions.md"} <= set(converted[1])
    assert "efficiency.md" not in converted[1]
    assert ADDED in (served / "1" / "efficiency.html").read_text(encoding="utf-8")
    last = served / "2"
    shown = re.escape(number_text(SUCCESS, as_written=True))
    composite = (last / "composite.html").read_text(encoding="utf-8")
    assert re.search(WEIGHT.format(shown), composite)
    assert NOTE in composite
    assert NOTE in (last / "versions.html").read_text(encoding="utf-8")
    assert NOTE not in (last / "efficiency.html").read_text(encoding="utf-8")

    # Every file of the last rebuild is the file a first build of the same project writes:
    # no page, anchor, link or search entry kept from before that the edits changed.
    fresh = tmp_path / "fresh"
    assert _builds(project, fresh) == []
    rebuilt, built = _files(last), _files(fresh / "0")
    assert sorted(rebuilt) == sorted(built)
    assert [name for name in sorted(built) if rebuilt[name] != built[name]] == []
