"""The Starlette app: the page, its JSON API and the server-sent event stream.

    GET  /              the page (static/index.html; its scripts and styles beside it)
    GET  /api/state     the game, the advice, the settings and the device
    POST /api/guess     {"word": "salet", "colours": "BBYBB", "turn": 0}: "turn" (optional
                        for scripts, the page sends it) is the number of guesses the page
                        saw; if the game has moved on since, 409 and nothing is played
    POST /api/undo | /api/new | /api/press
    POST /api/settings  {"strategy": "best", "hard": true, "blind": false} (any of them)
    POST /api/review    {"history": [{"word": "salet", "colours": "BBYBB"}, ...]} (or the
                        history as `epdle review --history` takes it), or {"grid": the
                        shared grid, "words": "salet,crony,slosh"}: the game's review,
                        the JSON of `epdle review --json`
    GET  /api/events    server-sent events: "state" with the same body as /api/state
    GET  /panel.png     what the e-paper panel shows now

Errors are {"error": "one line"} with a 4xx status. Every connection has deadlines
(Limits): a request's headers all in within HEADER_TIMEOUT_S of its connection (or of
the last response on it), else 408; the whole request within HEADER_TIMEOUT_S +
BODY_TIMEOUT_S; no request begun for KEEP_ALIVE_S: closed; a response not read for
SEND_TIMEOUT_S: dropped. A connection closed with the client perhaps still sending is
drained for LINGER_S first (a lingering close), so its answer is read, not reset. Log
lines quote clients' text with its control characters escaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http
import json
import logging
import os
import resource
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, ClassVar

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from uvicorn.protocols.http.h11_impl import H11Protocol

from epdle.logtext import escaping
from epdle.web import api, pages
from epdle.web.calls import ServerOptions, SessionCalls, error
from epdle.web.security import (
    BODY_TIMEOUT_S,
    SECURITY_HEADERS,
    Guard,
    GuardMiddleware,
    RequestTimedOut,
    RequestTooLarge,
)
from epdle.web.state import WebSession

__all__ = ["Limits", "Server", "ServerOptions", "create_app", "serve", "server_config"]

log = escaping(logging.getLogger("epdle.web"))

HEADER_TIMEOUT_S = 10.0
# A connection with no request begun is closed after this (uvicorn's keep-alive timeout).
KEEP_ALIVE_S = 5
# A response the client does not read (its send buffer full) is dropped after this.
SEND_TIMEOUT_S = 30.0
# Of a request line and headers still arriving, at most this is buffered (h11's bound;
# 400 beyond).
HEADER_BYTES = 16 * 1024
# Connections at most: below the descriptor limit by those open when the server starts,
# what bursts of accepts take before the extra ones are closed (a few LISTEN_BACKLOGs:
# accepted, being closed), and RESERVED_FDS for files opened while serving; and at most
# MAX_CONNECTIONS.
RESERVED_FDS = 16
MAX_CONNECTIONS = 512
LISTEN_BACKLOG = 16
# Repeated warnings (out of descriptors, too many connections): one line this often.
LOG_PERIOD_S = 10.0
# A connection closed with the client perhaps still sending (a request refused once its
# bound was read) lingers: its answer sent, it is half-closed and what still comes is read
# and dropped until the client closes, for at most LINGER_S; at most LINGERING at once
# (beyond, closed at once). Closed with a request's rest unread, TCP would reset it, and
# the reset can reach the client before it reads the answer.
LINGER_S = 2.0
LINGERING = 16


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "no such page", 405: "method not allowed here"}
    detail = exc.detail if exc.detail and exc.status_code not in messages else None
    return error(exc.status_code, detail or messages.get(exc.status_code, "bad request"))


async def too_large(request: Request, exc: Exception) -> Response:
    return error(413, str(exc), close=True)


async def too_slow(request: Request, exc: Exception) -> Response:
    return error(408, str(exc), close=True)


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("request %s %s failed", request.method, request.url.path)
    return error(500, f"internal error: {type(exc).__name__}")


def create_app(
    session: WebSession, guard: Guard, options: ServerOptions | None = None
) -> Starlette:
    """The app: the page's routes (pages.py) and its API's (api.py) behind the guard,
    every call to the session on its one thread (calls.py)."""
    calls = SessionCalls(session, options or ServerOptions())
    app = Starlette(
        routes=[*pages.ROUTES, *api.ROUTES],
        middleware=[Middleware(GuardMiddleware, guard=guard)],
        exception_handlers={
            HTTPException: http_error,
            RequestTooLarge: too_large,
            RequestTimedOut: too_slow,
            Exception: internal_error,
        },
        lifespan=calls.lifespan,
    )
    app.state.calls = calls
    app.state.hub = calls.hub
    app.state.session = session
    app.state.guard = guard
    return app


class Server(uvicorn.Server):
    """Stops on SIGINT/SIGTERM like uvicorn's, then returns (uvicorn re-raises the signal)
    and ends the event streams first, so that no open page holds the shutdown up. Out of
    file descriptors, it logs one line per LOG_PERIOD_S, not one traceback per accept."""

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_accept_errors)
        await super().startup(sockets)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        for end in list(getattr(self.config.http_protocol_class, "lingering", ())):
            end()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
        self.should_exit = True
        loop = getattr(self.app.state, "loop", None)
        if loop is not None:
            loop.call_soon_threadsafe(self.app.state.hub.publish, None)


class _Repeated:
    """Warnings that a flood repeats (per connection, per failed accept): each text
    logged at most once per `period` seconds, with how often it came since."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.counts: dict[str, int] = {}
        self.logged_at: dict[str, float] = {}

    def warn(self, text: str) -> None:
        self.counts[text] = self.counts.get(text, 0) + 1
        now = time.monotonic()
        last = self.logged_at.get(text)
        if last is not None and now - last < self.period:
            return
        log.warning("%s (%d time(s) since the last such line)", text, self.counts.pop(text))
        self.logged_at[text] = now


