"""What the routes share: the session's one worker thread (every call that touches the
game or the device runs there), the event hub each new state goes out through, the
device pushed and polled in the background, and the request bodies read within bounds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from epdle.web.events import Hub
from epdle.web.security import BODY_TIMEOUT_S, read_body
from epdle.web.state import WebReply, WebSession

log = logging.getLogger("epdle.web")

T = TypeVar("T")


@dataclass
class ServerOptions:
    poll_interval: float = 0.5  # how often the device is asked for events
    keepalive: float = 15.0  # an SSE comment this often keeps proxies and browsers happy
    max_events: int | None = None  # end each event stream after this many (tests)
    body_timeout: float = BODY_TIMEOUT_S


def error(status: int, message: str, close: bool = False) -> JSONResponse:
    """The error's JSON; with `close`, the connection closed after it (a request whose
    body is not read to its end: the rest is not taken as the next request)."""
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def calls_of(request: Request) -> SessionCalls:
    """The app's SessionCalls (create_app keeps them in the app's state)."""
    calls: SessionCalls = request.app.state.calls
    return calls


class SessionCalls:
    """The session's calls as the routes make them, and the app's life around them."""

    def __init__(self, session: WebSession, options: ServerOptions) -> None:
        self.session = session
        self.options = options
        self.hub = Hub()
        self._background: set[asyncio.Task[None]] = set()

    async def on_session(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` on the session's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.session.executor, partial(function, *args))

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def catch_up(self) -> None:
        """The device gets the advice the pages were just sent (a push takes a while)."""
        session = self.session

        def run() -> dict[str, Any] | None:
            return session.snapshot() if session.catch_up() else None

        try:
            state = await self.on_session(run)
        except Exception:  # the page has its advice; the next change or poll retries
            log.exception("pushing the advice to the device failed")
            return
        if state is not None:
            self.hub.publish(state)

    async def act(self, function: Callable[..., WebReply], *args: Any) -> JSONResponse:
        """A change to the game: its reply, the new state to every page, then the push."""
        session = self.session

        def run() -> tuple[WebReply, dict[str, Any]]:
            reply = function(*args)
            return reply, session.snapshot()

        reply, state = await self.on_session(run)
        if reply.error is not None:
            return JSONResponse(
                {"error": reply.error, "notes": list(reply.notes)}, status_code=reply.status
            )
        self.hub.publish(state)
        self.spawn(self.catch_up())
        return JSONResponse({**state, "notes": list(reply.notes)})

    async def current_state(self) -> dict[str, Any]:
        latest = self.session.latest
        return latest if latest is not None else await self.on_session(self.session.snapshot)

    async def body_of(self, request: Request) -> bytes:
        return await read_body(request.receive, timeout=self.options.body_timeout)

    async def json_body(self, request: Request) -> dict[str, Any]:
        body = await self.body_of(request)
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

    async def poll_device(self) -> None:
        while True:
            await asyncio.sleep(self.options.poll_interval)
            try:
                changed = await self.on_session(self.session.poll)
                if changed:
                    self.hub.publish(await self.on_session(self.session.snapshot))
            except Exception:  # keep polling whatever one poll did
                log.exception("device poll failed")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Start the game and the device polling; at the end, close every stream and
        wait for the pushes under way."""
        app.state.loop = asyncio.get_running_loop()
        await self.on_session(self.session.start)
        await self.on_session(self.session.snapshot)
        self.spawn(self.catch_up())
        poller = asyncio.create_task(self.poll_device())
        try:
            yield
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            self.hub.publish(None)
            if self._background:
                await asyncio.wait(self._background, timeout=10)
            await self.on_session(self.session.close)
