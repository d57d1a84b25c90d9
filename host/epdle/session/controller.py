"""What one input line does, shared by `play` (terminal), `daemon` (feed) and the page,
in a game of any kind: what differs between one board and several, the game answers
(epdle.session.one_board, epdle.session.boards); this module imports neither.

Flow: line -> game (solver advice) -> frames (renderer) -> presenter (link).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from epdle.link import Interrupted, LinkError
from epdle.render.planes import Planes
from epdle.session.commands import (
    Control,
    ControlLine,
    GuessLine,
    InputError,
    UnknownLine,
    parse_line,
)
from epdle.session.game import GameError, widened_note
from epdle.session.presenter import DevicePresenter, describe_event
from epdle.solver.names import mode_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rich.console import Console

    from epdle.session.game import GameBase

    AnyGame = GameBase[Any, Any, Any]

log = logging.getLogger("epdle.session")


@dataclass
class Outcome:
    """What happened, for the front end to show."""

    error: str | None = None
    changed: bool = False  # the game moved: show the new advice
    quit: bool = False
    help: bool = False
    notes: list[str] = field(default_factory=list)
    # How many of the notes come before the new advice (a reason to look at what was typed
    # before reading it); the others after.
    ahead: int = 0
    unknown: bool = False  # the line was neither a guess nor a command (a prompt offers help)


def record_finished(game: AnyGame) -> list[str]:
    """Today's game under the history prior, just finished: its answer recorded in the
    player's history (epdle.session.history), or after a loss how to give it. The notes."""
    history = getattr(getattr(game.solver, "universe", None), "history", None)
    if history is None or not game.over:
        return []
    from epdle.session.history import record_game, today
    from epdle.words.history import puzzle_number

    day = today()
    if history.puzzle != puzzle_number(day):  # a day replayed: not the player's
        return []
    if game.solved:
        note = record_game(game.history[-1][0], day)
        return [note] if note else []
    return [f"lost: `epdle history add {day} WORD` records the answer in your history"]


# Said with the widening: a colour typed wrong leaves the list as a new answer does.
CHECK_COLOURS = "a colour typed wrong does the same: check them, or 'undo'"


