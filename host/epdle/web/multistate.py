"""The page's game of several boards (`epdle web --boards N`): the single game's session
with one colour group per board, the boards' states in the page's state, and the end
at N + 5 guesses (a guess past it is refused with 422)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from epdle.session.commands import InputError, parse_played
from epdle.session.controller import Controller
from epdle.session.game import GameError
from epdle.session.multicontroller import MultiController
from epdle.web.state import Reply, WebSession, language_of, prior_of
from epdle.words.named import list_name

if TYPE_CHECKING:
    from epdle.session.presenter import DevicePresenter
    from epdle.session.setup import GameSetup

# Of each board's candidates, the page lists the likeliest this many.
LISTED = 30


class MultiWebSession(WebSession):
    controller: MultiController

    def guess(self, word: str, colours: str, turn: int | None = None) -> Reply:
        """As the one board's, with one group of colours per board ('gybbb/bbbbb/-/ggyyb').
        One group alone is read as `play` reads the line 'tarse gybb': a malformed one gets
        the command line's refusal, not a count of groups."""
        moved_on = self._moved_on(turn)
        if moved_on is not None:
            return moved_on
        if "/" not in colours:
            try:
                parse_played(word, colours)
            except InputError as error:
                return Reply(str(error), 422)
        return self._finish(self.controller.play(word, colours), error_status=422)

    def _switch(self, strategy: str | None, hard: bool | None, blind: bool | None) -> Reply | bool:
        game = self.controller.game
        if strategy not in (None, MULTI_STRATEGY):
            return Reply(f"a game of several boards plays one strategy ({MULTI_STRATEGY})", 400)
        now = (game.solver.hard, game.solver.blind)
        wanted = (now[0] if hard is None else hard, now[1] if blind is None else blind)
        if wanted == now:
            return False
        try:
            game.switch(hard=wanted[0], blind=wanted[1])
        except GameError as error:
            return Reply(str(error), 409)
        return True

    def game_state(self) -> dict[str, Any]:
        game = self.controller.game
        advice = game.advice
        solver = game.solver
        return {
            "boards": game.boards,
            "history": [{"word": word, "colours": marks} for word, marks in game.history],
            "solved": game.solved,
            "lost": game.lost,  # the guesses ran out with a board open: the game is over
            "widened": game.widened,
            "answer_list": list_name(game.lists),
            **prior_of(solver),
            "length": solver.universe.length,
            "language": language_of(solver),
            "max_guesses": game.max_guesses,
            "board_states": [
                {
                    "solved_in": board.solved_in,
                    "candidates_left": board.candidates_left,
                    "candidates": board.candidates[:LISTED],
                }
                for board in advice.boards
            ],
            "suggestions": [
                {
                    "word": suggestion.word,
                    "expected_guesses": round(suggestion.expected_guesses, 2),
                    # the open boards' guesses summed, that it ranks by (None: an exact
                    # search near the end ranks by the expected guesses)
                    "board_guesses": None
                    if suggestion.board_guesses is None
                    else round(suggestion.board_guesses, 2),
                    "solves": [board + 1 for board in suggestion.solves],
                }
                for suggestion in advice.suggestions
            ],
            "settings": {
                "strategy": MULTI_STRATEGY,
                "hard": solver.hard,
                "blind": solver.blind,
                "top": game.top,
            },
            "strategies": [MULTI_STRATEGY],
        }


# What the page's strategy list names the several-board search.
MULTI_STRATEGY = "boards"


# The page's session for each kind of game's controller.
SESSIONS: dict[type[Controller], type[WebSession]] = {
    Controller: WebSession,
    MultiController: MultiWebSession,
}


def web_session(setup: GameSetup, presenter: DevicePresenter) -> WebSession:
    """The page's session of a new game of `setup`, on `presenter`'s device."""
    controller = setup.new_controller(presenter)
    return SESSIONS[type(controller)](controller, setup)
