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

from epdle.session.controller import Controller
from epdle.session.game import Game
from epdle.session.presenter import DevicePresenter
from epdle.solver import Solver
from epdle.solver.universe import Universe
from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import Settings, WebSession

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="session")
def solvers() -> Callable[[Settings], Solver]:
    """Solvers by settings, built once for every test that wants them."""
    return language_solvers(None)


_MADE: dict[tuple[str | None, Settings], Solver] = {}


def language_solvers(language: str | None) -> Callable[[Settings], Solver]:
    """Solvers by settings for the shipped English lists (None) or a language's
    five-letter dictionary words (as `epdle web --language`), built once per session."""

    def make(settings: Settings) -> Solver:
        key = (language, settings)
        if key not in _MADE:
            if language is None:
                solver = Solver(settings.strategy, settings.hard, settings.blind)
            else:
                universe = Universe.dictionary(language, 5)
                solver = Solver(settings.strategy, settings.hard, universe=universe)
            _MADE[key] = solver
        return _MADE[key]

    return make


@pytest.fixture
def web_session() -> Callable[..., WebSession]:
    """A new session (its game on `port`, `best` with `top` suggestions, in `language`'s
    words or the shipped English lists), not started."""

    def make(
        port: str = "sim://", hard: bool = False, top: int = 3, language: str | None = None
    ) -> WebSession:
        solvers = language_solvers(language)
        solver = solvers(Settings("best", hard, language is not None))
        return WebSession(Controller(Game(solver, top=top), DevicePresenter(port)), solvers)

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
