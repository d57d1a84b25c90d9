"""What one spec's games are made of: the solvers per mode, each made once and kept, and
new games. The solvers play over one word universe per answer pool (the answer list's,
the blind one's), shared by every strategy and mode: its pattern matrix (the blind one's
0.2 GiB) and its prior's weights are held once, not once per solver.
`GameSetup.game_kind()` is the one place that chooses one board's game or several
boards' (as pyserial picks a port's backend from its URL, once): the kind's module
(epdle.session.one_board, epdle.session.boards, with the same names) makes its solvers,
and its game answers what the one controller and the page ask. `GameSetup.by_kind` is
that choice for the commands with no game yet.

`play`, `daemon`, `demo`, `review` and the web page take a GameSetup; the rules it
applies are the spec's (always blind, the guess limit) and the game's (widening past the
answer list, switching modes: epdle.session.game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from epdle.named_tuple import NamedTuple
from epdle.session.spec import GameSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from epdle.session.boards import MultiGame
    from epdle.session.controller import Controller
    from epdle.session.one_board import Game
    from epdle.session.presenter import DevicePresenter
    from epdle.solver import Solver
    from epdle.solver.multi import MultiSolver
    from epdle.solver.universe import Universe

    AnySolver = Solver | MultiSolver
    T = TypeVar("T")

# (what is being done) -> a context giving a progress callback (None: nothing shown).
ProgressBar = Callable[[str], AbstractContextManager[Callable[[int, int], None] | None]]
# A solver's key among those made: (strategy, hard, blind).
ModeKey = tuple[str, bool, bool]


@contextmanager
def no_progress(_description: str) -> Iterator[None]:
    yield None


class GameKind(NamedTuple):
    """One board's game or several boards': the game of the kind's module."""

    game: type[Game] | type[MultiGame]


class GameSetup:
    """The games of one spec and the solvers they play with."""

    def __init__(
        self,
        spec: GameSpec,
        progress: ProgressBar = no_progress,
        made: dict[ModeKey, AnySolver] | None = None,
    ) -> None:
        self.spec = spec
        self._progress = progress
        # Solvers made so far by (strategy, hard, blind); `made` may be shared by setups
        # of the same word lists and boards.
        self._made: dict[ModeKey, AnySolver] = {} if made is None else made
        # The words played over, by blindness: the rest of a mode changes no word.
        self._universes: dict[bool, Universe] = {}

    def game_kind(self) -> GameKind:
        """One board's game, or several boards' (Dordle, Quordle, ...)."""
        return self.by_kind(_one_board, _several_boards)

    def by_kind(self, one: Callable[[], T], several: Callable[[], T]) -> T:
        """`one()` for one board's game, `several()` for several boards': the only place
        that chooses (the game kind, and the commands with no game yet: suggest, bench,
        demo, the options' checks)."""
        return self.spec.by_boards(one, several)

    @property
    def todays(self) -> bool:
        """Today's game as the Times plays it, the game the history prior is for: one board
        on the shipped English lists."""
        return self.spec.shipped and self.by_kind(lambda: True, lambda: False)

    def solver(self, hard: bool, blind: bool, strategy: str | None = None) -> AnySolver:
        """The solver of this game in a mode (and strategy), made on first use with its
        opening worked out, then kept: the blind one when the feedback leaves the answer
        list, others when the mode is switched. Blind where the lists always are."""
        spec = self.spec.in_mode(hard, blind, strategy)
        key = (spec.strategy, spec.hard, spec.blind)
        if key not in self._made:
            with self._progress("preparing the solver") as progress:
                made = self.game_kind().game.solver_of(spec, self._universe(spec), progress)
                made.advise([], top=1)  # the opening, worked out once here
            self._made[key] = made
        return self._made[key]

    def _universe(self, spec: GameSpec) -> Universe:
        """The words `spec` (this setup's in some mode) plays over, made on first use."""
        if spec.blind not in self._universes:
            self._universes[spec.blind] = spec.universe()
        return self._universes[spec.blind]

    def modes(self, strategy: str | None = None) -> Callable[[bool, bool], AnySolver]:
        """The solvers by (hard, blind) of one strategy (the spec's by default)."""
        return lambda hard, blind: self.solver(hard, blind, strategy)

    def new_game(self) -> Game | MultiGame:
        """A new game in the spec's mode (of `game_kind`), switching modes and widening
        with this setup's solvers."""
        spec, solvers = self.spec, self.modes()
        first = solvers(spec.hard, spec.blind)
        game = self.game_kind().game
        lists = spec.lists if spec.shipped else None  # None: an answer list of one's own
        return game(first, spec.top, solvers=solvers, widens=spec.widens, lists=lists)  # type: ignore[arg-type]

    def presenter(self, port: str) -> DevicePresenter:
        """What shows this game's frames on the device at `port`, full refreshes only
        if the spec says so."""
        from epdle.session.presenter import DevicePresenter

        return DevicePresenter(port, full_refresh=self.spec.full_refresh)

    def set_full_refresh(self, full_refresh: bool) -> GameSpec:
        """This setup's spec from now on, with every frame shown by a full refresh or not
        (the page's setting): the presenters of its games read it there."""
        self.spec = self.spec._replace(full_refresh=full_refresh)
        return self.spec

    def new_controller(self, presenter: DevicePresenter) -> Controller:
        """A new game and what handles its input lines, showing it on `presenter`."""
        from epdle.session.controller import Controller

        return Controller(self.new_game(), presenter)


def _one_board() -> GameKind:
    from epdle.session.one_board import Game

    return GameKind(Game)


def _several_boards() -> GameKind:
    from epdle.session.boards import MultiGame

    return GameKind(MultiGame)