class Controller:
    def __init__(self, game: AnyGame, presenter: DevicePresenter) -> None:
        self.game = game
        self.presenter = presenter
        # A front end that shows the new advice before the device has it (the web page)
        # sets this: changes then only mark the device `behind`, and `catch_up()` pushes.
        self.defer_pushes = False
        self.behind = False

    def start(self) -> Outcome:
        """Put the opening advice on the device."""
        outcome = Outcome(changed=True)
        self._publish(outcome)
        return outcome

    def handle(self, line: str) -> Outcome:
        played = self.game.played_line(line)  # the kind's own notation first
        if played is not None:
            return self.play(*played)
        try:
            item = parse_line(line)
        except InputError as error:
            return Outcome(error=str(error), unknown=isinstance(error, UnknownLine))
        if item is None:
            return Outcome()
        if isinstance(item, GuessLine):
            return self.play(item.guess, item.feedback)
        return self._command(item)

    def play(self, word: str, colours: str) -> Outcome:
        """A played guess given as its word and colours apart (the web page sends them so)."""
        try:
            guess, move = self.game.move(word, colours)
        except InputError as error:
            return Outcome(error=str(error))
        return self._moved(guess, move)

    def command(self, control: Control, argument: int | None = None) -> Outcome:
        """A control word without parsing a line (undo, new, press, show N, ...)."""
        return self._command(ControlLine(control, argument))

    def _moved(self, guess: str, play: Callable[[], object]) -> Outcome:
        """Play ``guess`` by calling ``play``; the outcome, and the device told."""
        repeated = any(played == guess for played, _ in self.game.history)
        widened = self.game.widened
        try:
            play()
        except GameError as error:
            return Outcome(error=str(error))
        outcome = Outcome(changed=True)
        outcome.notes += record_finished(self.game)
        if self.game.widened and not widened:
            outcome.notes += [widened_note(self.game.lists), CHECK_COLOURS]
            outcome.ahead = 2
        if repeated:
            outcome.notes.append(
                f"warning: {guess.upper()} was already played: it tells nothing new"
            )
        self._publish(outcome)
        return outcome

    def _command(self, command: ControlLine) -> Outcome:
        control = command.control
        if control is Control.QUIT:
            return Outcome(quit=True)
        if control is Control.HELP:
            return Outcome(help=True)
        if control in (Control.UNDO, Control.NEW):
            try:
                self.game.undo() if control is Control.UNDO else self.game.new()
            except GameError as error:
                return Outcome(error=str(error))
            outcome = Outcome(changed=True)
            if control is Control.NEW:
                outcome.notes.append(self._new_game_note())
            self._publish(outcome)
            return outcome
        if control in (Control.HARD, Control.BLIND):
            return self._switch(control, command.argument)
        if control is Control.SHOW:
            return self._show(command.argument or 0)
        if control is Control.CANDIDATES:
            return self._candidates()
        return self._press()

    def _new_game_note(self) -> str:
        """The mode a new game keeps, and how to leave hard mode."""
        solver = self.game.solver
        note = f"new game in {mode_name(solver.hard, solver.blind)} mode"
        return note + (" ('normal' or 'hard off' for normal mode)" if solver.hard else "")

    def _switch(self, control: Control, argument: int | None) -> Outcome:
        """Hard mode or blind play on (argument 1, or none) or off (0)."""
        wanted = argument != 0
        try:
            if control is Control.HARD:
                self.game.switch(hard=wanted)
            else:
                self.game.switch(blind=wanted)
        except GameError as error:
            return Outcome(error=str(error))
        outcome = Outcome(changed=True, notes=[f"{control.value} mode {'on' if wanted else 'off'}"])
        self._publish(outcome)
        return outcome

    def _candidates(self) -> Outcome:
        return Outcome(notes=self.game.candidates_notes())

    def _show(self, number: int) -> Outcome:
        """Show suggestion `number` as numbered in the table (from 1)."""
        count = self.presenter.frame_count
        if not 1 <= number <= count:
            return Outcome(error=f"the device holds suggestions 1 to {count}")
        try:
            self.presenter.show(number - 1)
        except LinkError as error:
            return Outcome(error=f"device: {error}")
        return Outcome(notes=[f"showing suggestion {number} of {count}"])

    def _press(self) -> Outcome:
        try:
            events = self.presenter.press_and_wait()
        except LinkError as error:
            return Outcome(error=str(error))
        return Outcome(notes=[describe_event(e) for e in events])

    def catch_up(self) -> Outcome:
        """Push the current advice if a deferred change left the device behind."""
        outcome = Outcome()
        if self.behind:
            self.behind = False
            self._push(outcome)
        return outcome

    def frames(self) -> list[Planes]:
        """The frames the device should hold for the game now."""
        return self.game.frames()

    # -- the game as text: what `play` prints and the daemon logs --------------------------

    def help_text(self) -> str:
        """The commands' help, with this game's played line."""
        return self.game.help_text()

    def show(self, console: Console) -> None:
        """Print the game: the board so far, then the advice or the game's end."""
        self.game.show(console)

    def summary(self) -> str:
        """The game in one line, as the daemon logs it."""
        return self.game.summary()

    def _publish(self, outcome: Outcome) -> None:
        if self.defer_pushes:
            self.behind = True
            return
        self._push(outcome)

    def _push(self, outcome: Outcome) -> None:
        try:
            result = self.presenter.publish(self.frames())
        except Interrupted:  # the front end is stopping: no retry
            outcome.notes.append("device not updated: stopped")
            return
        except LinkError as error:
            outcome.notes.append(f"device not updated ({error}); will retry when it is back")
            log.warning("push failed: %s", error)
            return
        outcome.notes.append(
            f"device: {result.frames} frame(s), {result.payload_bytes} bytes "
            f"({result.bytes_on_wire} on the wire)"
        )
