"""The one game the page shows, around the controller `epdle play` uses.

Every call that touches the game or the device runs on one worker thread (the
`executor`), so the device hears one conversation at a time; the server awaits
those calls and sends each resulting state to every open page.
"""

from __future__ import annotations

import io
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, cast

from PIL import Image

from epdle.frames import decode
from epdle.link import LinkError
from epdle.odds import chance_shown, chance_text
from epdle.render.planes import Planes, planes_to_image
from epdle.session.commands import Control
from epdle.session.controller import Controller, Outcome
from epdle.session.game import GameError
from epdle.sim import board_behind
from epdle.solver import STRATEGIES
from epdle.solver.scoring import GAME_GUESSES
from epdle.words.named import list_name

if TYPE_CHECKING:
    from epdle.session.game import SolverFor
    from epdle.session.setup import GameSetup
    from epdle.solver import Solver
    from epdle.solver.multi import MultiSolver

log = logging.getLogger("epdle.web")

PANEL_SIZE = (212, 104)  # landscape, as every picture of the panel


@dataclass(frozen=True)
class Settings:
    strategy: str
    hard: bool
    blind: bool


@dataclass(frozen=True)
class Reply:
    """What one request did: an error (one line) with its HTTP status, or none."""

    error: str | None = None
    status: int = 200
    notes: tuple[str, ...] = ()


def settings_of(solver: Solver) -> Settings:
    return Settings(solver.strategy, solver.hard, solver.blind)


def language_of(solver: Solver | MultiSolver) -> dict[str, Any]:
    """What the page needs to take the game's letters: the alphabet, and the letters the
    language's Wordle folds onto others (French é -> e, œ -> oe)."""
    lang = solver.universe.lang
    return {
        "code": lang.code,
        "name": lang.name,
        "alphabet": lang.alphabet,
        "alphabet_text": lang.alphabet_text(),
        "folds": lang.folds,
    }


