"""The page with several boards (`epdle web --boards N`): the API (the N + 5 end enforced
by the server) and the page in Chromium, the boards side by side at desktop and phone
width with their own tiles to click."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import serving
from playwright.sync_api import BrowserContext, Page, expect
from starlette.testclient import TestClient
from test_web_browser import (  # noqa: F401 - the browser fixtures, shared
    CHROMIUM,
    NAMES,
    SCREENSHOT_DIR,
    axe_violations,
    browser,
    context,
    open_page,
    panel_version,
    playwright,
    wait_for_new_panel,
)
from web_support import MALFORMED_CASES, ranked_figures, settle

from epdle.cli import main
from epdle.session.presenter import DevicePresenter
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver import score
from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import WebSession, web_session

BASE = "http://127.0.0.1:8000"
QUORDLE = ["cigar", "rebut", "sissy", "humph"]
# Two boards, JAUNT and CIGAR: the ?AUNT words never find JAUNT, CIGAR comes last.
DORDLE = ["jaunt", "cigar"]
LOSING = ["salet", "daunt", "gaunt", "haunt", "taunt", "vaunt", "cigar"]
# Solvers made so far, by boards: shared by every test's setup (each made once).
_MADE: dict[int, dict] = {}


def multi_session(boards: int) -> WebSession:
    """`epdle web --boards N --top 3`'s session on the simulated board, not started."""
    setup = GameSetup(GameSpec(boards=boards, top=3), made=_MADE.setdefault(boards, {}))
    session = web_session(setup, DevicePresenter("sim://"))
    assert isinstance(session, WebSession)
    return session


def colours_of(word: str, answers: list[str]) -> str:
    return "/".join(score(word, answer) for answer in answers)


@pytest.fixture
def dordle_client() -> Iterator[TestClient]:
    app = create_app(
        multi_session(2),
        Guard(allowed_hosts("127.0.0.1", 8000)),
        ServerOptions(poll_interval=0.05, max_events=2),
    )
    with TestClient(app, base_url=BASE) as client:
        settle(client)
        yield client


def test_the_state_has_every_board_and_the_guess_limit(dordle_client: TestClient) -> None:
    state = settle(dordle_client)
    assert state["boards"] == 2 and state["max_guesses"] == 7
    assert [board["candidates_left"] for board in state["board_states"]] == [3158, 3158]
    assert len(state["suggestions"]) == 3
    assert state["device"]["frames"] == 3  # the panel has the several-board frames


def test_the_server_ends_the_game_at_n_plus_5(dordle_client: TestClient) -> None:
    for word in LOSING:  # CIGAR solves board 2 with the last guess; JAUNT stays open
        response = dordle_client.post(
            "/api/guess", json={"word": word, "colours": colours_of(word, DORDLE)}
        )
        assert response.status_code == 200, response.json()
    state = settle(dordle_client)
    assert state["lost"] and not state["solved"] and len(state["history"]) == 7
    assert state["board_states"][0]["candidates"] == ["jaunt"]
    assert state["history"][-1]["colours"] == [score("cigar", "jaunt"), "GGGGG"]
    past = dordle_client.post("/api/guess", json={"word": "jaunt", "colours": "ggggg/-"})
    assert past.status_code == 422
    assert past.json()["error"].startswith("this game is over: all 7 guesses are played")
    assert len(settle(dordle_client)["history"]) == 7


def test_bad_colours_and_settings_are_refused(dordle_client: TestClient) -> None:
    wrong = dordle_client.post("/api/guess", json={"word": "salet", "colours": "bbbbb"})
    assert wrong.status_code == 422
    assert "1 colour group(s) for 2 boards" in wrong.json()["error"]
    strategy = dordle_client.post("/api/settings", json={"strategy": "best"})
    assert strategy.status_code == 400
    hard = dordle_client.post("/api/settings", json={"hard": True})
    assert hard.status_code == 200 and settle(dordle_client)["settings"]["hard"] is True


