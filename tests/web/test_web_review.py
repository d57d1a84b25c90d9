"""`POST /api/review`: the review of a game the page sends, as `epdle review --json` gives it."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from epdle.cli import main
from epdle.solver import score

GAME = [("crane", "GYYBB"), ("chart", "GBYYB"), ("cigar", "GGGGG")]


def history_body(game: list[tuple[str, str]]) -> dict[str, object]:
    return {"history": [{"word": word, "colours": colours} for word, colours in game]}


def test_the_review_is_the_commands_json(client: TestClient, capsys) -> None:
    response = client.post("/api/review", json=history_body(GAME))
    assert response.status_code == 200
    # The page's game here is the 2023 list's (conftest's GameSpec): so is the command's.
    argv = ["review", "--history", ",".join(f"{w}:{c}" for w, c in GAME), "--json"]
    assert main([*argv, "--prior", "uniform"]) == 0
    assert response.json() == json.loads(capsys.readouterr().out)
    assert [turn["left_before"] for turn in response.json()["turns"]] == [3158, 10, 6]


def test_a_shared_grid_with_its_words_and_lines_of_words_and_colours(client: TestClient) -> None:
    by_history = client.post("/api/review", json=history_body(GAME)).json()
    grid = "Wordle 1,234 3/6\n\n🟩🟨🟨⬛⬛\n🟩⬛🟨🟨⬛\n🟩🟩🟩🟩🟩"
    by_grid = client.post("/api/review", json={"grid": grid, "words": "crane, chart cigar"})
    assert by_grid.status_code == 200 and by_grid.json() == by_history
    lines = client.post(
        "/api/review", json={"history": "crane gyybb\nCHART 🟩⬛🟨🟨⬛\ncigar:ggggg"}
    )
    assert lines.status_code == 200 and lines.json() == by_history


def test_a_game_off_the_answer_list_is_reviewed(client: TestClient) -> None:
    # WENCH: an original answer the 2023 list dropped.
    game = [(word, score(word, "wench")) for word in ("crane", "bench", "wench")]
    response = client.post("/api/review", json=history_body(game))
    assert response.status_code == 200
    review = response.json()
    # Each move by what the game knew then: the 2023 list, then every accepted word.
    assert review["solved"] and review["turns"][0]["left_before"] == 3158
    turns = review["turns"]
    assert review["widened_at"] == 2 and turns[2]["left_before"] == turns[1]["left_after"]


def test_bad_games_get_one_line_errors(client: TestClient) -> None:
    cases = [
        ({}, 400, 'send {"history": [...]} or {"grid": "...", "words": "..."}'),
        ({"history": [], "grid": "x"}, 400, "send"),
        ({"history": []}, 400, "the game has no guesses"),
        ({"history": [{"word": "crane"}]}, 400, "each turn of the history"),
        ({"history": 3}, 400, "are text"),
        ({"history": "crane:gggg"}, 400, "crane"),
        ({"grid": "🟩🟩🟩🟩🟩", "words": "crane,cigar"}, 400, "1 rows of squares but 2 words"),
        ({"history": "crane:ggggg", "turn": 1}, 400, "unknown field(s): turn"),
        ({"history": "qqqqq:bbbbb"}, 422, "not in the accepted word list"),
        ({"history": "crane:ggggg,cigar:ggggg"}, 422, "already solved"),
    ]
    for body, status, message in cases:
        response = client.post("/api/review", json=body)
        assert response.status_code == status, body
        assert message in response.json()["error"] and "\n" not in response.json()["error"]


def test_the_panels_script_and_style_are_served(client: TestClient) -> None:
    page = client.get("/").text
    assert '<script type="module" src="/review.js">' in page and 'href="/review.css"' in page
    for path, kind in (("/review.js", "javascript"), ("/review.css", "css")):
        response = client.get(path)
        assert response.status_code == 200 and kind in response.headers["content-type"]


def test_the_pages_own_game_is_reviewed_in_its_mode_another_in_the_mode_of_its_moves(
    client: TestClient,
) -> None:
    # GAME keeps hard mode's rule: pasted, it is reviewed in hard mode; the page's own
    # game, played in normal mode, in normal mode.
    pasted = client.post("/api/review", json=history_body(GAME)).json()
    assert pasted["mode"] == "hard" and pasted["hard_from_moves"] is True
    for word, colours in GAME:
        played = client.post("/api/guess", json={"word": word, "colours": colours})
        assert played.status_code == 200
    own = client.post("/api/review", json=history_body(GAME)).json()
    assert own["mode"] == "normal" and own["hard_from_moves"] is False
