"""The JSON API against one game on the simulated board (Starlette's TestClient)."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Callable

import pytest
from PIL import Image
from starlette.testclient import TestClient
from web_support import MALFORMED, settle

from epdle.frames import decode, encode
from epdle.frames.decoder import fast_window
from epdle.render.planes import Planes, planes_to_image
from epdle.session.screens import frames_for
from epdle.solver import Solver, score, trees
from epdle.solver.universe import Universe
from epdle.web.security import TOKEN_COOKIE, Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import Settings, WebSession

JSON = {"content-type": "application/json"}


def guess(client: TestClient, word: str, colours: str, **headers: str):
    return client.post("/api/guess", json={"word": word, "colours": colours}, headers=headers)


def panel(client: TestClient) -> Image.Image:
    response = client.get("/panel.png")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    return Image.open(io.BytesIO(response.content)).convert("RGB")


def expected_panel(session: WebSession, index: int = 0) -> Image.Image:
    frame = frames_for(session.controller.game)[index]
    black, red = decode(encode(frame.black, frame.red))
    return planes_to_image(Planes(black=black, red=red)).convert("RGB")


def test_opening_state(client: TestClient) -> None:
    state = client.get("/api/state").json()
    assert state["history"] == []
    assert state["candidates_left"] == 3158
    # The shipped normal-mode tree's opener comes first.
    opener = trees.load_or_build_tree(Universe.shipped(), hard=False)[""]
    assert state["suggestions"][0]["word"] == opener
    assert len(state["suggestions"]) == 3
    first = state["suggestions"][0]
    assert first["bits"] > 5 and first["expected_left"] > 1 and first["could_win"] is False
    assert state["settings"] == {"strategy": "best", "hard": False, "blind": False, "top": 3}
    assert "entropy" in state["strategies"]
    assert state["language"] == {
        "code": "en",
        "name": "English",
        "alphabet": "abcdefghijklmnopqrstuvwxyz",
        "alphabet_text": "a-z",
        "folds": {},
    }
    device = state["device"]
    assert device["connected"] and device["simulated"] and device["error"] is None
    assert device["panel_frame"] == 1 and device["frames"] == 3


def test_a_guess_moves_the_game_and_the_panel(client: TestClient, session: WebSession) -> None:
    before = client.get("/api/state").json()
    opening_panel = panel(client)
    assert opening_panel.tobytes() == expected_panel(session).tobytes()
    response = guess(client, "SALET", "bb🟨gb")
    assert response.status_code == 200, response.text
    state = response.json()
    assert state["history"] == [{"word": "salet", "colours": "BBYGB"}]
    assert 1 < state["candidates_left"] < 100
    assert state["revision"] > before["revision"]
    assert state["device"]["updating"]  # the advice first, then the push
    settled = settle(client)
    assert settled["device"]["panel_version"] > before["device"]["panel_version"]
    assert settled["device"]["panel_frame"] == 1
    after = panel(client)
    assert after.tobytes() != opening_panel.tobytes()
    assert after.tobytes() == expected_panel(session).tobytes()
    assert client.get("/api/state").json()["history"] == state["history"]
    assert session.controller.presenter.frame_count == 3


@pytest.mark.parametrize(
    ("word", "colours", "status", "message"),
    [
        ("zzzzz", "BBBBB", 422, "not in the accepted word list"),
        ("salet", "BBBBX", 422, "colours"),
        ("sale", "BBBB", 422, "letters"),
        ("sal3t", "BBBBB", 422, "letters only"),
        ("salet", "BBBB", 422, "4 colours"),
        # Each malformed form the page may send as typed: the command line's parser refuses it.
        *[("tarse", colours, 422, message) for colours, message in MALFORMED.values()],
    ],
)
def test_bad_guesses_are_explained_and_change_nothing(
    client: TestClient, word: str, colours: str, status: int, message: str
) -> None:
    before = client.get("/api/state").json()
    response = guess(client, word, colours)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert "\n" not in response.json()["error"]
    assert client.get("/api/state").json()["revision"] == before["revision"]


def test_impossible_feedback_is_refused(client: TestClient) -> None:
    assert guess(client, "salet", "BBBBB").status_code == 200
    response = guess(client, "sonic", "GBBBB")  # S was grey
    assert response.status_code == 422
    assert "no accepted word fits it and the feedback before" in response.json()["error"]
    assert len(client.get("/api/state").json()["history"]) == 1


@pytest.mark.parametrize(
    ("body", "headers", "status", "message"),
    [
        (b"not json", JSON, 400, "not JSON"),
        (b"[1, 2]", JSON, 400, "JSON object"),
        (b'{"word": "salet"}', JSON, 400, "colours"),
        (b'{"word": "salet", "colours": "BBBBB"}', {"content-type": "text/plain"}, 415, "json"),
        (b'{"word": "' + b"a" * 5000 + b'", "colours": "B"}', JSON, 413, "over 4096 bytes"),
    ],
)
def test_malformed_requests_get_json_errors(
    client: TestClient, body: bytes, headers: dict[str, str], status: int, message: str
) -> None:
    response = client.post("/api/guess", content=body, headers=headers)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_a_chunked_body_is_bounded_too(client: TestClient) -> None:
    def chunks():
        for _ in range(10):
            yield b" " * 1000

    response = client.post("/api/guess", content=chunks(), headers=JSON)
    assert response.status_code == 413


def test_unknown_pages_and_methods_are_json_errors(client: TestClient) -> None:
    missing = client.get("/static/../../etc/passwd")
    assert missing.status_code == 404 and missing.json() == {"error": "no such page"}
    # No state change on GET.
    for path in ("/api/undo", "/api/new", "/api/press", "/api/guess"):
        response = client.get(path)
        assert response.status_code == 405 and "error" in response.json()
    assert client.post("/api/state").status_code == 405


def test_undo_and_new(client: TestClient) -> None:
    response = client.post("/api/undo")
    assert response.status_code == 409 and response.json()["error"] == "nothing to undo"
    guess(client, "salet", "BBYGB")
    guess(client, "bevel", "BBBGG")
    undone = client.post("/api/undo").json()
    assert [h["word"] for h in undone["history"]] == ["salet"]
    fresh = client.post("/api/new").json()
    assert fresh["history"] == [] and fresh["candidates_left"] == 3158


def test_press_shows_the_next_suggestion(client: TestClient, session: WebSession) -> None:
    first = panel(client)
    state = client.post("/api/press").json()
    assert state["device"]["panel_frame"] == 2
    assert "frame 2 shown" in state["notes"]
    second = panel(client)
    assert second.tobytes() != first.tobytes()
    assert second.tobytes() == expected_panel(session, 1).tobytes()


def test_the_page_turns_fast_updates_off_and_on(client: TestClient, session: WebSession) -> None:
    """`--full-refresh` from the page: the set is pushed anew without fast windows, and a
    press shows the runner-up by a full refresh; switched back, by a fast update."""
    presenter = session.controller.presenter

    def press_shows_by() -> str:
        assert client.post("/api/press").status_code == 200
        return presenter.simulated_board().last_refresh().kind

    def windows() -> list[bool]:
        frames = [presenter.frame(i) for i in range(presenter.frame_count)]
        return [fast_window(frame) is not None for frame in frames]

    assert settle(client)["device"]["full_refresh"] is False
    assert windows() == [True] * 3 and press_shows_by() == "fast"
    state = client.post("/api/settings", json={"full_refresh": True}).json()
    assert state["device"]["full_refresh"] is True
    assert settle(client)["device"]["panel_frame"] == 1  # the set pushed anew
    assert windows() == [False] * 3 and press_shows_by() == "full"
    client.post("/api/settings", json={"full_refresh": False})
    settle(client)
    assert windows() == [True] * 3 and press_shows_by() == "fast"
    refused = client.post("/api/settings", json={"full_refresh": "yes"})
    assert refused.status_code == 400 and "full_refresh must be true or false" in refused.text


def test_the_pages_full_refresh_goes_through_the_spec(
    client: TestClient, session: WebSession
) -> None:
    """The setting changed on the page is the game's spec's, and the panel gets frames as
    the spec says."""
    presenter = session.controller.presenter
    assert session.setup.spec.full_refresh is False
    for full_refresh in (True, False):
        client.post("/api/settings", json={"full_refresh": full_refresh})
        settle(client)
        assert session.setup.spec.full_refresh is full_refresh
        assert session.setup.presenter("sim://").full_refresh is full_refresh
        frames = [presenter.frame(i) for i in range(presenter.frame_count)]
        assert all((fast_window(frame) is None) is full_refresh for frame in frames)


def test_a_solved_game(client: TestClient) -> None:
    state = guess(client, "slosh", "GGGGG").json()
    assert state["solved"] and state["suggestions"] == []
    refused = guess(client, "crony", "BBBBB")
    assert refused.status_code == 422 and "solved" in refused.json()["error"]


def test_settings(client: TestClient, solvers: Callable[[Settings], Solver]) -> None:
    state = client.post("/api/settings", json={"strategy": "entropy"}).json()
    assert state["settings"]["strategy"] == "entropy"
    entropy = solvers(Settings("entropy", False, False)).advise([], top=3)
    assert [s["word"] for s in state["suggestions"]] == [s.word for s in entropy.suggestions]
    for body, message in [
        ({"strategy": "magic"}, "unknown strategy"),
        ({"hard": "yes"}, "true or false"),
        ({"colour": "red"}, "unknown setting"),
    ]:
        response = client.post("/api/settings", json=body)
        assert response.status_code == 400 and message in response.json()["error"]
    assert client.get("/api/state").json()["settings"]["strategy"] == "entropy"


def test_hard_mode_refuses_a_guess_with_the_reason(client: TestClient) -> None:
    assert client.post("/api/settings", json={"hard": True}).json()["settings"]["hard"]
    guess(client, "salet", "BBBGB")
    response = guess(client, "crony", "BBBBB")
    assert response.status_code == 422
    assert response.json()["error"] == (
        "guess 2 'crony': hard mode: letter 4 must be E (green in SALET)"
    )
    assert guess(client, "embed", "BBBGB").status_code == 200
    # Normal mode takes it.
    client.post("/api/undo")
    client.post("/api/settings", json={"hard": False})
    assert guess(client, "crony", "BBBBB").status_code == 200


def test_hard_mode_cannot_be_switched_on_over_a_guess_that_breaks_it(client: TestClient) -> None:
    guess(client, "salet", "BBBGB")
    guess(client, "crony", "BBBBB")
    response = client.post("/api/settings", json={"hard": True})
    assert response.status_code == 409
    assert response.json()["error"] == (
        "cannot switch: guess 2 'crony': hard mode: letter 4 must be E (green in SALET)"
    )
    assert client.get("/api/state").json()["settings"]["hard"] is False


def test_the_event_stream_sends_the_state_then_each_change(client: TestClient) -> None:
    app = client.app
    received: list[str] = []

    def listen() -> None:
        with client.stream("GET", "/api/events") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            received.extend(response.iter_lines())

    listener = threading.Thread(target=listen)
    listener.start()
    deadline = time.monotonic() + 10
    while app.state.hub.listeners == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert app.state.hub.listeners == 1
    guess(client, "salet", "BBYGB")
    listener.join(timeout=10)
    assert not listener.is_alive()
    events = [line for line in received if line.startswith("event: ")]
    data = [json.loads(line[6:]) for line in received if line.startswith("data: ")]
    assert events == ["event: state", "event: state"]  # max_events=2 ends the stream
    assert data[0]["history"] == []
    assert data[1]["history"] == [{"word": "salet", "colours": "BBYGB"}]
    assert app.state.hub.listeners == 0


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
    ],
)
def test_state_changes_from_a_foreign_page_are_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    guess(client, "salet", "BBYGB")
    for path in ("/api/new", "/api/undo", "/api/press"):
        response = client.post(path, headers=headers)
        assert response.status_code == 403, path
        assert "refused" in response.json()["error"]
    response = guess(client, "bevel", "BBBGG", **headers)
    assert response.status_code == 403
    assert len(client.get("/api/state").json()["history"]) == 1
    assert client.app.state.guard.refused


def test_the_page_itself_may_change_state(client: TestClient) -> None:
    for host in ("127.0.0.1:8000", "localhost:8000"):
        page = {"host": host, "origin": f"http://{host}"}
        assert guess(client, "salet", "BBYGB", **page).status_code == 200
        assert client.post("/api/undo", headers=page).status_code == 200
    # A page of the other name is another origin.
    other = {"host": "127.0.0.1:8000", "origin": "http://localhost:8000"}
    assert client.post("/api/new", headers=other).status_code == 403


def test_a_foreign_host_header_is_refused(client: TestClient) -> None:
    response = client.get("/api/state", headers={"host": "evil.example:8000"})
    assert response.status_code == 421
    assert "Host" in response.json()["error"]
    assert client.get("/", headers={"host": "127.0.0.1:8001"}).status_code == 421
    assert client.get("/api/state", headers={"host": "localhost:8000"}).status_code == 200


def test_pages_and_scripts_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert '<script type="module" src="/app.js">' in page.text
    assert "http" not in page.text.replace('"http-equiv', "")  # nothing fetched from elsewhere
    for path, kind in (
        ("/app.js", "javascript"),
        ("/board.js", "javascript"),
        ("/style.css", "css"),
    ):
        response = client.get(path)
        assert response.status_code == 200 and kind in response.headers["content-type"]
        assert "https://" not in response.text and "http://" not in response.text


def test_a_lost_device_is_reported_and_the_game_goes_on_until_it_is_back(
    web_session: Callable[..., WebSession],
) -> None:
    session = web_session(port="/dev/epdle-none")
    app = create_app(
        session, Guard(allowed_hosts("127.0.0.1", 8000)), ServerOptions(poll_interval=0.05)
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        state = settle(client)
        assert state["device"]["connected"] is False
        assert "cannot open /dev/epdle-none" in state["device"]["error"]
        assert "\n" not in state["device"]["error"]
        played = guess(client, "salet", "BBYGB")
        assert played.status_code == 200  # the advice does not need the device
        assert "will retry when it is back" in played.json()["device"]["error"]
        pressed = client.post("/api/press")
        assert pressed.status_code == 409 and "cannot open" in pressed.json()["error"]
        # The device comes back: the poller reconnects and pushes the current advice.
        presenter = session.controller.presenter
        presenter.reconnect_interval = 0.0
        presenter.port = "sim://"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            state = client.get("/api/state").json()
            if state["device"]["connected"]:
                break
            time.sleep(0.05)
        assert state["device"]["connected"] and state["device"]["error"] is None
        assert state["device"]["panel_frame"] == 1
        assert panel(client).tobytes() == expected_panel(session).tobytes()


def test_another_address_needs_the_token(session: WebSession) -> None:
    guard = Guard.for_address("192.0.2.7", 8000)
    assert guard.token is not None and len(guard.token) >= 20
    assert Guard.for_address("127.0.0.1", 8000).token is None
    app = create_app(session, guard)
    with TestClient(app, base_url="http://192.0.2.7:8000") as client:
        refused = client.get("/api/state")
        assert refused.status_code == 401 and "token" in refused.json()["error"]
        assert client.get("/", params={"token": "wrong"}).status_code == 401
        bearer = client.get("/api/state", headers={"authorization": f"Bearer {guard.token}"})
        assert bearer.status_code == 200
        # The printed address: its token becomes a same-site cookie, and leaves the URL.
        page = client.get("/", params={"token": guard.token}, follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"] == "/"
        cookie = page.headers["set-cookie"]
        # Named for this port, its value derived from the token (not the token): another
        # service on this host, which the browser sends it to, learns no token.
        assert cookie.startswith(f"{TOKEN_COOKIE}_8000={guard.cookie_value};")
        assert guard.token not in cookie
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        for name, value in [
            (TOKEN_COOKIE, guard.token),
            (f"{TOKEN_COOKIE}_8000", guard.token),
            (TOKEN_COOKIE, guard.cookie_value),
            (f"{TOKEN_COOKIE}_8001", guard.cookie_value),
        ]:
            assert client.get("/", headers={"cookie": f"{name}={value}"}).status_code == 401
        other_port = Guard(guard.hosts, guard.token, 8001)
        assert other_port.cookie_value != guard.cookie_value
        client.cookies.set(f"{TOKEN_COOKIE}_8000", guard.cookie_value)
        assert client.get("/").status_code == 200
        assert client.post("/api/press").status_code == 200
        # Another name for this machine: the page's own origin, not a foreign one.
        same = client.post(
            "/api/undo", headers={"host": "192.0.2.7:8000", "origin": "http://192.0.2.7:8000"}
        )
        assert same.status_code == 409  # reached the game: nothing to undo
        # With the token, a foreign page is still refused.
        assert client.post("/api/new", headers={"origin": "http://evil.example"}).status_code == 403


def test_a_browser_without_the_token_gets_a_page_saying_so(session: WebSession) -> None:
    app = create_app(session, Guard.for_address("192.0.2.7", 8000))
    navigate = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    with TestClient(app, base_url="http://192.0.2.7:8000") as client:
        page = client.get("/", headers=navigate)
        assert page.status_code == 401
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        assert "needs the token that <code>epdle web</code> printed" in page.text
        assert "missing or wrong token" in page.text and '"error"' not in page.text
        assert "content-security-policy" in page.headers
        # The page's own calls, and scripts, still get the error as JSON.
        assert "token" in client.get("/api/state").json()["error"]


def test_blind_mode_keeps_the_game(client: TestClient) -> None:
    guess(client, "salet", "BBYGB")
    state = client.post("/api/settings", json={"blind": True}).json()
    assert state["settings"]["blind"] is True
    assert state["history"] == [{"word": "salet", "colours": "BBYGB"}]
    # No answer list: every accepted word that fits is a candidate, many more than before.
    normal = client.post("/api/settings", json={"blind": False}).json()
    assert state["candidates_left"] > normal["candidates_left"]
    assert settle(client)["device"]["panel_frame"] == 1


def test_every_address_takes_any_host_name_but_wants_the_token(session: WebSession) -> None:
    guard = Guard.for_address("0.0.0.0", 8000)
    assert guard.hosts is None and guard.token is not None
    app = create_app(session, guard)
    with TestClient(app, base_url="http://epdle-box.example:8000") as client:
        assert client.get("/api/state").status_code == 401
        client.headers["authorization"] = f"Bearer {guard.token}"
        assert client.get("/api/state").status_code == 200
        ours = {"origin": "http://epdle-box.example:8000"}
        assert client.post("/api/press", headers=ours).status_code == 200
        theirs = {"origin": "http://evil.example"}
        assert client.post("/api/new", headers=theirs).status_code == 403


def test_the_server_ends_the_game_at_six_guesses(client: TestClient) -> None:
    # ?A??T after SALET; five wrong ?AUNT words leave JAUNT alone.
    for word in ("salet", "daunt", "gaunt", "haunt", "taunt", "vaunt"):
        response = guess(client, word, score(word, "jaunt"))
        assert response.status_code == 200, response.text
    state = response.json()
    assert state["lost"] and not state["solved"]
    assert state["candidates"] == ["jaunt"]
    refused = guess(client, "jaunt", "GGGGG")
    assert refused.status_code == 422
    assert refused.json()["error"].startswith("this game is over: all 6 guesses are played")
    assert len(client.get("/api/state").json()["history"]) == 6


def test_the_last_guess_offered_can_win(client: TestClient) -> None:
    # Five ?IGHT words played: EIGHT RIGHT TIGHT WIGHT left, one guess to go.
    for word in ("light", "might", "night", "fight", "sight"):
        response = guess(client, word, "BGGGG")
        assert response.status_code == 200, response.text
    state = response.json()
    assert state["candidates"] == ["eight", "right", "tight", "wight"]
    shown = [suggestion["word"] for suggestion in state["suggestions"]]
    assert shown == ["eight", "right", "tight"]  # top 3
    assert all(suggestion["could_win"] for suggestion in state["suggestions"])


def test_the_default_goes_on_past_the_2023_list(client: TestClient) -> None:
    # WENCH, an original answer the 2023 list dropped: no dead end, no restart.
    assert client.get("/api/state").json()["answer_list"] == "the 2023 list"
    for word in ("crane", "bench", "whisk"):
        response = guess(client, word, score(word, "wench"))
        assert response.status_code == 200, response.text
    state = response.json()
    assert state["widened"] and state["settings"]["blind"] is False
    assert state["candidates"] == ["wench"]
    while state["widened"]:
        state = client.post("/api/undo").json()
    assert state["history"] and state["candidates_left"] > 0  # the 2023 list fits again


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("dron", "has 4 letters, this game uses 5"),
        ("zzzzz", "not in the accepted word list"),
    ],
)
def test_hard_mode_says_what_is_wrong_with_a_word_first(
    client: TestClient, word: str, message: str
) -> None:
    client.post("/api/settings", json={"hard": True})
    assert guess(client, "salet", "BBBGB").status_code == 200
    response = guess(client, word, "B" * len(word))
    assert response.status_code == 422
    assert message in response.json()["error"]
    assert "hard mode" not in response.json()["error"]


def test_every_row_has_its_figure_and_the_last_guesses_their_chance(client: TestClient) -> None:
    """The opener's row shows the tree's expected guesses, as `suggest` does; with six
    candidates left a word that could win says its chance, one that cannot says none."""
    first = client.get("/api/state").json()["suggestions"][0]
    assert first["guesses"] == 3.55 and first["guesses_from"] == "tree"
    assert first["chance"] is None  # 3,158 left: not yet
    guess(client, "tarse", "BBBBB")
    state = guess(client, "colin", "BYBBB").json()
    assert state["candidates_left"] == 6
    rows = {row["word"]: row for row in state["suggestions"]}
    assert rows["gumbo"]["chance"] == "1 in 6"
    assert all(row["chance"] is None for row in rows.values() if not row["could_win"])
    assert None not in [row["guesses"] for row in state["suggestions"]]
