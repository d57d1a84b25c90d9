"""Fixtures for the web tests: one game on the simulated board behind the app."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from web_support import settle

from epdle.session.controller import Controller
from epdle.session.game import Game
from epdle.session.presenter import DevicePresenter
from epdle.solver import Solver
from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import Settings, WebSession

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="session")
def solvers() -> Callable[[Settings], Solver]:
    """Solvers by settings, built once for every test that wants them."""
    made: dict[Settings, Solver] = {}

    def make(settings: Settings) -> Solver:
        if settings not in made:
            made[settings] = Solver(settings.strategy, settings.hard, settings.blind)
        return made[settings]

    return make


@pytest.fixture
def web_session(solvers: Callable[[Settings], Solver]) -> Callable[..., WebSession]:
    """A new session (its game on `port`, `best` with `top` suggestions), not started."""

    def make(port: str = "sim://", hard: bool = False, top: int = 3) -> WebSession:
        solver = solvers(Settings("best", hard, False))
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
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    session = web_session(top=5)
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
