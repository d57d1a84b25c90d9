"""Fixtures for the web tests: one game on the simulated board behind the app."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from web_support import settle

from epdle.session.presenter import DevicePresenter
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver import Solver
from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import Settings, WebSession
from epdle.web.state import web_session as web_session_of

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="session")
def solvers() -> Callable[[Settings], Solver]:
    """Solvers by settings, built once for every test that wants them."""
    setup = game_setup(None)
    return lambda settings: setup.solver(settings.hard, settings.blind, settings.strategy)


# Solvers made so far, by language: shared by every test's setup (each made once).
_MADE: dict[str | None, dict] = {}


def game_setup(language: str | None, hard: bool = False, top: int = 3) -> GameSetup:
    """The game of `epdle web` on the shipped English lists (None) or a language's
    five-letter dictionary words (`--language`), its solvers shared with every test."""
    spec = GameSpec(hard=hard, top=top, language=language)
    return GameSetup(spec, made=_MADE.setdefault(language, {}))


@pytest.fixture
def web_session() -> Callable[..., WebSession]:
    """A new session (its game on `port`, `best` with `top` suggestions, in `language`'s
    words or the shipped English lists), not started."""

    def make(
        port: str = "sim://", hard: bool = False, top: int = 3, language: str | None = None
    ) -> WebSession:
        return web_session_of(game_setup(language, hard, top), DevicePresenter(port))

    return make


@pytest.fixture
def session(web_session: Callable[..., WebSession]) -> WebSession:
    return web_session()


@pytest.fixture
def client(session: WebSession) -> Iterator[TestClient]:
    app = create_app(
        session,
        Guard(allowed_hosts("127.0.0.1", 8000)),
        ServerOptions(poll_interval=0.05, max_events=2),
    )
    with TestClient(app, base_url=BASE) as test_client:
        settle(test_client)
        yield test_client


@dataclass
class LiveServer:
    url: str
    session: WebSession
    app: Starlette


@pytest.fixture
def live_server(web_session: Callable[..., WebSession]) -> Iterator[LiveServer]:
    """The app served by uvicorn on a free loopback port, in a thread of this process."""
    with serving(web_session(top=5)) as server:
        yield server


@pytest.fixture
def german_server(web_session: Callable[..., WebSession]) -> Iterator[LiveServer]:
    """The same for a German game (`epdle web --language de`): letters beyond a-z."""
    with serving(web_session(top=5, language="de")) as server:
        yield server


@contextmanager
def serving(session: WebSession) -> Iterator[LiveServer]:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    app = create_app(session, Guard(allowed_hosts("127.0.0.1", port)), ServerOptions())
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    while session.latest is None or session.controller.behind:
        assert time.monotonic() < deadline, "the device did not get the opening advice"
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}/", session, app)
    finally:
        server.should_exit = True
        app.state.loop.call_soon_threadsafe(app.state.hub.publish, None)  # end event streams
        thread.join(timeout=15)
        sock.close()
