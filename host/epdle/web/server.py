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

Errors are {"error": "one line"} with a 4xx status. A request's headers must be all in
within HEADER_TIMEOUT_S of its connection (or of the last response on it), its body
within BODY_TIMEOUT_S after them.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from types import FrameType

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from uvicorn.protocols.http.h11_impl import H11Protocol

from epdle.web import api, pages
from epdle.web.calls import ServerOptions, SessionCalls, error
from epdle.web.security import Guard, GuardMiddleware, RequestTimedOut, RequestTooLarge
from epdle.web.state import WebSession

__all__ = ["ServerOptions", "create_app", "serve", "server_config"]

log = logging.getLogger("epdle.web")

HEADER_TIMEOUT_S = 10.0


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "no such page", 405: "method not allowed here"}
    detail = exc.detail if exc.detail and exc.status_code not in messages else None
    return error(exc.status_code, detail or messages.get(exc.status_code, "bad request"))


async def too_large(request: Request, exc: Exception) -> Response:
    return error(413, str(exc))


async def too_slow(request: Request, exc: Exception) -> Response:
    return error(408, str(exc))


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


class _Server(uvicorn.Server):
    """Stops on SIGINT/SIGTERM like uvicorn's, then returns (uvicorn re-raises the signal)
    and ends the event streams first, so that no open page holds the shutdown up."""

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
        self.should_exit = True
        loop = getattr(self.app.state, "loop", None)
        if loop is not None:
            loop.call_soon_threadsafe(self.app.state.hub.publish, None)


def _timed_http(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request headers are not
    all in within `header_timeout` seconds of the connection or of the last response
    (uvicorn bounds their size, not their time: a client could hold one open forever)."""

    class TimedH11Protocol(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm_header_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm_header_timer()

        def _arm_header_timer(self) -> None:
            self.loop.call_later(header_timeout, self._headers_due)

        def _headers_due(self) -> None:
            # IDLE: the client has not finished a request's headers since the timer began.
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                log.warning(
                    "closed a connection whose request headers took over %g s", header_timeout
                )
                self.transport.close()

    return TimedH11Protocol


def server_config(app: Starlette, header_timeout: float = HEADER_TIMEOUT_S) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        http=_timed_http(header_timeout),
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
    )


def serve(app: Starlette, sock: socket.socket) -> None:
    """Serve `app` on a bound, listening socket until SIGINT/SIGTERM."""
    _Server(server_config(app), app).run(sockets=[sock])
