"""The server against hostile or careless clients: refused requests cost no memory,
nested JSON is a 4xx, the game's rules hold whatever the client sends, a stale page's
guess is refused, and a client that sends half a request is cut off."""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient
from web_support import live, read_until_closed

from epdle.solver.scoring import GAME_GUESSES, score
from epdle.web.security import REFUSALS_KEPT, Guard, HeadScan
from epdle.web.server import Limits, ServerOptions, _client_of, create_app
from epdle.web.state import WebSession

JSON = {"content-type": "application/json"}
# Six wrong guesses for the answer "fizzy", each consistent with the ones before.
ANSWER = "fizzy"
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
WRONG = ["salet", "crony", "dumpy", "whiff", "jiffy", "dizzy"]


def guess(client: TestClient, word: str, colours: str, turn: int | None = None):
    body: dict[str, object] = {"word": word, "colours": colours}
    if turn is not None:
        body["turn"] = turn
    return client.post("/api/guess", json=body)


def test_a_flood_of_refused_requests_keeps_a_bounded_record(session: WebSession) -> None:
    app = create_app(session, Guard(None, token="secret"), ServerOptions(poll_interval=60))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        for n in range(3 * REFUSALS_KEPT):
            response = client.get(f"/{n}" + "x" * 16384)
            assert response.status_code == 401
        guard = app.state.guard
        assert guard.refusals == 3 * REFUSALS_KEPT
        assert len(guard.refused) == REFUSALS_KEPT
        assert max(len(line) for line in guard.refused) < 300


@pytest.mark.parametrize(
    "body",
    [b"[" * 2000, b'{"word": ' + b"[" * 2000, b'{"word": "salet", "colours": ' + b'{"a":' * 700],
    ids=["lists", "in-a-field", "objects"],
)
def test_deeply_nested_json_is_a_client_error(client: TestClient, body: bytes) -> None:
    assert len(body) <= 4096
    response = client.post("/api/guess", content=body, headers=JSON)
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["error"] or "not JSON" in response.json()["error"]


def test_no_seventh_guess(client: TestClient) -> None:
    for word in WRONG:
        response = guess(client, word, score(word, ANSWER))
        assert response.status_code == 200, response.text
    assert len(WRONG) == GAME_GUESSES
    for word in (ANSWER, "jazzy"):
        refused = guess(client, word, score(word, ANSWER))
        assert refused.status_code == 422
        assert f"all {GAME_GUESSES} guesses are played" in refused.json()["error"]
    assert len(client.get("/api/state").json()["history"]) == GAME_GUESSES
    # A new game takes guesses again.
    assert client.post("/api/new").status_code == 200
    assert guess(client, "salet", "BBBBB").status_code == 200


def test_feedback_that_contradicts_the_game_is_refused(client: TestClient) -> None:
    assert guess(client, "salet", "BBBBB", turn=0).status_code == 200
    for word, colours in [("sonic", "GBBBB"), ("crony", "GGGGY"), ("crony", "GGGGG")]:
        response = guess(client, word, colours, turn=1)
        if colours == "GGGGG":
            assert response.status_code == 200  # crony may be the answer
        else:
            assert response.status_code == 422, (word, colours)
    assert len(client.get("/api/state").json()["history"]) == 2


def test_two_pages_guessing_at_once_land_once(client: TestClient) -> None:
    turn = len(client.get("/api/state").json()["history"])
    first = guess(client, "salet", "BBBBB", turn=turn)
    second = guess(client, "crony", "BBBBB", turn=turn)  # the other tab saw the same game
    assert first.status_code == 200
    assert second.status_code == 409 and "moved on" in second.json()["error"]
    assert client.get("/api/state").json()["history"] == [{"word": "salet", "colours": "BBBBB"}]
    assert guess(client, "crony", "BBBBB", turn=turn + 1).status_code == 200


@pytest.mark.parametrize("turn", [-1, "1", 1.0, True, None])
def test_a_turn_that_is_no_count_is_refused(client: TestClient, turn: object) -> None:
    response = client.post(
        "/api/guess", json={"word": "salet", "colours": "BBBBB", "turn": turn}, headers=JSON
    )
    if turn is None:  # as if left out
        assert response.status_code == 200
    else:
        assert response.status_code == 400 and "turn" in response.json()["error"]


