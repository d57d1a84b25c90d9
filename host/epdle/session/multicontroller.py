"""What one input line does in a game of several boards: the controller of `play`,
`daemon` and the page, with a played line that gives one colour group per board
('crane gybbb/bbbbb/-/ggggg') and the several-board frames.
"""

from __future__ import annotations

import re

from epdle.render.multi import render_multi
from epdle.render.planes import Planes
from epdle.session.commands import HELP_TEXT, GuessLine, InputError, UnknownLine, parse_line
from epdle.session.controller import Controller, Outcome
from epdle.session.multigame import MultiGame
from epdle.session.presenter import DevicePresenter
from epdle.session.screens import panel_mode
from epdle.solver.scoring import quoted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.console import Console

MULTI_HELP = """\
  <guess> <colours>   what you played and each board's colours, in board order,
                      separated by /, - for a board already solved, e.g.
                        crane gybbb/bbbbb/-/ggyyb
                        crane 21000/00000/-/22110
                      (G/2 green, Y/1 yellow, B/0 grey; the open boards' alone will do)"""


def multi_help() -> str:
    """The commands' help with the played line of several boards."""
    return MULTI_HELP + HELP_TEXT[HELP_TEXT.index("\n  undo") :]


_SPLIT = re.compile(r"[\s:=,]+")


class MultiController(Controller):
    game: MultiGame  # type: ignore[assignment]  # the same controls, several boards

    def __init__(self, game: MultiGame, presenter: DevicePresenter) -> None:
        super().__init__(game, presenter)  # type: ignore[arg-type]

    def handle(self, line: str) -> Outcome:
        parts = [part for part in _SPLIT.split(line.strip()) if part]
        if len(parts) >= 2 and "/" in line:
            # 'crane gybbb/bbbbb', also with spaces around the slashes; no command has a
            # slash, so a guess such as BLIND is a guess here
            return self.play(parts[0], "".join(parts[1:]))
        try:
            item = parse_line(line)
        except InputError as error:
            return Outcome(error=str(error), unknown=isinstance(error, UnknownLine))
        if isinstance(item, GuessLine):  # one group of colours: the one open board's
            return self.play(item.guess, item.feedback)
        return super().handle(line)

    def play(self, word: str, colours: str) -> Outcome:
        guess = word.strip().lower()
        if not guess.isalpha():
            return Outcome(error=f"guess {quoted(word)} must be letters only")
        return self._moved(guess, lambda: self.game.play_colours(guess, colours))

    def _candidates(self) -> Outcome:
        from epdle.session.multiterminal import boards_candidates_text

        return Outcome(notes=boards_candidates_text(self.game))

    def frames(self) -> list[Planes]:
        return render_multi(self.game.advice, self.game.top, panel_mode(self.game))

    def help_text(self) -> str:
        return multi_help()

    def show(self, console: Console) -> None:
        from epdle.session.multiterminal import show_game

        show_game(console, self.game)

    def summary(self) -> str:
        from epdle.session.multiterminal import boards_summary

        return boards_summary(self.game)
