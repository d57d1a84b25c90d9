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
import contextlib
import json
import logging
import signal
import socket
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from importlib import resources
from types import FrameType
from typing import Any, TypeVar

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from epdle.web.review import review_request
from epdle.web.security import (
    BODY_TIMEOUT_S,
    Guard,
    GuardMiddleware,
    RequestTimedOut,
    RequestTooLarge,
    read_body,
)
from epdle.web.state import Reply, WebSession

log = logging.getLogger("epdle.web")

T = TypeVar("T")

HEADER_TIMEOUT_S = 10.0

# The page's files, by the only names a request can ask for.
STATIC_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/review.js": ("review.js", "text/javascript; charset=utf-8"),
    "/boards.js": ("boards.js", "text/javascript; charset=utf-8"),
    "/suggestions.js": ("suggestions.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/review.css": ("review.css", "text/css; charset=utf-8"),
}


def static_file(name: str) -> bytes:
    return resources.files("epdle.web").joinpath("static", name).read_bytes()


@dataclass
class ServerOptions:
    poll_interval: float = 0.5  # how often the device is asked for events
    keepalive: float = 15.0  # an SSE comment this often keeps proxies and browsers happy
    max_events: int | None = None  # end each event stream after this many (tests)
    body_timeout: float = BODY_TIMEOUT_S


