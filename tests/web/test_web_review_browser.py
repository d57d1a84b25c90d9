"""The Review panel in Chromium: the page's game reviewed when it ends, a pasted game on
demand (the browser fixtures are test_web_browser's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_web_browser import browser, open_page, playwright, wait_played  # noqa: F401 (fixtures)

from epdle.session.review import Reviewer

GAME = [("crane", "GYYBB"), ("chart", "GBYYB"), ("cigar", "GGGGG")]


@pytest.fixture
def tab(browser: Browser) -> Iterator[BrowserContext]:  # noqa: F811 (the fixture)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def review_rows(page: Page) -> list[list[str]]:
    rows = page.get_by_role("table", name="Review, turn by turn").locator("tbody tr")
    return [[(c.text_content() or "") for c in row.locator("th, td").all()] for row in rows.all()]


def candidates_cell(candidates: list[str], left: int) -> str:
    """The page's cell of a turn's candidates: the listed ones, then how many more."""
    words = " ".join(word.upper() for word in candidates)
    return f"{words} (+{left - len(candidates)})" if left > len(candidates) else words


def test_a_finished_game_is_reviewed_on_the_page(tab: BrowserContext, live_server) -> None:
    page = open_page(tab, live_server.url)
    expect(page.locator("#review-status")).to_contain_text("When a game ends")
    expect(page.get_by_role("table", name="Review, turn by turn")).to_be_hidden()
    guess = page.get_by_role("textbox", name="Guess")
    for turn, (word, colours) in enumerate(GAME, start=1):
        guess.press_sequentially(f"{word} {colours.lower()}")
        guess.press("Enter")
        wait_played(page, turn)
    table = page.get_by_role("table", name="Review, turn by turn")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(3)
    review = Reviewer(live_server.session.controller.game.solver).review(GAME)
    assert review_rows(page) == [
        [
            str(number),
            t.guess.upper(),
            f"{t.left_before} → {t.left_after}",
            t.best.upper(),
            f"{t.expected_best:.2f}",
            f"{t.expected_played:.2f}",
            f"{t.expected_after:.2f}",
            str(t.skill),
            str(t.luck),
            candidates_cell(t.candidates, t.left_before),
        ]
        for number, t in enumerate(review.turns, start=1)
    ]
    # Each step lists its candidates, likeliest first, as `epdle review` does.
    assert "cigar" in review.turns[-1].candidates
    expect(table.get_by_role("columnheader", name="Candidates before")).to_be_visible()
    first = table.get_by_role("cell", name="C green, R yellow, A yellow, N grey, E grey")
    expect(first).to_be_visible()
    expect(page.locator("#review-total")).to_have_text(
        f"Skill {review.skill}/99 ({review.skill_after_opener} without the opener), "
        f"luck {review.luck}/99; solved in 3. Reviewed in normal mode; prior: {review.prior}."
    )
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board li")).to_have_count(0)
    expect(table).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_pasted_grid_with_its_words_is_reviewed(tab: BrowserContext, live_server) -> None:
    page = open_page(tab, live_server.url)
    page.get_by_text("Review another game").click()
    box = page.get_by_role("textbox", name="The shared grid")
    box.fill("Wordle 1,234 3/6\n\n🟩🟨🟨⬛⬛\n🟩⬛🟨🟨⬛\n🟩🟩🟩🟩🟩")
    words = page.get_by_role("textbox", name="With a grid: the words played")
    words.press_sequentially("crane chart cigr")  # typed here, not into the guess row
    expect(page.get_by_role("textbox", name="Guess")).to_have_value("")
    page.get_by_role("button", name="Review", exact=True).click()
    expect(page.locator("#review-error")).to_contain_text("CIGR has 4 letters, its row 5")
    words.fill("crane chart cigar")
    page.get_by_role("button", name="Review", exact=True).click()
    expect(page.locator("#review-total")).to_contain_text("solved in 3.")
    assert [row[1] for row in review_rows(page)] == ["CRANE", "CHART", "CIGAR"]
    expect(page.locator("#review-error")).to_have_text("")
    assert live_server.session.controller.game.history == []  # the game on the page untouched
    # The browser logs the refused request; nothing else went wrong.
    errors = page.errors  # type: ignore[attr-defined]
    assert [e for e in errors if "status of 400 (Bad Request)" not in e] == []
