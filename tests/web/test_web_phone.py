"""The page on a 390 px phone, in Chromium: no sideways scroll in any state of a game (empty,
mid-game, won and lost with the review shown, several boards), the tiles to tap right above
the keyboard, and dark mode's used keys told from unused ones by contrast (WCAG's ratio,
from the computed styles). With EPDLE_WEB_SCREENSHOTS set, each state is kept as a PNG."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import serving
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_web_boards import QUORDLE, colours_of, multi_session
from test_web_browser import (  # noqa: F401 - the browser fixtures, shared
    SCREENSHOT_DIR,
    axe_violations,
    browser,
    open_page,
    playwright,
    wait_played,
)

from epdle.session.presenter import DevicePresenter
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver import score
from epdle.web.state import web_session

PHONE = 390
# The most between the row of tiles being set and the keyboard: a tile's height (48 px at
# this width), room for the error line.
MAX_TILES_TO_KEYS = 48


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:  # noqa: F811 - the shared fixture
    context = browser.new_context(
        viewport={"width": PHONE, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    yield context
    context.close()


def fits(page: Page, state: str, width: int = PHONE) -> None:
    """Nothing wider than the screen in `state` (kept as a screenshot if asked)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{state}: the page is {wide} px wide on a {width} px screen"
    if SCREENSHOT_DIR:
        expect(page.locator("#device")).to_contain_text("showing suggestion")  # panel settled
        name = re.sub(r"[^a-z0-9]+", "-", state.lower()).strip("-")
        path = Path(SCREENSHOT_DIR) / f"{width}px-{name}.png"
        page.screenshot(path=str(path), full_page=True)


EDGES = """tiles => {
  const shown = [...document.querySelectorAll(tiles)].filter((e) => e.getClientRects().length);
  const enter = [...document.querySelectorAll("#keyboard button")]
    .find((e) => e.textContent === "Enter");
  return {
    tiles: shown.length,
    bottom: Math.max(...shown.map((e) => e.getBoundingClientRect().bottom)),
    keyboard: document.querySelector("#keyboard").getBoundingClientRect().top,
    enter: enter ? enter.getBoundingClientRect().top : null,
    field: document.querySelector("#guess-form .field").getBoundingClientRect().height,
  };
}"""


def edges(page: Page, tiles: str) -> dict[str, float]:
    """Where the tiles being set end and the keyboard starts, read at one moment once the
    tiles are drawn (a state arriving re-draws them: two reads could straddle it)."""
    page.wait_for_function(
        "tiles => [...document.querySelectorAll(tiles)].some((e) => e.getClientRects().length)",
        arg=tiles,
    )
    return page.evaluate(EDGES, tiles)


def tiles_sit_on_the_keyboard(page: Page, tiles: str, box_between: bool = False) -> None:
    """The tiles being set right above the keyboard (with several boards, the box with the
    word typed between them: the boards' tiles take the whole width)."""
    at = edges(page, tiles)
    gap = at["keyboard"] - at["bottom"]
    if box_between:
        gap -= at["field"]
    assert 0 <= gap <= MAX_TILES_TO_KEYS, f"{gap:.0f} px between the tiles and the keyboard: {at}"


def play(page: Page, turn: int, word: str, answer: str) -> None:
    """A guess typed as a line ("salet bbygb") and Enter."""
    guess = page.get_by_role("textbox", name="Guess")
    guess.fill(f"{word} {score(word, answer).lower()}")
    guess.press("Enter")
    wait_played(page, turn)


