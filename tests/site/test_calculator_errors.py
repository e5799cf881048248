"""The calculators on an error: no result of earlier input stays beside it, and a whole
number beyond JavaScript's exact integers is refused naming that limit."""

from __future__ import annotations

from typing import Any

import pytest
from chromium_driver import load, wait_for

pytestmark = pytest.mark.slow

MAX_SAFE_INTEGER = 2**53 - 1

_TYPE = """
const [kind, values] = arguments;
const section = document.querySelector(`section[data-calculator="${kind}"]`);
const form = section.querySelector("form");
for (const [name, value] of Object.entries(values)) {
  form.elements[name].value = value;
  form.elements[name].dispatchEvent(new Event("input", {bubbles: true}));
}
const error = section.querySelector(".calc-error");
return {
  error: error.hidden ? null : error.textContent,
  outs: Object.fromEntries(
    [...section.querySelectorAll("[data-out]")].map((n) => [n.dataset.out, n.textContent])
  ),
};
"""


def _type(chromium: Any, kind: str, **values: str) -> dict[str, Any]:
    return chromium.execute_script(_TYPE, kind, values)  # type: ignore[no-any-return]


def _open(chromium: Any, base_url: str, page: str, kind: str) -> None:
    load(chromium, f"{base_url}{page}.html")
    wait_for(
        chromium, f"return !document.querySelector('section[data-calculator=\"{kind}\"]').hidden"
    )


def test_the_composite_clears_its_results_on_an_error(chromium: Any, base_url: str) -> None:
    _open(chromium, base_url, "composite", "composite")
    good = _type(chromium, "composite", completed_runs="50", successes="40")
    assert good["error"] is None
    assert good["outs"]["score"] not in ("", "—")
    bad = _type(chromium, "composite", completed_runs="50", successes="51")
    assert bad["error"]
    assert set(bad["outs"].values()) == {"—"}, bad
    again = _type(chromium, "composite", successes="40")
    assert again == good  # and back


@pytest.mark.parametrize(
    ("page", "kind", "field", "others"),
    [
        ("composite", "composite", "completed_runs", {"successes": "1"}),
        ("repeatability", "repeatability", "n", {"c": "1", "k": "1"}),
    ],
)
def test_a_number_beyond_the_safe_integers_names_the_limit(
    chromium: Any, base_url: str, page: str, kind: str, field: str, others: dict[str, str]
) -> None:
    _open(chromium, base_url, page, kind)
    at_limit = _type(chromium, kind, **others, **{field: str(MAX_SAFE_INTEGER)})
    assert at_limit["error"] is None or str(MAX_SAFE_INTEGER) not in at_limit["error"]
    beyond = _type(chromium, kind, **others, **{field: str(MAX_SAFE_INTEGER + 2)})
    assert beyond["error"] is not None
    assert f"must be at most {MAX_SAFE_INTEGER}" in beyond["error"]
    assert "whole number ≥" not in beyond["error"]
    assert "whole number >=" not in beyond["error"]
    assert set(beyond["outs"].values()) == {"—"}
    negative = _type(chromium, kind, **others, **{field: "-1"})
    assert "whole number" in negative["error"]  # the other rule keeps its own reason
