"""What every game shares, one board's or several boards' (epdle.session.one_board,
epdle.session.boards): guesses so far, and the solver's advice for the next one.

The default serves today's game: the solver's answer list (a named shipped list, the
2023 one by default) is used while the feedback fits it; when it leaves the list, the game
goes on with every accepted word weighted by how common it is (the blind solver), without
a restart (spec.widen_past_list, the one place that rule is written). Hard mode and blind play
can be switched during a game: the history is replayed under the new rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from epdle.session.spec import widen_past_list
from epdle.words.named import DEFAULT_LISTS, list_name

if TYPE_CHECKING:
    from rich.console import Console

    from epdle.render.planes import Planes
    from epdle.solver import Solver
    from epdle.solver.universe import Universe

# (hard, blind) -> a solver of the same words and strategy (the caller keeps them).
SolverFor = Callable[[bool, bool], "Solver"]


def widened_note(lists: str | None) -> str:
    """The one line that says a game on the named shipped list has left it."""
    return (
        f"no answer of {list_name(lists)} fits: going on with every accepted word, "
        "the common ones first"
    )


class GameError(ValueError):
    """A guess the game cannot take (one-line message); the game is unchanged."""


class _Solving(Protocol):
    """What a game asks of its solver (one board's or several boards')."""

    @property
    def hard(self) -> bool: ...
    @property
    def blind(self) -> bool: ...
    @property
    def universe(self) -> Universe: ...
    def advise(self, history: Any, top: int = 5) -> Any: ...
    def state_after(self, history: Any) -> Any: ...


SolverT = TypeVar("SolverT", bound=_Solving)
AdviceT = TypeVar("AdviceT")
TurnT = TypeVar("TurnT")


@dataclass
class GameBase(Generic[SolverT, AdviceT, TurnT]):
    """Guesses so far under a solver, and its advice: what one board's game and several
    boards' share (widening past the answer list, playing, undo, switching modes)."""

    solver: SolverT
    top: int = 5
    history: list[TurnT] = field(default_factory=list)
    # Solvers for other modes: without it the game neither widens nor switches modes.
    solvers: Callable[[bool, bool], SolverT] | None = None
    # Whether the feedback may leave the answer list (GameSpec.widens: the shipped lists).
    widens: bool = True
    # The named shipped list the game starts from (GameSpec.lists), for widened_note and
    # the terminal's heading; None for an answer list of one's own.
    lists: str | None = DEFAULT_LISTS
    # True once the feedback has left the solver's answer list (blind solver in use).
    widened: bool = field(default=False, init=False)
    # Set by a front end with lines waiting (the daemon's backlog): a played guess is only
    # checked (the history replayed), its advice worked out when next asked for.
    defer_advice: bool = field(default=False, init=False)
    _advice: AdviceT | None = field(default=None, init=False, repr=False)

    @property
    def advice(self) -> AdviceT:
        if self._advice is None:
            self._advice, self.widened = self._advise(self.history)
        return self._advice

    @property
    def solved(self) -> bool:
        raise NotImplementedError

    @property
    def max_guesses(self) -> int:
        raise NotImplementedError

    @property
    def lost(self) -> bool:
        """Every guess the game allows played, and not solved: the game is over."""
        return len(self.history) >= self.max_guesses and not self.solved

    @property
    def over(self) -> bool:
        return self.solved or self.lost

    def _history_error(self) -> type[ValueError]:
        """What the solver raises, worded for the user, for a history it cannot take."""
        raise NotImplementedError

    def _advise(self, history: list[TurnT]) -> tuple[AdviceT, bool]:
        """The advice for ``history`` and whether it had to widen; GameError if no mode
        can take it."""
        advice: AdviceT
        advice, widened = self._in_a_mode(lambda solver: solver.advise(history, top=self.top))
        return advice, widened

    def _check(self, history: list[TurnT]) -> bool:
        """Whether ``history`` needs the wider list, as _advise finds it (GameError if no
        mode can take it), without working out the advice (the history replayed)."""
        return self._in_a_mode(lambda solver: solver.state_after(history))[1]

    def _in_a_mode(self, work: Callable[[SolverT], Any]) -> tuple[Any, bool]:
        """``work(solver)`` with the game's solver, else with the wider one, and whether it
        had to widen; GameError if neither takes the history."""
        history_error = self._history_error()
        solvers, solver = self.solvers, self.solver
        may_widen = solvers is not None and self.widens and not solver.blind
        try:  # the feedback left the answer list, or the history is wrong for any list
            return widen_past_list(
                lambda wide: work(solvers(solver.hard, True) if wide and solvers else solver),
                may_widen,
                self._history_error,
            )
        except history_error as error:
            raise GameError(str(error)) from None

    def _play(self, turn: Callable[[str], TurnT], guess: str) -> AdviceT | None:
        """Add the turn of a played guess; raises GameError (game unchanged) if it cannot be.
        Its advice back, None when deferred (defer_advice)."""
        if self.solved:
            raise GameError("this game is solved: type 'new' to start another")
        if self.lost:
            raise GameError(
                f"this game is over: all {self.max_guesses} guesses are played; "
                "type 'new' to start another"
            )
        # As the game's language spells it (French drops accents): the board shows that.
        candidate = [*self.history, turn(self.solver.universe.lang.fold(guess))]
        if self.defer_advice:
            self.widened = self._check(candidate)
            self.history, self._advice = candidate, None
            return None
        advice, widened = self._advise(candidate)
        self.history = candidate
        self._advice, self.widened = advice, widened
        return advice

    def every_word(self) -> SolverT:
        """The solver of this game's mode over every accepted word (blind)."""
        if self.solvers is None:
            raise GameError("this game cannot change modes")
        return self.solvers(self.solver.hard, True)

    def undo(self) -> AdviceT | None:
        if not self.history:
            raise GameError("nothing to undo")
        self.history = self.history[:-1]
        self._advice = None
        return None if self.defer_advice else self.advice

    def new(self) -> AdviceT | None:
        self.history = []
        self._advice = None
        return None if self.defer_advice else self.advice

    def switch(
        self,
        hard: bool | None = None,
        blind: bool | None = None,
        solvers: Callable[[bool, bool], SolverT] | None = None,
    ) -> AdviceT:
        """Go on under other rules (hard mode, blind from the start; `solvers`: another
        strategy's); the history is replayed. GameError, game unchanged, if it cannot be
        (a guess breaks hard mode)."""
        solvers = solvers or self.solvers
        if solvers is None:
            raise GameError("this game cannot change modes")
        hard = self.solver.hard if hard is None else hard
        blind = self.solver.blind if blind is None else blind
        replay = type(self)(
            solvers(hard, blind), self.top, list(self.history), solvers, self.widens, self.lists
        )
        try:
            advice = replay.advice
        except GameError as error:
            raise GameError(f"cannot switch: {error}") from None
        self.solver, self.solvers = replay.solver, solvers
        self.widened, self._advice = replay.widened, advice
        return advice

    # -- what the controller and the page ask: each kind's answer, in its module ----------

    def played_line(self, line: str) -> tuple[str, str] | None:
        """A line that is a played guess in this kind's own notation, as (word, colours);
        None: read as every kind reads a line (commands.parse_line)."""
        raise NotImplementedError

    def move(self, word: str, colours: str) -> tuple[str, Callable[[], object]]:
        """A played guess as typed: the guess, and what plays it (InputError if the line
        cannot be one)."""
        raise NotImplementedError

    def candidates_notes(self) -> list[str]:
        """The words still possible, as `candidates` prints them."""
        raise NotImplementedError

    def frames(self) -> list[Planes]:
        """The frames the device should hold for the game now."""
        raise NotImplementedError

    def help_text(self) -> str:
        """The commands' help, with this game's played line."""
        raise NotImplementedError

    def show(self, console: Console) -> None:
        """Print the game: the board so far, then the advice or the game's end."""
        raise NotImplementedError

    def summary(self) -> str:
        """The game in one line, as the daemon logs it."""
        raise NotImplementedError

    @property
    def strategy_name(self) -> str:
        """The strategy as the page names it."""
        raise NotImplementedError

    def strategy_refusal(self, strategy: str | None) -> str | None:
        """Why the page cannot switch this game to `strategy` (None: it can)."""
        raise NotImplementedError

    def switch_settings(
        self, strategy: str, hard: bool, blind: bool, modes: Callable[[str], Any]
    ) -> None:
        """The page's settings: switch (GameError) with `modes(strategy)`'s solvers where
        the kind has strategies."""
        raise NotImplementedError

    def page_state(self) -> dict[str, Any]:
        """The game and its advice, as the page shows them."""
        raise NotImplementedError


def language_state(universe: Universe) -> dict[str, Any]:
    """What the page needs to take the game's letters: the alphabet, and the letters the
    language's Wordle folds onto others (French é -> e, œ -> oe)."""
    lang = universe.lang
    return {
        "code": lang.code,
        "name": lang.name,
        "alphabet": lang.alphabet,
        "alphabet_text": lang.alphabet_text(),
        "folds": lang.folds,
    }