def test_a_game_on_a_phone_never_scrolls_sideways(phone: BrowserContext, live_server) -> None:
    page = open_page(phone, live_server.url)
    fits(page, "1 empty")
    tiles_sit_on_the_keyboard(page, "#current button")
    play(page, 1, "salet", "lodge")
    page.get_by_role("textbox", name="Guess").fill("cru")
    fits(page, "2 mid-game")
    tiles_sit_on_the_keyboard(page, "#current button")
    at = edges(page, "#current button")
    assert at["enter"] - at["bottom"] <= 3 * 60, at  # 3 key rows
    play(page, 2, "lodge", "lodge")
    review = page.get_by_role("table", name="Review, turn by turn")
    expect(review.locator("tbody tr")).to_have_count(2)
    fits(page, "3 won, the review shown")
    assert axe_violations(page) == []
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board li")).to_have_count(0)
    for turn, word in enumerate(("salet", "daunt", "gaunt", "haunt", "taunt", "vaunt"), 1):
        play(page, turn, word, "jaunt")
    expect(page.locator("#left")).to_contain_text("Not solved in 6")
    expect(review.locator("tbody tr")).to_have_count(6)
    fits(page, "4 lost, the review shown")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_desktop_keeps_the_review_as_a_table(
    browser: Browser,  # noqa: F811 - the shared fixture
    live_server,
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = open_page(context, live_server.url)
        play(page, 1, "salet", "lodge")
        play(page, 2, "lodge", "lodge")
        review = page.get_by_role("table", name="Review, turn by turn")
        expect(review.locator("tbody tr")).to_have_count(2)
        expect(review.get_by_role("columnheader", name="Best move")).to_be_visible()
        fits(page, "won, the review shown", width=1280)
    finally:
        context.close()


@pytest.fixture
def quordle_server() -> Iterator:
    with serving(multi_session(4)) as server:
        yield server


def test_several_boards_on_a_phone_never_scroll_sideways(
    phone: BrowserContext, quordle_server
) -> None:
    page = open_page(phone, quordle_server.url)
    fits(page, "5 quordle empty")
    tiles_sit_on_the_keyboard(page, "#boards button.tile", box_between=True)
    guess = page.get_by_role("textbox", name="Guess")
    for turn, word in enumerate(("salet", *QUORDLE), start=1):
        guess.fill(f"{word} {colours_of(word, QUORDLE)}")
        guess.press("Enter")
        expect(page.locator("#boards li")).to_have_count(
            sum(min(turn, QUORDLE.index(a) + 2) for a in QUORDLE)
        )
        expect(guess).to_have_value("")
        if turn == 1:
            fits(page, "6 quordle mid-game")
            tiles_sit_on_the_keyboard(page, "#boards button.tile", box_between=True)
    expect(page.locator("#left")).to_contain_text("All 4 boards solved in 5")
    fits(page, "7 quordle won")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def nine_letter_server() -> Iterator:
    """`epdle web --length 9`: the longest words the page plays."""
    setup = GameSetup(GameSpec(length=9, top=3), made={})
    with serving(web_session(setup, DevicePresenter("sim://"))) as server:
        yield server


def test_nine_letter_words_fit_a_phone(phone: BrowserContext, nine_letter_server) -> None:
    page = open_page(phone, nine_letter_server.url)
    fits(page, "8 nine letters empty")
    page.get_by_role("table", name="Suggestions").get_by_role("button").first.click()
    expect(page.locator("#current button.c-B")).to_have_count(9)
    box = page.get_by_role("textbox", name="Guess")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth")  # the whole word in view
    fits(page, "9 nine letters typed")
    tiles_sit_on_the_keyboard(page, "#current button")
    page.get_by_role("button", name="Enter", exact=True).click()
    expect(page.locator("#board li")).to_have_count(1)
    fits(page, "10 nine letters played")


# -- dark mode's keys ------------------------------------------------------------------------


def luminance(rgb: str) -> float:
    """WCAG 2's relative luminance of a computed colour, "rgb(r, g, b)"."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_formula() -> None:
    assert contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21)
    assert contrast("rgb(118, 118, 118)", "rgb(255, 255, 255)") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_used_keys_stand_apart_from_unused_ones(
    browser: Browser,  # noqa: F811 - the shared fixture
    live_server,
    scheme: str,
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": PHONE, "height": 844})
    try:
        page = open_page(context, live_server.url)
        play(page, 1, "salet", "scale")  # S green, A L E yellow, T grey

        def background(key: str) -> str:
            button = page.locator(f'#keyboard [data-key="{key}"]')
            return button.evaluate("e => getComputedStyle(e).backgroundColor")

        if SCREENSHOT_DIR:
            path = Path(SCREENSHOT_DIR) / f"{PHONE}px-keys-{scheme}.png"
            page.screenshot(path=str(path), full_page=True)
        unused = background("q")
        expect(page.locator('#keyboard [data-key="t"]')).to_have_class("c-B")
        # Grey (no hue to go by) in the light; in the dark, yellow and green.
        used = {"grey": "t"} if scheme == "light" else {"yellow": "a", "green": "s"}
        for name, key in used.items():
            ratio = contrast(background(key), unused)
            assert ratio >= 3, f"{scheme}: a {name} key against an unused one: {ratio:.2f}:1"
        if scheme == "dark":
            # A ruled-out key is darker than an unused one, its letter dimmer, and it has
            # lost the outline an unused key has.
            out = page.locator('#keyboard [data-key="t"]')
            assert luminance(background("t")) < luminance(unused)
            letter = "e => getComputedStyle(e).color"
            assert luminance(out.evaluate(letter)) < luminance(
                page.locator('#keyboard [data-key="q"]').evaluate(letter)
            )
            edge = page.locator('#keyboard [data-key="q"]').evaluate(
                "e => getComputedStyle(e).borderTopColor"
            )
            assert contrast(edge, background("t")) >= 3
    finally:
        context.close()
