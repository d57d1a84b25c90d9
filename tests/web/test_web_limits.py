"""What one connection may take: every request arrives within its deadlines or is cut off
(with a 408 where it was not answered), a busy keep-alive client is served for as long as
it keeps asking, a client that stops reading is dropped, and a flood of connections costs
neither memory nor a log line per connection."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable

import pytest
from web_support import live, read_until_closed

from epdle.web.server import Limits, Server
from epdle.web.state import WebSession

SHORT = Limits(headers=0.5, body=0.5, idle=1, send=0.5)


def wait_until(condition: Callable[[], bool], limit: float, what: str) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"{what} within {limit} s"
        time.sleep(0.02)


def host(port: int) -> bytes:
    return b"Host: 127.0.0.1:%d\r\n" % port


def test_headers_not_all_in_get_a_408(web_session: Callable[..., WebSession]) -> None:
    with (
        live(web_session(), SHORT) as (port, _),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.sendall(b"GET /api/state HTTP/1.1\r\n" + host(port) + b"X-Slow: ")
        data, closed_after = read_until_closed(conn, 10)
        assert closed_after < 5
        assert data.startswith(b"HTTP/1.1 408 ")
        assert b"request headers not complete within 0.5 s" in data


def test_a_connection_that_sends_nothing_is_closed_when_idle(
    web_session: Callable[..., WebSession],
) -> None:
    with (
        live(web_session(), SHORT) as (port, _),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        data, closed_after = read_until_closed(conn, 10)
        assert data == b"" and closed_after < 5


@pytest.mark.parametrize("path", ["/api/guess", "/api/new", "/api/state", "/no-such-page"])
def test_one_body_byte_then_nothing_is_cut_off(
    web_session: Callable[..., WebSession], path: str
) -> None:
    """Whether the route reads the body (/api/guess), answers without it (/api/new), is no
    route for a POST, or none at all: the connection ends within the request's deadline."""
    with (
        live(web_session(), SHORT) as (port, _),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.sendall(
            b"POST %s HTTP/1.1\r\n" % path.encode()
            + host(port)
            + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        data, closed_after = read_until_closed(conn, 10)
        assert closed_after < 5
        assert data.startswith(b"HTTP/1.1 "), data


def test_a_body_sent_a_byte_at_a_time_is_cut_off(web_session: Callable[..., WebSession]) -> None:
    """Each byte comes before the idle time is out; the request as a whole is not in
    within its deadline."""
    with (
        live(web_session(), SHORT) as (port, _),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.sendall(b"POST /api/new HTTP/1.1\r\n" + host(port) + b"Content-Length: 1000\r\n\r\n")
        started = time.monotonic()
        conn.settimeout(0.1)
        closed = False
        while not closed and time.monotonic() - started < 10:
            try:
                conn.sendall(b" ")
                closed = conn.recv(4096) == b""
            except TimeoutError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                closed = True
        assert closed and time.monotonic() - started < 5


def test_a_busy_keep_alive_client_is_not_dropped(web_session: Callable[..., WebSession]) -> None:
    """A request every 50 ms for longer than two header deadlines and many idle ones, all
    on one connection, with the limits `epdle web` serves with."""
    limits = Limits()
    span = 2.6 * limits.headers
    assert span > 25 and span > 5 * limits.idle
    with (
        live(web_session(), limits) as (port, _),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.settimeout(10)
        request = b"GET /api/state HTTP/1.1\r\n" + host(port) + b"\r\n"
        started = time.monotonic()
        answered = 0
        reader = conn.makefile("rb")
        while time.monotonic() - started < span:
            conn.sendall(request)
            status = reader.readline()
            assert status.startswith(b"HTTP/1.1 200"), (answered, status)
            length = 0
            while (line := reader.readline()) != b"\r\n":
                assert line, "the server closed the connection"
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            assert len(reader.read(length)) == length
            answered += 1
            time.sleep(0.05)  # the client's pace, not a wait for the server
        assert answered > span / 0.5


def test_a_client_that_stops_reading_is_dropped(web_session: Callable[..., WebSession]) -> None:
    """Requests pipelined and their responses never read: once the server cannot send
    for `send` seconds, it lets the connection go (long before it would be idle)."""
    limits = Limits(headers=0.5, body=0.5, idle=60, send=0.5)
    with live(web_session(), limits) as (port, server):
        conn = socket.socket()
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.connect(("127.0.0.1", port))
        with conn:
            conn.settimeout(0.5)
            request = b"GET /panel.png HTTP/1.1\r\n" + host(port) + b"\r\n"
            with contextlib.suppress(TimeoutError, ConnectionResetError, BrokenPipeError):
                conn.sendall(request * 20000)  # until the server stops reading
            wait_until(lambda: _open_connections(server) == 0, 10, "the server let it go")


def _open_connections(server: Server) -> int:
    return len(server.server_state.connections)


TOO_LONG = 1024 * 1024  # bytes: far over what the server takes of a request


@pytest.mark.parametrize("part", ["header", "body"])
def test_a_request_too_large_to_take_is_answered_not_reset(
    web_session: Callable[..., WebSession], part: str
) -> None:
    """The server refuses a request once its bound is read; closing with the rest of it
    unread made TCP reset the connection, often before the refusal was read. It drains
    what still comes (bounded) after its answer, so the client reads the answer."""
    with live(web_session(), Limits()) as (port, _):
        if part == "header":
            request = b"GET /api/state HTTP/1.1\r\n" + host(port) + b"X-Long: " + b"h" * TOO_LONG
            status = b"HTTP/1.1 400 "
        else:
            request = (
                b"POST /api/guess HTTP/1.1\r\n" + host(port) + b"Content-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % TOO_LONG + b" " * TOO_LONG
            )
            status = b"HTTP/1.1 413 "
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.sendall(request)
                data, closed_after = read_until_closed(conn, 10)
            assert data.startswith(status), data[:80]
            assert closed_after < 5


def test_a_client_that_goes_on_sending_after_the_refusal_is_cut_off(
    web_session: Callable[..., WebSession],
) -> None:
    """The drain after a refusal is bounded: a client that never stops sending is cut off."""
    with (
        live(web_session(), Limits()) as (port, server),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.sendall(b"GET /api/state HTTP/1.1\r\n" + host(port) + b"X-Long: " + b"h" * TOO_LONG)
        conn.settimeout(10)
        assert conn.recv(4096).startswith(b"HTTP/1.1 400 ")
        deadline = time.monotonic() + 30
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            while time.monotonic() < deadline:
                conn.sendall(b"h" * 65536)
        assert not server.config.http_protocol_class.lingering


def test_responses_are_sent_without_delay(web_session: Callable[..., WebSession]) -> None:
    """TCP_NODELAY on every connection the server accepts, whatever protocol its
    listening socket was made with (here 0, as `epdle web` makes it): without it each
    response on a keep-alive connection after the first waited ~43 ms for the client's
    delayed acknowledgement."""
    with (
        live(web_session(), Limits()) as (port, server),
        socket.create_connection(("127.0.0.1", port)) as conn,
    ):
        conn.sendall(b"GET /api/state HTTP/1.1\r\n" + host(port) + b"\r\n")
        conn.settimeout(10)
        assert conn.recv(4096).startswith(b"HTTP/1.1 200")
        (protocol,) = server.server_state.connections
        sock = protocol.transport.get_extra_info("socket")
        assert sock.proto == 0
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
