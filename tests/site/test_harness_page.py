"""docs/harnesses.md shows each harness's mapping table as its reader follows it: every
row of ``scoring.harnesses``' tables, in order, rendered by the macro (never pasted)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from support import rendered_pages

from scoring.harnesses import READERS, Reader

_TAG = re.compile(r"<[^>]+>")


def _text(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", fragment)).split())


def _plain(markup: str) -> str:
    return " ".join(markup.replace("`", "").split())


def missing_rows(page: str, reader: Reader) -> list[str]:
    """The rows of ``reader``'s mapping its table on ``page`` does not show, in order."""
    key = f'data-mv="harness:{reader.harness.value}/mapping"'
    if key not in page:
        return [f"no table {key}"]
    table = page[page.index(key) :]
    table = table[: table.index("</table>")]
    shown = [  # the cells of each row after the header's
        tuple(_text(cell.partition(">")[2]) for cell in row.split("<td")[1:])
        for row in table.split("<tr>")[2:]
    ]
    expected = [
        (row.run_field, _plain(row.source), _plain(row.rule)) for row in reader.mapping.rows
    ]
    return [
        f"{reader.harness.value}: {' | '.join(row)}" for row in expected if row not in shown
    ] + ([] if len(shown) == len(expected) else [f"{len(shown)} rows, not {len(expected)}"])


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    rendered: Path = rendered_pages(tmp_path_factory)
    return (rendered / "harnesses.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("reader", READERS.values(), ids=lambda r: r.harness.value)
def test_the_mapping_table_is_on_the_page(page: str, reader: Reader) -> None:
    assert missing_rows(page, reader) == []


def test_a_row_left_out_is_reported(page: str) -> None:
    reader = next(iter(READERS.values()))
    key = f'data-mv="harness:{reader.harness.value}/mapping"'
    start = page.index("<tr>", page.index("<tbody>", page.index(key)))
    spoiled = page[:start] + page[page.index("</tr>", start) + len("</tr>") :]
    first = reader.mapping.rows[0].run_field
    problems = missing_rows(spoiled, reader)
    assert problems[0].startswith(f"{reader.harness.value}: {first} | ")
    assert problems[-1].endswith(f"not {len(reader.mapping.rows)}")