@pytest.mark.parametrize(("colours", "message"), MALFORMED_CASES)
def test_one_malformed_group_is_refused_as_the_command_line_refuses_it(
    dordle_client: TestClient, colours: str, message: str
) -> None:
    # `epdle play --boards 2` reads 'tarse gybb' as one board's line and says what is wrong
    # with it; the page's server says the same, and records nothing.
    before = settle(dordle_client)
    response = dordle_client.post("/api/guess", json={"word": "tarse", "colours": colours})
    assert response.status_code == 422
    assert message in response.json()["error"]
    after = settle(dordle_client)
    assert after["history"] == [] and after["revision"] == before["revision"]


def test_a_malformed_group_among_several_names_its_board(dordle_client: TestClient) -> None:
    response = dordle_client.post("/api/guess", json={"word": "tarse", "colours": "gybbb/bbxbb"})
    assert response.status_code == 422
    assert response.json()["error"].startswith("board 2: feedback 'bbxbb': 'x' at position 3")
    assert settle(dordle_client)["history"] == []


def test_a_game_of_several_boards_is_reviewed_as_the_command_reviews_it(
    dordle_client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Dordle JAUNT/CIGAR as the page's state gives it (None: a board solved before),
    # as lines, and as `epdle review --boards 2` takes it: one review.
    game: list[tuple[str, list[str | None]]] = [
        ("crane", [score("crane", "jaunt"), score("crane", "cigar")]),
        ("cigar", [score("cigar", "jaunt"), "GGGGG"]),
        ("jaunt", ["GGGGG", None]),
    ]
    text = ",".join(f"{w}:" + "/".join(c or "-" for c in marks) for w, marks in game)
    assert main(["review", "--boards", "2", "--history", text, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    as_state = [{"word": w, "colours": marks} for w, marks in game]
    for body in ({"history": as_state}, {"history": text.replace(",", "\n").replace(":", " ")}):
        review = dordle_client.post("/api/review", json=body)
        assert review.status_code == 200, review.json()
        assert review.json() == expected
    assert expected["boards"] == 2 and [t["guess"] for t in expected["turns"]] == [
        "crane", "cigar", "jaunt"
    ]  # fmt: skip
    # One board's grid, or a board's colours missing: a one-line error.
    grid = dordle_client.post("/api/review", json={"grid": "🟩🟩🟩🟩🟩", "words": "cigar"})
    assert grid.status_code == 422 and grid.json()["error"].startswith("a shared grid is one")
    short = dordle_client.post("/api/review", json={"history": "crane:bbbbb"})
    assert short.status_code == 400 and "1 feedbacks, expected 2" in short.json()["error"]


# -- the page in Chromium ------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"{CHROMIUM} is not installed (apt-get install chromium): no browser for the page",
)


@pytest.fixture
def quordle_server() -> Iterator:
    with serving(multi_session(4)) as server:
        yield server


def board_boxes(page: Page) -> list[dict[str, float]]:
    """Where the boards are, read at one moment (a new state redraws them)."""
    return page.eval_on_selector_all(
        "#boards .one-board",
        "boards => boards.map((board) => {"
        " const box = board.getBoundingClientRect();"
        " return {x: box.x, y: box.y, width: box.width}; })",
    )


def click_colours(page: Page, board: int, word: str, colours: str) -> None:
    """Click board ``board``'s tiles (from 1) until they show ``colours``."""
    clicks = {"B": 0, "Y": 1, "G": 2}
    for position, (letter, colour) in enumerate(zip(word.upper(), colours, strict=True)):
        name = f"Board {board}: {letter}, letter {position + 1}, "
        tile = page.get_by_role("button", name=name + "grey")
        for _ in range(clicks[colour]):
            tile.click()
            tile = page.get_by_role("button", name=name, exact=False)
        expect(page.get_by_role("button", name=name + NAMES[colour])).to_have_count(1)


@needs_chromium
def test_a_quordle_game_by_clicking_each_boards_tiles(
    context: BrowserContext,  # noqa: F811 - the shared fixture
    quordle_server,
) -> None:
    page = open_page(context, quordle_server.url)
    boards = page.locator("#boards .one-board")
    expect(boards).to_have_count(4)
    # Side by side: the four boards' tops on one line.
    tops = {round(box["y"]) for box in board_boxes(page)}
    assert len(tops) == 1
    solved: set[int] = set()
    rows = 0  # each guess adds a row to every board still open
    for _ in range(9):
        table = page.get_by_role("table", name="Suggestions")
        figures = ranked_figures(page, "Boards' guesses")  # what the boards rank by
        assert figures == sorted(figures), figures
        word = (table.get_by_role("button").first.text_content() or "").lower()
        table.get_by_role("button").first.click()
        for board, answer in enumerate(QUORDLE):
            if board not in solved:
                click_colours(page, board + 1, word, score(word, answer))
        before = panel_version(page)
        page.keyboard.press("Enter")
        rows += 4 - len(solved)
        solved |= {board for board, answer in enumerate(QUORDLE) if word == answer}
        expect(page.locator("#boards li")).to_have_count(rows)
        expect(page.locator("#guess")).to_have_value("")  # the reply handled, not only its event
        wait_for_new_panel(page, before)
        if len(solved) == 4:
            break
    expect(page.locator("#left")).to_contain_text("All 4 boards solved in")
    assert len(solved) == 4
    expect(page.locator("#boards .one-board.solved")).to_have_count(4)
    # The game's review follows: a row per guess, each open board's tiles in it.
    played = max(board.locator("li").count() for board in boards.all())  # the last board's
    expect(page.locator("#review-table tbody tr")).to_have_count(played)
    if SCREENSHOT_DIR:
        page.screenshot(path=str(Path(SCREENSHOT_DIR) / "quordle.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def dordle_server() -> Iterator:
    with serving(multi_session(2)) as server:
        yield server


@needs_chromium
def test_a_finished_dordle_is_reviewed_on_the_page(
    context: BrowserContext,  # noqa: F811 - the shared fixture
    dordle_server,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = open_page(context, dordle_server.url)
    expect(page.locator("#review-status")).to_contain_text("When a game ends")
    table = page.get_by_role("table", name="Review, turn by turn")
    expect(table).to_be_hidden()
    # DORDLE: JAUNT, CIGAR; CIGAR solves board 2, JAUNT board 1 (board 2 solved: "-").
    game = [(w, colours_of(w, DORDLE)) for w in ("crane", "cigar")]
    game.append(("jaunt", score("jaunt", "jaunt") + "/-"))
    guess = page.get_by_role("textbox", name="Guess")
    rows = 0
    for word, colours in game:
        guess.fill(f"{word} {colours.replace('/-', '')}")  # the open boards' colours alone
        guess.press("Enter")
        rows += colours.count("/") + 1 - colours.count("-")  # a row on every open board
        expect(page.locator("#boards li")).to_have_count(rows)
        expect(guess).to_have_value("")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(3)
    history = ",".join(f"{word}:{colours}" for word, colours in game)
    # The page's own game in its mode (normal), however its moves read.
    assert main(["review", "--boards", "2", "--history", history, "--normal", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    shown = [
        [cell.text_content() or "" for cell in row.locator("th, td").all()]
        for row in table.locator("tbody tr").all()
    ]
    for number, (row, turn) in enumerate(zip(shown, review["turns"], strict=True), start=1):
        boards = turn["boards"]
        assert row[0] == str(number) and row[1] == turn["guess"].upper() * len(boards)
        for board in boards:
            assert f"{board['board']}: {board['left_before']} → {board['left_after']}" in row[2]
        assert row[3:] == [
            turn["best"].upper(),
            f"{turn['expected_best']:.2f}",
            f"{turn['expected_played']:.2f}",
            "–",
            str(turn["skill"]),
            str(turn["luck"]),
            "–",  # the candidates column: several boards list theirs per board, beside
        ]
    said = ", ".join(
        f"{letter.upper()} {NAMES[colour]}"
        for letter, colour in zip("crane", score("crane", "cigar"), strict=True)
    )
    expect(table.get_by_label(f"Board 2: {said}")).to_be_visible()
    expect(page.locator("#review-total")).to_contain_text(
        f"Skill {review['skill']}/99 ({review['skill_after_opener']} without the opener), "
        f"luck {review['luck']}/99; solved in 3."
    )
    assert page.errors == []  # type: ignore[attr-defined]


@needs_chromium
@pytest.mark.parametrize(
    ("colours", "message"),
    [*MALFORMED_CASES, pytest.param("gybbb/bbxbb/bbbbb/bbbbb", "board 2: feedback", id="board-2")],
)
def test_colours_typed_wrong_are_refused_on_a_page_of_several_boards(
    context: BrowserContext,  # noqa: F811 - the shared fixture
    quordle_server,
    colours: str,
    message: str,
) -> None:
    page = open_page(context, quordle_server.url)
    guess = page.get_by_role("textbox", name="Guess")
    guess.fill(f"tarse {colours}")
    guess.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text(message)
    assert quordle_server.session.controller.game.history == []
    expect(page.locator("#boards li")).to_have_count(0)
    expect(guess).to_have_value(f"tarse {colours}")  # kept, to fix


def test_phone_width_keeps_the_boards_side_by_side_two_a_row(
    browser,  # noqa: F811 - the shared fixture
    quordle_server,
) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        page = open_page(phone, quordle_server.url)
        page.locator("#guess").fill("salet " + colours_of("salet", QUORDLE))
        for board, answer in enumerate(QUORDLE, start=1):  # the typed line set every board
            colour = NAMES[score("salet", answer)[0]]
            expect(
                page.get_by_role("button", name=f"Board {board}: S, letter 1, {colour}")
            ).to_have_count(1)
        page.keyboard.press("Enter")
        expect(page.locator("#boards li")).to_have_count(4)
        expect(page.locator("#guess")).to_have_value("")  # the reply handled, not only its event
        boxes = board_boxes(page)
        rows = [round(box["y"]) for box in boxes]
        assert rows[0] == rows[1] < rows[2] == rows[3]  # two a row at phone width, 2 x 2
        assert max(box["x"] + box["width"] for box in boxes) <= 390
        # Every board's clickable tiles, read at one moment (a new state redraws them).
        widths = page.eval_on_selector_all(
            "#boards .one-board button.tile",
            "tiles => tiles.map((tile) => tile.getBoundingClientRect().width)",
        )
        assert len(widths) == 4 * 5 and min(widths) >= 30  # a row of 5 on each board; a finger
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390  # nothing runs off the side
        # The boards' tiles are the ones to tap: the keyboard comes right under the boards,
        # the suggestions after it.
        suggestions = page.get_by_role("table", name="Suggestions").bounding_box()
        keyboard = page.locator("#keyboard").bounding_box()
        boards = page.locator("#boards").bounding_box()
        assert boards["y"] + boards["height"] < keyboard["y"] < suggestions["y"]
        page.get_by_role("button", name="Board 2: empty, letter 1, grey").click()
        assert axe_violations(page) == []
        if SCREENSHOT_DIR:
            page.screenshot(path=str(Path(SCREENSHOT_DIR) / "quordle-phone.png"), full_page=True)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        phone.close()


# -- `epdle web --boards N` as a user runs it ------------------------------------------------


def test_web_boards_serves_a_quordle_and_stops_on_a_signal() -> None:
    from test_web_cli import epdle_web, fetch

    with epdle_web("--listen", "127.0.0.1:0", "--boards", "4", "--top", "2") as (process, url):
        status, state = fetch(url + "api/state")
        assert status == 200
        assert state["boards"] == 4 and state["max_guesses"] == 9
        assert len(state["suggestions"]) == 2
        line = colours_of("salet", QUORDLE)
        status, moved = fetch(
            url + "api/guess", f'{{"word": "salet", "colours": "{line}"}}'.encode()
        )
        assert status == 200 and moved["history"][0]["colours"] == line.upper().split("/")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def test_web_boards_with_a_strategy_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from epdle.cli import main

    assert main(["web", "--boards", "4", "--strategy", "freq", "--no-browser"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--strategy applies to one board" in error
