"""The page says which prior the game weighs the candidates by and, under the history
prior, how old its answers are, with the note that says how to bring them up to date
while they are behind (its state carries them; Chromium shows them; the browser fixtures
are test_web_browser's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import serving
from playwright.sync_api import Browser, BrowserContext, expect
from test_web_browser import browser, open_page, playwright, wait_played  # noqa: F401 (fixtures)

from epdle.session.presenter import DevicePresenter
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.web.state import web_session

BEHIND_DAY = "2026-09-01"  # the shipped history's answers end on 2026-08-21
BEHIND_LINE = "history (answers to 2026-08-21, 10 days behind)"


def _state(monkeypatch, today: str, **settings) -> dict:
    monkeypatch.setenv("EPDLE_TODAY", today)
    setup = GameSetup(GameSpec(top=1, **settings))
    return web_session(setup, DevicePresenter("sim://")).game_state()


def test_the_state_names_the_prior_and_how_old_the_history_is(monkeypatch) -> None:
    behind = _state(monkeypatch, BEHIND_DAY, prior="history")
    assert behind["prior_name"] == "history" and behind["prior_line"] == BEHIND_LINE
    assert "10 days behind" in behind["history_note"]
    assert "epdle history add DATE WORD" in behind["history_note"]
    current = _state(monkeypatch, "2026-08-22", prior="history")
    assert current["prior_line"] == "history (answers to 2026-08-21, up to date)"
    assert current["history_note"] is None
    uniform = _state(monkeypatch, BEHIND_DAY)
    assert uniform["prior_name"] == "uniform" and uniform["history_note"] is None
    assert uniform["prior_line"] == "uniform (3,158 answers, equally likely)"
    boards = _state(monkeypatch, BEHIND_DAY, boards=2)
    assert boards["prior_name"] == "uniform" and boards["history_note"] is None


@pytest.fixture
def tab(browser: Browser) -> Iterator[BrowserContext]:  # noqa: F811 (the fixture)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def test_the_page_shows_the_history_prior_its_age_and_the_note(tab, monkeypatch) -> None:
    monkeypatch.setenv("EPDLE_TODAY", BEHIND_DAY)
    setup = GameSetup(GameSpec(prior="history", top=3))
    with serving(web_session(setup, DevicePresenter("sim://"))) as server:
        page = open_page(tab, server.url)
        expect(page.locator("#prior")).to_have_text(f"Prior: {BEHIND_LINE}")
        note = page.locator("#prior-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("10 days behind today's puzzle")
        expect(page.locator("#mode")).to_contain_text("by the answers played before")
        # A guess later, the page still says it.
        guess = page.get_by_role("textbox", name="Guess")
        guess.press_sequentially("salet bbybb")
        guess.press("Enter")
        wait_played(page, 1)
        expect(page.locator("#prior")).to_have_text(f"Prior: {BEHIND_LINE}")
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_page_of_the_answer_lists_game_shows_no_note(tab, live_server) -> None:
    page = open_page(tab, live_server.url)
    expect(page.locator("#prior")).to_have_text("Prior: uniform (3,158 answers, equally likely)")
    expect(page.locator("#prior-note")).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
