"""The page's Enter and typing, wherever the focus is (Chromium, at 320 and 390 px and on a
desktop, light and dark): letters typed go into the row, Enter plays the row (or says why
it cannot) and never clicks again the button clicked last; the page fits a 320 px screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_web_browser import (  # noqa: F401 - the browser fixtures, shared
    browser,
    open_page,
    playwright,
    wait_played,
)

SIZES = {"320px": (320, 640), "390px": (390, 844), "desktop": (1280, 900)}


@pytest.fixture(params=[(size, scheme) for size in SIZES for scheme in ("light", "dark")])
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[BrowserContext]:  # noqa: F811
    size, scheme = request.param
    width, height = SIZES[size]
    phone = size != "desktop"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=scheme,
        is_mobile=phone,
        has_touch=phone,
    )
    yield context
    context.close()


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.tagName")


def type_and_enter(page: Page, word: str) -> None:
    """Typed on the hardware keyboard, wherever the focus is; then Enter."""
    page.keyboard.type(word)
    expect(page.get_by_role("textbox", name="Guess")).to_have_value(word)
    page.keyboard.press("Enter")


def test_enter_plays_the_row_wherever_the_focus_is(screen: BrowserContext, live_server) -> None:
    page = open_page(screen, live_server.url)
    game = live_server.session.controller.game
    width = page.viewport_size["width"]  # type: ignore[index]
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # After clicking New game: a short row is refused with the reason, not a new game;
    # the whole row is played (a new game would have emptied it).
    page.get_by_role("button", name="New game").click()
    assert focused(page) == "new"
    type_and_enter(page, "sal")
    expect(page.get_by_role("alert")).to_have_text("type a 5-letter word first")
    page.keyboard.type("et")
    page.keyboard.press("Enter")
    wait_played(page, 1)
    assert game.history == [("salet", "BBBBB")]

    # After Press button: Enter plays, it does not press again.
    expect(page.locator("#device")).to_contain_text("showing suggestion 1 of")
    page.get_by_role("button", name="Press button").click()
    expect(page.locator("#device")).to_contain_text("showing suggestion 2 of")
    assert focused(page) == "press"
    type_and_enter(page, "crony")
    wait_played(page, 2)
    assert game.history[-1] == ("crony", "BBBBB")
    expect(page.locator("#device")).to_contain_text("showing suggestion 1 of")

    # With the focus on the page itself (a click on the heading), and on a checkbox.
    page.get_by_role("heading", name="epdle").click()
    assert focused(page) == "BODY"
    type_and_enter(page, "whiff")
    wait_played(page, 3)
    page.get_by_role("checkbox", name="Colour-blind palette").click()
    assert focused(page) == "palette"
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_have_text("type a 5-letter word first")
    type_and_enter(page, "pygmy")
    wait_played(page, 4)
    assert [word for word, _ in game.history] == ["salet", "crony", "whiff", "pygmy"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == []  # type: ignore[attr-defined]