class WebSession:
    """The page's game: `controller`'s, of a game `setup` made (its solvers for every
    mode and strategy come from there)."""

    def __init__(self, controller: Controller, setup: GameSetup) -> None:
        self.controller = controller
        self.setup = setup
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="epdle-web")
        self.server_id = secrets.token_hex(4)  # a page tells a restarted server apart
        self.revision = 0  # bumped on every change a page should see
        self.panel_version = 0  # bumped whenever the device reports a frame shown
        self.panel_frame: int | None = None  # index of the frame on the panel
        self.device_error: str | None = None
        self._panel_png: tuple[int, bytes] | None = None
        # The last state taken on the session thread: pages read it without waiting for
        # the device (a push takes a few hundred ms).
        self.latest: dict[str, Any] | None = None
        controller.presenter.on_shown = self._shown
        # The page gets the new advice first; the push to the device follows (catch_up).
        controller.defer_pushes = True

    # -- everything below runs on the session thread ------------------------------------

    def _shown(self, index: int) -> None:
        self.panel_frame = index
        self.panel_version += 1

    def start(self) -> Reply:
        return self._finish(self.controller.start())

    def close(self) -> None:
        self.controller.presenter.close()

    def guess(self, word: str, colours: str, turn: int | None = None) -> Reply:
        """Play a guess; `turn` is the number of guesses the page saw (None: not checked).
        The game refuses (422) what it cannot take, hard mode's breaks in its words."""
        moved_on = self._moved_on(turn)
        if moved_on is not None:
            return moved_on
        return self._finish(self.controller.play(word, colours), error_status=422)

    def _moved_on(self, turn: int | None) -> Reply | None:
        """The refusal of a guess made on a page that saw ``turn`` guesses, if the game
        has moved on since."""
        played = len(self.controller.game.history)
        if turn is None or turn == played:
            return None
        return Reply(
            f"the game has moved on: {played} guess(es) played, the page saw {turn}; "
            "it shows the game as it is now",
            409,
        )

    def undo(self) -> Reply:
        return self._finish(self.controller.command(Control.UNDO), error_status=409)

    def new(self) -> Reply:
        return self._finish(self.controller.command(Control.NEW), error_status=409)

    def press(self) -> Reply:
        self.catch_up()  # the device first gets the set the page shows
        return self._finish(self.controller.command(Control.PRESS), error_status=409)

    def catch_up(self) -> bool:
        """Push the advice the page was just sent; True if the device was behind."""
        if not self.controller.behind:
            return False
        outcome = self.controller.catch_up()
        if self.controller.presenter.connected:
            self.device_error = None
        else:
            lost = [note for note in outcome.notes if note.startswith("device")]
            self.device_error = lost[0] if lost else "the device is not connected"
        self.revision += 1
        return True

    def change_settings(
        self,
        strategy: str | None,
        hard: bool | None,
        blind: bool | None,
        full_refresh: bool | None = None,
    ) -> Reply:
        """The game's strategy and rules, and whether the device shows every frame by a
        full refresh (`--full-refresh`); None keeps one as it is. If anything changed, the
        device gets its set anew."""
        switched = self._switch(strategy, hard, blind)
        if isinstance(switched, Reply):
            return switched
        presenter = self.controller.presenter
        refresh = full_refresh is not None and full_refresh != presenter.full_refresh
        if full_refresh is not None:
            presenter.full_refresh = full_refresh
        return self._finish(self.controller.start()) if switched or refresh else Reply()

    def _switch(self, strategy: str | None, hard: bool | None, blind: bool | None) -> Reply | bool:
        """The game switched to these settings: whether it changed, or the refusal."""
        game = self.controller.game
        now = settings_of(game.solver)
        wanted = Settings(
            now.strategy if strategy is None else strategy,
            now.hard if hard is None else hard,
            now.blind if blind is None else blind,
        )
        if wanted.strategy not in STRATEGIES:
            return Reply(
                f"unknown strategy {wanted.strategy!r}; one of {', '.join(STRATEGIES)}", 400
            )
        if wanted == now:
            return False
        try:
            solvers = cast("SolverFor", self.setup.modes(wanted.strategy))
            game.switch(wanted.hard, wanted.blind, solvers)
        except GameError as error:
            return Reply(str(error), 409)
        except (ValueError, OSError) as error:
            return Reply(f"cannot switch: {error}", 409)
        return True

    def poll(self) -> bool:
        """Look for device events (a button pressed on the real device, a reconnection);
        True if the page should be told something changed."""
        before = (self.panel_version, self.device_error)
        try:
            self.controller.presenter.poll_events(timeout=0.0)
        except LinkError as error:
            self.device_error = f"device lost ({error}); reconnecting"
        else:
            if self.controller.presenter.connected:
                self.device_error = None
            elif self.device_error is None:
                self.device_error = "the device is not connected; reconnecting"
        changed = (self.panel_version, self.device_error) != before
        if changed:
            self.revision += 1
        return changed

    def _finish(self, outcome: Outcome, error_status: int = 400) -> Reply:
        if outcome.error:
            return Reply(outcome.error, error_status, tuple(outcome.notes))
        self.revision += 1
        return Reply(notes=tuple(outcome.notes))

    def snapshot(self) -> dict[str, Any]:
        """The state now, kept as `latest` (session thread)."""
        self.latest = self.state()
        return self.latest

    def cached_panel_png(self) -> tuple[int, bytes] | None:
        """The panel PNG if it is still the one on the panel (any thread)."""
        cached = self._panel_png
        return cached if cached is not None and cached[0] == self.panel_version else None

    def state(self) -> dict[str, Any]:
        return {
            "server": self.server_id,
            "revision": self.revision,
            **self.game_state(),
            "device": self.device_state(),
        }

    def game_state(self) -> dict[str, Any]:
        """The game and its advice, as the page shows them."""
        game = self.controller.game
        advice = game.advice
        solver = game.solver
        chances = chance_shown(advice.candidates_left, len(game.history))
        return {
            "history": [{"word": w, "colours": f} for w, f in game.history],
            "solved": game.solved,
            "lost": game.lost,  # every guess played without the answer: the game is over
            "widened": game.widened,  # the feedback left the answer list: every word counts
            "answer_list": list_name(game.lists),  # the shipped list the game started from
            "prior": solver.universe.prior_text,  # the prior and, for history, how old
            "length": solver.universe.length,
            "language": language_of(solver),
            "max_guesses": GAME_GUESSES,
            "candidates_left": advice.candidates_left,
            "candidates": advice.candidates,
            "suggestions": [
                {
                    "word": s.word,
                    "bits": round(s.bits, 3),
                    "expected_left": round(s.expected_left, 2),
                    "could_win": s.is_candidate,
                    # `best`'s expected guesses to finish, that it ranks by
                    # (epdle.solver.ranking.figure), and what gave it
                    "guesses": None if s.guesses is None else round(s.guesses, 2),
                    "guesses_from": s.source,
                    # on the last guesses, its chance to win ("1 in 4"; None: not shown)
                    "chance": (chance_text(s.chance) or None) if chances else None,
                }
                for s in advice.suggestions
            ],
            "settings": {**asdict(settings_of(solver)), "top": game.top},
            "strategies": list(STRATEGIES),
        }

    def device_state(self) -> dict[str, Any]:
        """The device and the panel, as the page shows them."""
        presenter = self.controller.presenter
        return {
            "port": presenter.port,
            "simulated": presenter.port.startswith("sim://"),
            "connected": presenter.connected,
            "updating": self.controller.behind,  # the push of this advice is to come
            "full_refresh": presenter.full_refresh,  # no fast updates of the runner-ups
            "error": self.device_error,
            "frames": presenter.frame_count,
            "panel_frame": None if self.panel_frame is None else self.panel_frame + 1,
            "panel_version": self.panel_version,
        }

    def panel_png(self) -> tuple[int, bytes]:
        """(version, PNG) of what the panel shows: the simulated panel itself, or on a real
        device the frame it last reported showing."""
        version = self.panel_version
        cached = self.cached_panel_png()
        if cached is not None:
            return cached
        image = self._panel_image()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=True)
        self._panel_png = (version, buffer.getvalue())
        return self._panel_png

    def _panel_image(self) -> Image.Image:
        presenter = self.controller.presenter
        device = presenter.device
        board = board_behind(device.serial) if device is not None else None
        if board is not None:
            return board.panel_image()
        if self.panel_frame is not None and self.panel_frame < presenter.frame_count:
            black, red = decode(presenter.frame(self.panel_frame))
            return planes_to_image(Planes(black=black, red=red))
        return Image.new("RGB", PANEL_SIZE, "white")
