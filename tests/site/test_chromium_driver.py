"""The policy of the ``chromium`` fixture when the browser is missing: skipped with a reason
that says what to install, failed instead where ``CI`` is set. Nothing here starts a browser."""

from __future__ import annotations

import chromium_driver
import pytest

ABSENT = "/nonexistent/bin/chromium-for-this-test"


@pytest.fixture
def no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chromium_driver, "CHROMIUM", ABSENT)


def test_a_missing_browser_is_named_with_what_to_install(no_browser: None) -> None:
    reason = chromium_driver.missing()
    assert reason is not None
    assert ABSENT in reason
    assert "apt-get install -y chromium chromium-driver" in reason


def test_without_ci_a_missing_browser_skips(no_browser: None, monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=ABSENT):
        chromium_driver.require()


def test_in_ci_a_missing_browser_fails(no_browser: None, monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=f"cannot run in CI: {ABSENT}"):
        chromium_driver.require()