_repeated = _Repeated(LOG_PERIOD_S)


def _accept_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: accept failing for want of file descriptors
    (or memory) logged as a _Repeated line, anything else as asyncio logs it.

    asyncio reports each failed accept, and retries many at once: a flood that uses up
    the descriptors would write a traceback per try, gigabytes of them."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in _OUT_OF_RESOURCES:
        _repeated.warn(f"cannot accept connections: {error.strerror or error}")
    else:
        loop.default_exception_handler(context)


_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


@dataclass(frozen=True)
class Limits:
    """What one connection may take (seconds). A request (its headers and its body) is
    received within `headers` + `body` of its start: the connection, or the end of the
    response before it; its headers within `headers` (else 408). Between requests, a
    connection idle for `idle` is closed (uvicorn's keep-alive timeout; a new connection
    that sends nothing too). A response the client stops reading for `send` is dropped.
    At most `connections` at once (beyond, a new one is closed at once); of a request line
    and headers still arriving, at most `header_bytes` buffered (else 400, h11's bound)."""

    headers: float = HEADER_TIMEOUT_S
    body: float = BODY_TIMEOUT_S
    idle: int = KEEP_ALIVE_S
    send: float = SEND_TIMEOUT_S
    connections: int = 0  # 0: from the process's file descriptor limit
    header_bytes: int = HEADER_BYTES

    def max_connections(self) -> int:
        if self.connections:
            return self.connections
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return MAX_CONNECTIONS
        spare = soft - _open_descriptors() - 4 * LISTEN_BACKLOG - RESERVED_FDS - LINGERING
        return max(min(spare, MAX_CONNECTIONS), 1)


def _open_descriptors() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:  # no /proc: as many as the bound keeps in reserve
        return RESERVED_FDS