class Hub:
    """Fans each new state out to every open event stream."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[dict[str, Any] | None]] = set()

    def subscribe(self) -> asyncio.Queue[dict[str, Any] | None]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=8)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        self._queues.discard(queue)

    @property
    def listeners(self) -> int:
        return len(self._queues)

    def publish(self, state: dict[str, Any] | None) -> None:
        """A state for every stream (None ends them); a slow one loses its oldest."""
        for queue in self._queues:
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(state)


def sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def event_stream(
    hub: Hub,
    first: dict[str, Any],
    max_events: int | None = None,
    keepalive: float = 15.0,
) -> AsyncIterator[str]:
    """The current state, then every new one; ends after `max_events`, or when the hub
    publishes None (the server is stopping)."""
    queue = hub.subscribe()
    try:
        yield "retry: 2000\n\n"
        yield sse("state", first)
        sent = 1
        while max_events is None or sent < max_events:
            try:
                state = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            if state is None:
                return
            yield sse("state", state)
            sent += 1
    finally:
        hub.unsubscribe(queue)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    session: WebSession, guard: Guard, options: ServerOptions | None = None
) -> Starlette:
    options = options or ServerOptions()
    hub = Hub()

    async def on_session(function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(session.executor, partial(function, *args))

    background: set[asyncio.Task[None]] = set()

    def spawn(coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        background.add(task)
        task.add_done_callback(background.discard)

    async def catch_up() -> None:
        """The device gets the advice the pages were just sent (a push takes a while)."""

        def run() -> dict[str, Any] | None:
            return session.snapshot() if session.catch_up() else None

        try:
            state = await on_session(run)
        except Exception:  # the page has its advice; the next change or poll retries
            log.exception("pushing the advice to the device failed")
            return
        if state is not None:
            hub.publish(state)

    async def act(function: Callable[..., Reply], *args: Any) -> JSONResponse:
        def run() -> tuple[Reply, dict[str, Any]]:
            reply = function(*args)
            return reply, session.snapshot()

        reply, state = await on_session(run)
        if reply.error is not None:
            return JSONResponse(
                {"error": reply.error, "notes": list(reply.notes)}, status_code=reply.status
            )
        hub.publish(state)
        spawn(catch_up())
        return JSONResponse({**state, "notes": list(reply.notes)})

    async def body_of(request: Request) -> bytes:
        return await read_body(request.receive, timeout=options.body_timeout)

    async def json_body(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        content_type = request.headers.get("content-type", "").split(";")[0].strip()
        if content_type != "application/json":
            raise HTTPException(415, "send the body as application/json")
        try:
            value = json.loads(body or b"{}")
        except ValueError:
            raise HTTPException(400, "the body is not JSON") from None
        except RecursionError:
            raise HTTPException(400, "the body's JSON is nested too deeply") from None
        if not isinstance(value, dict):
            raise HTTPException(400, "the body must be a JSON object")
        return value

    async def page(request: Request) -> Response:
        name, media_type = STATIC_FILES[request.url.path]
        return Response(
            static_file(name), media_type=media_type, headers={"cache-control": "no-cache"}
        )

    async def current_state() -> dict[str, Any]:
        latest = session.latest
        return latest if latest is not None else await on_session(session.snapshot)

    async def get_state(request: Request) -> Response:
        return JSONResponse(await current_state())

    async def post_guess(request: Request) -> Response:
        body = await json_body(request)
        word, colours, turn = body.get("word"), body.get("colours"), body.get("turn")
        if not isinstance(word, str) or not isinstance(colours, str):
            return error(400, 'send {"word": "salet", "colours": "BBYBB"}')
        if turn is not None and (type(turn) is not int or turn < 0):
            return error(400, "turn must be the number of guesses the page saw (0 or more)")
        return await act(session.guess, word, colours, turn)

    async def post_plain(request: Request) -> Response:
        await body_of(request)  # bounded, and ignored
        action = {
            "/api/undo": session.undo,
            "/api/new": session.new,
            "/api/press": session.press,
        }[request.url.path]
        return await act(action)

    async def post_settings(request: Request) -> Response:
        body = await json_body(request)
        unknown = set(body) - {"strategy", "hard", "blind"}
        if unknown:
            return error(400, f"unknown setting(s): {', '.join(sorted(unknown))}")
        strategy = body.get("strategy")
        hard, blind = body.get("hard"), body.get("blind")
        if strategy is not None and not isinstance(strategy, str):
            return error(400, "strategy must be a string")
        for name, value in (("hard", hard), ("blind", blind)):
            if value is not None and not isinstance(value, bool):
                return error(400, f"{name} must be true or false")
        return await act(session.change_settings, strategy, hard, blind)

    async def post_review(request: Request) -> Response:
        body = await json_body(request)
        try:
            run = review_request(body, session.controller.game)
        except ValueError as problem:
            return error(400, str(problem))
        reply = await on_session(run)  # the game's solvers, one caller at a time
        if reply.error is not None:
            return error(reply.status, reply.error)
        return JSONResponse(reply.value)

    async def events(request: Request) -> Response:
        first = await current_state()
        stream = event_stream(hub, first, options.max_events, options.keepalive)
        return StreamingResponse(
            stream,
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def panel(request: Request) -> Response:
        cached = session.cached_panel_png()
        version, png = cached if cached is not None else await on_session(session.panel_png)
        return Response(
            png,
            media_type="image/png",
            headers={"cache-control": "no-store", "x-panel-version": str(version)},
        )

    async def poll_device() -> None:
        while True:
            await asyncio.sleep(options.poll_interval)
            try:
                changed = await on_session(session.poll)
                if changed:
                    hub.publish(await on_session(session.snapshot))
            except Exception:  # keep polling whatever one poll did
                log.exception("device poll failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.loop = asyncio.get_running_loop()
        await on_session(session.start)
        await on_session(session.snapshot)
        spawn(catch_up())
        poller = asyncio.create_task(poll_device())
        app.state.hub = hub
        try:
            yield
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            hub.publish(None)
            if background:
                await asyncio.wait(background, timeout=10)
            await on_session(session.close)

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

    routes = [Route(path, page, methods=["GET"]) for path in STATIC_FILES]
    routes += [
        Route("/api/state", get_state, methods=["GET"]),
        Route("/api/guess", post_guess, methods=["POST"]),
        Route("/api/undo", post_plain, methods=["POST"]),
        Route("/api/new", post_plain, methods=["POST"]),
        Route("/api/press", post_plain, methods=["POST"]),
        Route("/api/settings", post_settings, methods=["POST"]),
        Route("/api/review", post_review, methods=["POST"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/panel.png", panel, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(GuardMiddleware, guard=guard)],
        exception_handlers={
            HTTPException: http_error,
            RequestTooLarge: too_large,
            RequestTimedOut: too_slow,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )
    app.state.hub = hub
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
