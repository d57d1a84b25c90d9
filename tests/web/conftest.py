"""Fixtures for the web tests: one game on the simulated board behind the app."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from starlette.testclient import TestClient

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
    """A new session (its game on `port`, `best` with three suggestions), not started."""

    def make(port: str = "sim://", hard: bool = False) -> WebSession:
        solver = solvers(Settings("best", hard, False))
        return WebSession(Controller(Game(solver, top=3), DevicePresenter(port)), solvers)

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
        yield test_client
