"""The game a command plays, fixed once: its boards, strategy, mode, word lists, how
many suggestions a turn shows and whether the device may show them by fast updates
(`GameSpec`, made from the parsed arguments by epdle.cli.options.game_spec). The rules
that follow from the lists alone are here: which games are always blind, which may
widen past their answer list.

Numpy-free and typing-free: a one-shot `epdle suggest` reads its spec too.
"""

from __future__ import annotations

from epdle.named_tuple import NamedTuple
from epdle.solver.names import DEFAULT_STRATEGY, FREQUENCY_PRIOR, HISTORY_PRIOR, UNIFORM_PRIOR
from epdle.words.named import DEFAULT_LISTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")

    from epdle.solver import Solver
    from epdle.solver.history_prior import HistoryPrior
    from epdle.solver.multi import MultiSolver
    from epdle.solver.universe import Universe
    from epdle.words.languages import Language


class GameSpec(NamedTuple):
    """One game's settings, immutable: `in_mode` gives another mode's."""

    boards: int = 1
    strategy: str = DEFAULT_STRATEGY
    hard: bool = False
    blind: bool = False
    answers: str | None = None  # answer list file
    guesses: str | None = None  # accepted-guess list file
    keep_plurals: bool = False
    language: str | None = None
    length: int = 5
    top: int = 5
    # Every frame shown by a full refresh: the runner-ups carry no fast window.
    full_refresh: bool = False
    # The shipped answer list the game starts from (epdle.words.named), where no answers
    # file is given.
    lists: str = DEFAULT_LISTS
    # The prior over the candidates (epdle.solver.names.PRIORS): "frequency" plays blind
    # from the first guess (every accepted word, weighted as a blind game weighs them).
    prior: str = UNIFORM_PRIOR
    # The history prior's answers: a history file of one's own (None: the shipped history
    # with the player's), and the day played (None: today, by the local date). Nothing
    # dated that day or later is read.
    played: str | None = None
    date: str | None = None

    def by_boards(self, one: Callable[[], T], several: Callable[[], T]) -> T:
        """`one()` for one board's game, `several()` for several boards' (Dordle, Quordle,
        ...): the one place that tells them apart, asked by GameSetup.by_kind alone."""
        return several() if self.boards > 1 else one()

    @property
    def dictionary(self) -> bool:
        """A game on the shipped dictionary lists (another language or length)?"""
        return bool(self.language) or self.length != 5

    @property
    def shipped(self) -> bool:
        """The English game's shipped lists (a named answer list, `lists`, with the
        shipped guesses: no answers or guesses file, no other language or length): the
        games whose answer may still leave its answer list."""
        return not (self.answers or self.guesses or self.dictionary)

    @property
    def widens(self) -> bool:
        """Whether a game on these lists goes on with every accepted word when the feedback
        leaves the answer list: the shipped lists' alone (today's answer may be outside
        them; a list of one's own is taken at its word)."""
        return self.shipped

    @property
    def always_blind(self) -> bool:
        """Another language or length, without an answer list of one's own, or the
        frequency or history prior: blind whatever is asked (one solver per hard mode)."""
        return (self.dictionary and not self.answers) or self.prior in (
            FREQUENCY_PRIOR,
            HISTORY_PRIOR,
        )

    def in_mode(self, hard: bool, blind: bool, strategy: str | None = None) -> GameSpec:
        """This game in another mode (and strategy); blind where the lists or the prior
        always are (the one place that rule is applied: game_spec and GameSetup call it)."""
        return self._replace(
            hard=hard,
            blind=blind or self.always_blind,
            strategy=self.strategy if strategy is None else strategy,
        )

    def universe(self) -> Universe:
        """The words this game is played over. Lists of your own are read no further
        than the most words whose pattern matrix could fit (the answers first, then the
        guesses beside them): a huge list is refused before it is in memory."""
        from epdle import words
        from epdle.solver.universe import Universe
        from epdle.words.languages import language as lookup

        keep = self.keep_plurals
        if self.dictionary:
            # Another language or length: the shipped dictionary words, played blind under
            # the frequency prior (a list of answers of your own is played as given).
            lang = lookup(self.language)
            if not self.guesses and not self.answers:
                return Universe.dictionary(lang.code, self.length, keep_plurals=keep)
            shipped = words.language_list(lang.code, self.length, keep_plurals=keep)
            if self.answers:
                answer_words = self._read(self.answers, None, lang)
                blind = self.blind
            else:
                answer_words, blind = shipped.candidates, True
            guess_words = (
                self._read(self.guesses, len(answer_words), lang)
                if self.guesses
                else shipped.guesses
            )
            return Universe(
                guess_words, answer_words, language=lang.code, keep_plurals=keep, blind=blind
            )
        if self.prior == HISTORY_PRIOR:
            guess_list = list(words.guesses())
            return Universe(guess_list, None, history=self.history_prior(guess_list))
        answer_words = (
            self._read(self.answers, None) if self.answers else list(words.answers(self.lists))
        )
        # Blind, the guesses are the answers too.
        beside = None if self.blind else len(answer_words)
        guess_words = self._read(self.guesses, beside) if self.guesses else list(words.guesses())
        if self.blind:
            return Universe(guess_words, None, keep_plurals=keep)
        lists = None if self.answers or self.guesses else self.lists
        return Universe(guess_words, answer_words, keep_plurals=keep, lists=lists)

    def day(self) -> datetime.date:
        """The day played: `date`, else today by the local date."""
        from epdle.session.history import today
        from epdle.words.history import parse_date

        return parse_date(self.date) if self.date else today()

    def history_prior(self, guesses: list[str]) -> HistoryPrior:
        """The history prior of the day played, over `guesses`."""
        from epdle.session.history import known_history
        from epdle.solver.history_prior import history_prior

        return history_prior(guesses, known_history(self.played), self.day())

    def _read(self, path: str, answers: int | None, language: Language | None = None) -> list[str]:
        """A word list of your own, read no further than solver.patterns.most_words (the
        guesses beside `answers` answers, or None: the answers)."""
        from epdle import words
        from epdle.solver.patterns import most_words, too_many_words

        length = self.length if self.dictionary else None
        try:
            return words.read_word_file(
                path, length, language, most=most_words(self.length, answers)
            )
        except words.TooManyWords as error:
            raise too_many_words(error) from None

    def solver(
        self,
        universe: Universe | None = None,
        progress: Callable[[int, int], None] | None = None,
        tree_any_size: bool = False,
    ) -> Solver:
        """One board's solver for this spec (a `best` tree of a list of your own is
        built on first use, reporting to `progress`; for a long list only with
        `tree_any_size`: trees.load_or_build_tree)."""
        from epdle.solver import Solver

        universe = universe or self.universe()
        return Solver(
            self.strategy,
            self.hard,
            universe=universe,
            progress=progress,
            tree_any_size=tree_any_size,
        )

    def multi_solver(self, universe: Universe | None = None) -> MultiSolver:
        """The solver of this spec's boards, all at once."""
        from epdle.solver.multi import MultiSolver

        return MultiSolver(self.boards, hard=self.hard, universe=universe or self.universe())


def widen_past_list(
    work: Callable[[bool], T], may_widen: bool, history_error: Callable[[], type[Exception]]
) -> tuple[T, bool]:
    """`work(False)` on the answer list, else, where the feedback may leave it
    (`may_widen`: the shipped lists, not blind) and the solver's `history_error()` says
    it did, `work(True)` over every accepted word: the result, and whether it widened. The
    one place a game goes past its answer list (the games of every kind, `suggest`)."""
    try:
        return work(False), False
    except Exception as error:
        if not may_widen or not isinstance(error, history_error()):
            raise
    return work(True), True