class _BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with every connection's deadlines (Limits): uvicorn
    bounds a request's size and the idle time after a response, not how long a request
    may take to arrive, nor a client that stops reading. `_bounded_http` gives it its
    self.limits."""

    limits: ClassVar[Limits]
    max_connections: ClassVar[int]
    lingering: ClassVar[set[Callable[[], None]]]  # the ends of the lingering closes
    _phase: str | None = None  # "headers", "body" or None (nothing due from the client)
    _started = 0.0  # when the request began (its connection or the last response)
    _heard = False  # a byte of the request came in
    _timer: asyncio.TimerHandle | None = None
    _send_timer: asyncio.TimerHandle | None = None
    _dropped = False  # aborted: nothing owed to the client, no lingering

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            _repeated.warn(f"closed a new connection: {self.max_connections} are open")
            self._dropped = True
            transport.abort()
            return
        _no_delay(transport)
        # Nothing sent on a new connection: closed when idle, as after a response.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )
        self._watch()

    def shutdown(self) -> None:
        """The server stopping: a request still arriving is answered 503 and its
        connection closed, the app's task seeing a client that has gone (uvicorn waits for
        the request, then cancels the task: a traceback); else as uvicorn's."""
        if self._phase == "body" or (self._phase == "headers" and self._heard):
            _repeated.warn(
                "closed a connection as the server stops: its request was still arriving"
            )
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(_refusal(503, "the server is stopping"))
            self._close()
            return
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is None and not self._dropped:
            # Closed by this side, all written sent; the socket is still open here.
            self._linger()
        super().connection_lost(exc)
        self._phase = None
        for timer in (self._timer, self._send_timer):
            if timer is not None:
                timer.cancel()
        self._timer = self._send_timer = None

    def data_received(self, data: bytes) -> None:
        self._heard = True
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.limits.send, self._send_due)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _watch(self) -> None:
        """Arms the deadline of what the client owes now: a request's headers, its
        body, or nothing (the request is in)."""
        if self.transport.is_closing():
            return
        theirs = self.conn.their_state
        if theirs is h11.IDLE:
            phase: str | None = "headers"
        elif theirs is h11.SEND_BODY:
            phase = "body"
        else:
            phase = None
        if phase == self._phase:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if phase == "headers":
            # A pipelined request may be in already, waiting for this one's turn.
            self._started = self.loop.time()
            self._heard = bool(self.conn.trailing_data[0])
            self._timer = self.loop.call_later(self.limits.headers, self._due)
        elif phase == "body":
            due = self._started + self.limits.headers + self.limits.body
            self._timer = self.loop.call_at(due, self._due)
        self._phase = phase

    def _due(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        if self._phase == "headers":
            if not self._heard:
                self._close()  # idle: no request begun
                return
            message = f"request headers not complete within {self.limits.headers:g} s"
        else:
            total = self.limits.headers + self.limits.body
            message = f"request not complete within {total:g} s"
        _repeated.warn(f"closed a connection: {message}")
        answered = self.cycle is not None and self.cycle.response_started
        if not answered:
            self.transport.write(_refusal(408, message))
        self._close()

    def _send_due(self) -> None:
        self._send_timer = None
        _repeated.warn(f"closed a connection whose client read nothing for {self.limits.send:g} s")
        self._close(drop=True)

    def _close(self, drop: bool = False) -> None:
        """Closes the connection: what is written still sent (a 408), or (`drop`, for a
        client that reads nothing) the unsent responses dropped at once; a close that
        waited for them would wait for as long as the client keeps the socket open."""
        if self.cycle is not None and not self.cycle.response_complete:
            # The app's task sees a disconnected client (as if it had gone), not an
            # error on its next send.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        if drop:
            self._dropped = True
            self.transport.abort()
        else:
            self.transport.close()

    def _linger(self) -> None:
        """A lingering close (LINGER_S) as the transport closes the socket: a duplicate
        of it half-closed and drained until the client closes or the time is up."""
        transport_socket = self.transport.get_extra_info("socket")
        if transport_socket is None or len(self.lingering) >= LINGERING:
            return
        try:
            sock = transport_socket.dup()
        except OSError:
            return
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the client has gone already
            sock.close()
            return
        sock.setblocking(False)
        loop = self.loop

        def end() -> None:
            self.lingering.discard(end)
            loop.remove_reader(sock)
            timer.cancel()
            sock.close()

        def drain() -> None:
            try:
                more = sock.recv(65536)
            except BlockingIOError:
                return
            except OSError:  # reset by the client
                more = b""
            if not more:
                end()

        timer = loop.call_later(LINGER_S, end)
        loop.add_reader(sock, drain)
        self.lingering.add(end)


def _bounded_http(limits: Limits) -> type[H11Protocol]:
    """The bounded protocol (_BoundedH11Protocol) with these limits."""
    attributes = {
        "limits": limits,
        "max_connections": limits.max_connections(),
        "lingering": set(),
    }
    return type("BoundedH11Protocol", (_BoundedH11Protocol,), attributes)


def _no_delay(transport: asyncio.Transport) -> None:
    """Responses sent as written: without TCP_NODELAY, a response's last segment waits for
    the client's delayed acknowledgement (about 40 ms) on every request of a keep-alive
    connection after the first (asyncio sets it only on sockets made as IPPROTO_TCP)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _refusal(status: int, message: str) -> bytes:
    """A whole response, written by the protocol itself (no request the app will see)."""
    body = json.dumps({"error": message}).encode()
    head = [
        b"HTTP/1.1 %d %s" % (status, http.HTTPStatus(status).phrase.encode()),
        b"content-type: application/json",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
        *(name + b": " + value for name, value in SECURITY_HEADERS),
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def server_config(app: Starlette, limits: Limits | None = None) -> uvicorn.Config:
    limits = limits or Limits()
    return uvicorn.Config(
        app,
        http=_bounded_http(limits),
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
        timeout_keep_alive=limits.idle,
        h11_max_incomplete_event_size=limits.header_bytes,
        # Connections taken from the listening socket per wake-up (and asyncio's retries
        # when none can be): the listening socket's own backlog.
        backlog=LISTEN_BACKLOG,
    )


def serve(app: Starlette, sock: socket.socket, limits: Limits | None = None) -> None:
    """Serve `app` on a bound, listening socket until SIGINT/SIGTERM."""
    Server(server_config(app, limits), app).run(sockets=[sock])