def test_half_a_request_is_cut_off(web_session: Callable[..., WebSession]) -> None:
    with live(web_session(), Limits(headers=0.5, body=0.5)) as (port, _):
        # Headers that never end.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
            _, closed_after = read_until_closed(conn, 10)
            assert closed_after < 5
        # A body that never ends.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"POST /api/guess HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"wo' % port
            )
            data, closed_after = read_until_closed(conn, 10)
            assert data.startswith(b"HTTP/1.1 408")
            assert b"not complete within 0.5 s" in data
        # A whole request on a fresh connection still works.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port
            )
            data, _ = read_until_closed(conn, 10)
            assert data.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("where", ["query", "bearer", "cookie"])
def test_a_token_beyond_ascii_is_refused_not_an_error(session: WebSession, where: str) -> None:
    guard = Guard(None, token="secret")
    app = create_app(session, guard, ServerOptions(poll_interval=60))
    wrong = "sécret"
    with TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False) as client:
        if where == "query":
            response = client.get("/api/state", params={"token": wrong})
        else:
            cookie = ("cookie", f"{guard.cookie_name}=")
            header = {"bearer": ("authorization", "Bearer "), "cookie": cookie}
            name, prefix = header[where]
            response = client.get("/api/state", headers={name: (prefix + wrong).encode()})
    assert response.status_code == 401
    assert "token" in response.json()["error"]


def test_control_characters_in_a_refused_path_are_escaped_in_the_log(
    session: WebSession, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(session, Guard(None, token="secret"), ServerOptions(poll_interval=60))
    caplog.set_level(logging.WARNING, logger="epdle.web")
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        response = client.get("/x%0d%0a2026-12-05 INFO forged line%1b[31m%c2%85")
    assert response.status_code == 401
    lines = [record.getMessage() for record in caplog.records if record.name == "epdle.web"]
    refused = [line for line in lines if line.startswith("refused")]
    assert len(refused) == 1
    assert "/x\\r\\n2026-12-05 INFO forged line\\x1b[31m\\x85" in refused[0]
    for line in [*lines, *app.state.guard.refused]:
        assert not CONTROL.search(line), line


@pytest.mark.parametrize(
    ("head", "line"),
    [
        (b"GET /?token=secret HTTP/1.1\r\n", 0),
        (b"GET /api/state HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret\r\n", 2),
        (b"GET / HTTP/1.1\r\nCookie: a=b; epdle_token_8000=%s\r\n", 1),
    ],
    ids=["request-line", "bearer", "cookie"],
)
def test_the_token_is_found_at_the_line_that_carries_it(head: bytes, line: int) -> None:
    """A request's head fed a byte at a time: the token is known as soon as the line that
    carries it is complete, before the rest of the head (or its end) has come."""
    guard = Guard(None, token="secret", port=8000)
    head = head.replace(b"%s", guard.cookie_value.encode())
    scan = HeadScan(guard, 16384)
    found_at = [n for n in range(len(head)) if scan.feed(head[n : n + 1])]
    assert found_at == [len(head) - 1]
    assert head.count(b"\n") == line + 1
    assert not scan.feed(b"X-More: 1\r\n\r\n")


@pytest.mark.parametrize(
    "head",
    [
        b"GET /?token=wrong HTTP/1.1\r\nHost: x\r\n\r\nGET /?token=secret HTTP/1.1\r\n",
        b"GET / HTTP/1.1\r\nCookie: epdle_token_8000=secret\r\nAuthorization: Basic secret\r\n",
        b"GET / HTTP/1.1\r\nX-Token: secret\r\n"
        + b"x" * 20000
        + b"Authorization: Bearer secret\r\n",
    ],
    ids=["after-the-head", "token-as-cookie", "beyond-the-bound"],
)
def test_no_token_where_the_page_does_not_send_it(head: bytes) -> None:
    scan = HeadScan(Guard(None, token="secret", port=8000), 16384)
    assert not scan.feed(head)


@pytest.mark.parametrize(
    ("peer", "client"),
    [
        (("192.168.1.20", 50000), "192.168.1.20"),
        (("::ffff:192.168.1.20", 50000, 0, 0), "192.168.1.20"),
        (("2001:db8:1:2:aaaa::1", 50000, 0, 0), "2001:db8:1:2::/64"),
        (("2001:db8:1:2:bbbb::7", 50000, 0, 0), "2001:db8:1:2::/64"),
        (None, "?"),
    ],
)
def test_a_client_is_its_address_or_its_ipv6_network(peer: object, client: str) -> None:
    """One host may take any address of its IPv6 /64: the limits per client count it once."""
    assert _client_of(peer) == client
