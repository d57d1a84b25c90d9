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
drained for LINGER_S first (a lingering close), so its answer is read, not reset. A client
holds at most PER_CLIENT connections that have not shown the token (_Clients). Log
lines quote clients' text with its control characters escaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http
import ipaddress
import json
import logging
import os
import resource
import signal
import socket
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
from epdle.web.floodlog import LOG_PERIOD_S, Repeated
from epdle.web.security import (
    BODY_TIMEOUT_S,
    SECURITY_HEADERS,
    Guard,
    GuardMiddleware,
    HeadScan,
    RequestTimedOut,
    RequestTooLarge,
)
from epdle.web.state import WebSession

__all__ = [
    "LOG_PERIOD_S",
    "Limits",
    "Server",
    "ServerOptions",
    "create_app",
    "serve",
    "server_config",
]

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
# Connections the kernel holds, not yet accepted.
LISTEN_QUEUE = 1024
# Of the connections one client (an address; an IPv6 /64) holds, at most this many not yet
# known as the page's: beyond, a new one takes the place of its oldest such.
PER_CLIENT = 32
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
        for sock in sockets or ():
            # asyncio listens with the backlog it accepts per wake-up: a burst of
            # connections past it (a flood's) would drop the page's connection requests,
            # retried by TCP only a second later.
            sock.listen(LISTEN_QUEUE)

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


_repeated = Repeated(log, LOG_PERIOD_S)


def _accept_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: accept failing for want of file descriptors
    (or memory) logged at a bounded rate (floodlog), anything else as asyncio logs it.

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
    At most `connections` at once, and of one client's not yet known as the page's at most
    `per_client` (beyond either, a new one takes the place of such a connection: _Clients);
    of a request line and headers still arriving, at most `header_bytes` buffered (else
    400, h11's bound)."""

    headers: float = HEADER_TIMEOUT_S
    body: float = BODY_TIMEOUT_S
    idle: int = KEEP_ALIVE_S
    send: float = SEND_TIMEOUT_S
    connections: int = 0  # 0: from the process's file descriptor limit
    per_client: int = PER_CLIENT
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


class _Clients:
    """The connections a server holds, and of each client those not yet known as the
    page's (the token shown, or where none is asked for a whole request head sent), oldest
    first: a client holds at most `per_client` of these, the server at most `most`
    connections. A new connection past either bound takes the place of an unknown one (its
    client's oldest; the oldest of the client holding most), so that one client (a host
    on the LAN holding hundreds of half-sent requests) cannot keep another out, nor its
    half-sent requests the page's own. The server full of known ones, it is refused."""

    def __init__(self, most: int, per_client: int) -> None:
        self.most = most
        self.per_client = per_client
        self.open: set[_BoundedH11Protocol] = set()
        self.unknown: dict[str, dict[_BoundedH11Protocol, None]] = {}

    def admit(self, new: _BoundedH11Protocol) -> bool:
        """Whether `new` is let in (counted, unknown), the connection it replaces closed."""
        mine = self.unknown.get(new.client_key, {})
        if len(mine) >= self.per_client:
            self._replace(next(iter(mine)), f"{new.client_key} holds {len(mine)} such")
        elif len(self.open) >= self.most:
            crowd = max(self.unknown.values(), key=len, default={})
            if not crowd:
                return False
            self._replace(next(iter(crowd)), f"{len(self.open)} connections are open")
        self.unknown.setdefault(new.client_key, {})[new] = None
        self.open.add(new)
        return True

    def known(self, conn: _BoundedH11Protocol) -> None:
        mine = self.unknown.get(conn.client_key, {})
        mine.pop(conn, None)
        if not mine:
            self.unknown.pop(conn.client_key, None)

    def gone(self, conn: _BoundedH11Protocol) -> None:
        self.known(conn)
        self.open.discard(conn)

    def _replace(self, old: _BoundedH11Protocol, why: str) -> None:
        _repeated.warn(
            f"closed a connection of {old.client_key} not known as the page's, for a new one "
            f"({why})",
            kind="replaced",
        )
        self.gone(old)
        old._close(drop=True)


def _client_of(peer: object) -> str:
    """Who a connection's peer address is, as the limits per client count: the address; of
    IPv6, its /64 network (one host may take any address of it)."""
    try:
        address = ipaddress.ip_address(peer[0])  # type: ignore[index]
    except (TypeError, ValueError, IndexError):
        return "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address.exploded}/64", strict=False))
    return str(address)


class _BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with every connection's deadlines (Limits): uvicorn
    bounds a request's size and the idle time after a response, not how long a request
    may take to arrive, nor a client that stops reading; and with the connections' bounds
    per client (_Clients). `_bounded_http` gives it its self.limits, self.guard (whose
    token shown on the connection, at the first line of a request's head that carries it,
    makes it known as the page's) and self.clients."""

    limits: ClassVar[Limits]
    guard: ClassVar[Guard]
    clients: ClassVar[_Clients]
    lingering: ClassVar[set[Callable[[], None]]]  # the ends of the lingering closes
    client_key = "?"  # the peer, as _Clients counts it
    _phase: str | None = None  # "headers", "body" or None (nothing due from the client)
    _started = 0.0  # when the request began (its connection or the last response)
    _heard = False  # a byte of the request came in
    _scan: HeadScan | None = None  # the request head arriving, looked at for the token
    _known = False  # known as the page's: _Clients no longer counts it as unknown
    _timer: asyncio.TimerHandle | None = None
    _send_timer: asyncio.TimerHandle | None = None
    _dropped = False  # aborted: nothing owed to the client, no lingering

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.client_key = _client_of(transport.get_extra_info("peername"))
        if not self.clients.admit(self):
            _repeated.warn(f"closed a new connection: {self.clients.most} are open, all the page's")
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
        self.clients.gone(self)
        self._phase = None
        self._scan = None
        for timer in (self._timer, self._send_timer):
            if timer is not None:
                timer.cancel()
        self._timer = self._send_timer = None

    def data_received(self, data: bytes) -> None:
        self._heard = True
        if self._scan is not None and self._scan.feed(data):
            self._know()
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
        if self._phase == "headers" and self.guard.token is None:
            self._know()  # a whole request head: all a page without a token shows
        self._scan = None
        if phase == "headers":
            # A pipelined request may be in already, waiting for this one's turn.
            self._started = self.loop.time()
            self._heard = bool(self.conn.trailing_data[0])
            self._timer = self.loop.call_later(self.limits.headers, self._due)
            if not self._known and self.guard.token is not None:
                self._scan = HeadScan(self.guard, self.limits.header_bytes)
                if self._scan.feed(bytes(self.conn.trailing_data[0])):
                    self._know()
        elif phase == "body":
            due = self._started + self.limits.headers + self.limits.body
            self._timer = self.loop.call_at(due, self._due)
        self._phase = phase

    def _know(self) -> None:
        """The connection is the page's (the token shown on it): no longer replaceable."""
        self._known = True
        self._scan = None
        self.clients.known(self)

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


def _bounded_http(limits: Limits, guard: Guard) -> type[H11Protocol]:
    """The bounded protocol (_BoundedH11Protocol) with these limits and guard."""
    attributes = {
        "limits": limits,
        "guard": guard,
        "clients": _Clients(limits.max_connections(), limits.per_client),
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
        http=_bounded_http(limits, app.state.guard),
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
