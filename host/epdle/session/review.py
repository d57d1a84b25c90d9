"""A finished game scored turn by turn against the helper's best move.

For each guess: the candidates before and after, the guesses the game was expected to
take from there with the best move and with the guess played, and two figures from 0 to
99 as WordleBot gives them. Skill: 99 when the guess was as good as the best move, less
by the expected guesses it gave away (a whole guess lost is 0; a guess after which an
answer can no longer be found within the guess limit gives away LOST guesses times the
chance of those colours, epdle.solver.limit). Luck: where the colours
that came fall among the ones that could have, weighted by how likely each was (99: no
outcome would have left fewer guesses to go; 0: none more). The game's skill is the
turns' average, given with and without the opener (a player who always opens with the
same word is judged on the rest); a hard-mode game is reviewed under hard mode's rule,
the best move included, and the review names the mode and the prior it weighed.

Each move is judged by what the game knew when it was played: the answer list it started
from until the colours left it (the game then went on over every accepted word, and so
does the review from that guess on, epdle.session.game), the helper's move being the first
suggestion `suggest` gives there. The helper's own moves, played as advised, score 99.

A guess's expected guesses are 1 plus, over the colours it can get (weighted by how
likely each is), an estimate of the guesses still to come from the candidates those
colours leave: exact for one or two; 2 less the likeliest share that a candidate telling
all the others apart has; else the search's rough cost of a set that size (its effective
size, where the candidates are weighted), at least 2 for a small set unless its likeliest
word is that likely. The figures shown are on the helper's own scale: the best move's is
the one `suggest` shows for it (epdle.solver.ranking.figure), the guess played's that
plus the difference the estimate finds. The helper is asked only for each turn's best
move, so a review takes a few of its moves however far the game strayed from its lists.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from weakref import WeakKeyDictionary

import numpy as np

from epdle.render.board import ROWS_SHOWN
from epdle.render.planes import Planes
from epdle.render.review import TurnFigures, render_review
from epdle.solver import HistoryError, Solver, parse_feedback
from epdle.solver.limit import LOST
from epdle.solver.names import mode_name
from epdle.solver.scoring import hard_mode_violation, is_solved, pattern_string, solved_code

if TYPE_CHECKING:
    from epdle.session.game import SolverFor
    from epdle.session.one_board import Game
    from epdle.solver.multi import MultiHistory, MultiSolver
    from epdle.solver.multi.engine import MultiState
    from epdle.solver.state import GameState
    from epdle.solver.universe import Universe

SPLIT_MAX = 64  # the largest set checked for a candidate that tells all the others apart
REVIEWS_KEPT = 8  # finished games' reviews kept per solver (for as long as it lives)
CANDIDATES_LISTED = 10  # a turn's likeliest candidates, listed with the review


_REVIEWS: WeakKeyDictionary[Solver, dict[tuple[tuple[str, str], ...], Review[TurnReview]]]
_REVIEWS = WeakKeyDictionary()


class ReviewError(ValueError):
    """A game the review cannot take (one-line message)."""


@dataclass(frozen=True)
class TurnReview:
    guess: str
    colours: str
    best: str  # the helper's move at this point
    left_before: int  # candidates before the guess
    left_after: int
    candidates: list[str]  # the likeliest of them (CANDIDATES_LISTED at most), likeliest first
    expected_best: float  # guesses to finish from here, the best move first
    expected_played: float  # guesses to finish from here, this guess first
    expected_after: float  # guesses still to come after this guess and its colours
    skill: int
    luck: int


@dataclass(frozen=True)
class BoardTurn:
    """One open board at a turn of several boards' game."""

    board: int  # from 1
    colours: str  # the guess's on this board
    left_before: int
    left_after: int
    candidates: list[str]  # the likeliest before the guess (CANDIDATES_LISTED at most)
    candidates_after: list[str]  # the likeliest left after it (as many)


@dataclass(frozen=True)
class BoardsTurnReview:
    """A turn of several boards' game: its figures are the whole game's (expected total
    guesses to finish every board), its luck the open boards' averaged."""

    guess: str
    best: str  # the several-board helper's move at this point
    boards: list[BoardTurn]  # the boards open before the guess, in order
    expected_best: float  # guesses the game was expected to take, the best move next
    expected_played: float  # the same, this guess next
    skill: int
    luck: int


TurnT = TypeVar("TurnT", TurnReview, BoardsTurnReview)


@dataclass(frozen=True)
class Review(Generic[TurnT]):
    turns: list[TurnT]
    solved: bool
    skill: int  # the turns' skill, averaged
    skill_after_opener: int | None  # the same without the first turn (None: one turn)
    luck: int
    mode: str  # as epdle.solver.names.mode_name gives it
    prior: str  # the prior's name, which words the answer is drawn from, how likely each is
    prior_name: str  # the prior's name alone, as --prior gives it
    # The guess whose colours left the answer list (its turn, from 1): from the next turn
    # on the moves are judged over every accepted word, as the game went on. None: never.
    widened_at: int | None = None
    hard_from_moves: bool = False  # hard mode read from the moves (every guess kept it)
    boards: int | None = None  # several boards' game: how many (its turns BoardsTurnReview)

    def as_json(self) -> dict[str, object]:
        """The review as JSON (`boards` only in several boards' review)."""
        found = asdict(self)
        if self.boards is None:
            del found["boards"]
        return found


class Reviewer:
    """Scores a game's turns against `solver`'s moves; with `wider` (the same mode over
    every accepted word, made when first needed), the turns after the colours left
    `solver`'s answer list against its moves, as the game itself went on."""

    def __init__(self, solver: Solver, wider: Callable[[], Solver] | None = None) -> None:
        self.solver = solver
        self.wider = wider

    def review(self, history: list[tuple[str, str]]) -> Review[TurnReview]:
        self._check(history)
        judge, state = self, self.solver.initial_state()
        turns, widened_at = [], None
        for number, (raw_guess, colours) in enumerate(history, start=1):
            guess = judge.solver.universe.lang.fold(raw_guess)
            after = judge.solver.apply(state, guess, colours)
            next_judge = judge
            if len(after.candidates) == 0 and judge.wider is not None:
                next_judge = Reviewer(judge.wider())
                after = next_judge.solver.state_after(history[:number])
                widened_at = number
            turns.append(judge._turn(state, guess, colours, after, next_judge))
            judge, state = next_judge, after
        solved = bool(history) and is_solved(history[-1][1])
        return summed(turns, solved, self.solver, widened_at)

    def _check(self, history: list[tuple[str, str]]) -> None:
        fits(history, self.solver, self.wider, HistoryError)

    def best_move(self, state: GameState) -> tuple[str, float | None]:
        """The helper's move at `state`, the first suggestion `suggest` gives there, and
        its expected guesses as `suggest` shows them (epdle.solver.ranking.figure)."""
        first = self.solver.advise(list(state.history), top=1).suggestions[0]
        return str(first.word), first.guesses

    def _turn(
        self, state: GameState, guess: str, colours: str, after: GameState, judge: Reviewer
    ) -> TurnReview:
        """The turn judged at `state`; `after`: the state its colours led to, as `judge`
        (this reviewer, or the wider one if they left the answer list) goes on from."""
        best, shown = self.best_move(state)
        played = self._outcomes(state, guess)
        expected_played, lost_played = self._expected_from(state, guess, played)
        expected_best, lost_best = (
            (expected_played, lost_played)
            if best == guess
            else self._expected_from(state, best, self._outcomes(state, best))
        )
        if colours in played:
            to_come = played[colours][1]
        else:  # colours no answer of the list gets: the answer is elsewhere
            to_come = 0.0 if after.solved else judge.expected(after.candidates)
        lost = max(0.0, expected_played + lost_played - expected_best - lost_best)
        # The best move's figure is the one `suggest` showed for it; the guess played is
        # given as many guesses more or fewer as the review's estimate finds (skill reads
        # only that difference).
        shift = 0.0 if shown is None else shown - expected_best
        return TurnReview(
            guess=guess,
            colours=colours,
            best=best,
            left_before=len(state.candidates),
            left_after=len(after.candidates),
            candidates=self.likeliest(state.candidates),
            expected_best=round(expected_best + shift, 2),
            expected_played=round(expected_played + shift, 2),
            expected_after=round(to_come, 2),
            skill=round(99 * max(0.0, 1.0 - lost)),
            luck=round(99 * luck_of(played, to_come)),
        )

    def likeliest(self, candidates: np.ndarray) -> list[str]:
        """The CANDIDATES_LISTED likeliest of `candidates`, likeliest first."""
        return likeliest(self.solver.universe, candidates)

    def _expected_from(
        self, state: GameState, guess: str, outcomes: dict[str, tuple[float, float]]
    ) -> tuple[float, float]:
        """(guesses to finish from `state` with `guess` first, the guesses it gives away
        to the guess limit: LOST times the chance of colours after which some candidate
        can no longer be found in time, epdle.solver.limit)."""
        index = self.solver.universe.guess_index[guess]
        length = self.solver.universe.length
        out_of_reach = self.solver.limit.lost_codes(state, index)
        lost = {pattern_string(code, length) for code in out_of_reach}
        expected = 1 + sum(share * after for share, after in outcomes.values())
        return expected, LOST * sum(outcomes[colours][0] for colours in lost)

    def _outcomes(self, state: GameState, guess: str) -> dict[str, tuple[float, float]]:
        """Per colours the guess can get: (their probability, guesses still to come)."""
        return outcomes(self.solver.universe, state.candidates, guess)

    def expected(self, candidates: np.ndarray) -> float:
        """Guesses still to come to find the answer among ``candidates`` (the estimate the
        module's docstring gives)."""
        return expected_to_come(self.solver.universe, candidates)


def likeliest(universe: Universe, candidates: np.ndarray) -> list[str]:
    """The CANDIDATES_LISTED likeliest of `candidates` (rows of `universe`'s answers),
    likeliest first."""
    order = np.argsort(-universe.weights[candidates], kind="stable")[:CANDIDATES_LISTED]
    return [universe.answers[i] for i in candidates[order]]


def outcomes(
    universe: Universe, candidates: np.ndarray, guess: str
) -> dict[str, tuple[float, float]]:
    """Per colours `guess` can get against `candidates`: (their probability, guesses
    still to come)."""
    codes = np.asarray(universe.patterns[candidates, universe.guess_index[guess]])
    order = np.argsort(codes, kind="stable")
    edges = np.flatnonzero(np.diff(codes[order])) + 1
    weights = universe.weights[candidates]
    total = float(weights.sum())
    solved = solved_code(universe.length)
    found = {}
    for part in np.split(order, edges):
        code = int(codes[part[0]])
        share = float(weights[part].sum()) / total
        after = 0.0 if code == solved else expected_to_come(universe, candidates[part])
        found[pattern_string(code, universe.length)] = (share, after)
    return found


def expected_to_come(universe: Universe, candidates: np.ndarray) -> float:
    """Guesses still to come to find the answer among ``candidates`` (the estimate the
    module's docstring gives)."""
    weights = universe.weights[candidates]
    shares = weights / weights.sum()
    if len(candidates) <= 2:
        return 1.0 + float(shares.min()) if len(candidates) == 2 else 1.0
    nonzero = shares[shares > 0]
    size = math.exp(-float((nonzero * np.log(nonzero)).sum()))  # the effective size
    rough = 2.0 - 1.0 / size if size <= 4 else 1.75 + 0.2 * math.log2(size / 4.0)
    if len(candidates) > SPLIT_MAX:
        return rough
    as_guesses = universe.guess_index_of_answers[candidates]
    codes = np.sort(np.asarray(universe.patterns[np.ix_(candidates, as_guesses)]), axis=0)
    told_apart = (np.diff(codes, axis=0) != 0).sum(axis=0) == len(candidates) - 1
    if told_apart.any():
        return 2.0 - float(shares[told_apart].max())
    # No candidate tells the others apart: at least two guesses for most of them, or
    # the likeliest one first and then the others, where it is likely enough.
    cap = max(2.0, rough)
    first = int(np.argmax(shares))
    share = float(shares[first])
    if 2.0 - share >= cap:
        return cap
    rest = expected_to_come(universe, np.delete(candidates, first))
    return min(cap, share + (1.0 - share) * (1.0 + rest))


def fits(
    history: Any,
    solver: Solver | MultiSolver,
    wider: Callable[[], Solver | MultiSolver] | None,
    error: type[ValueError],
) -> None:
    """ReviewError (the solver's message) unless the game fits `solver`'s answer list
    (every guess accepted, every colour possible), or every accepted word (`wider`) where
    the review may widen; `error`: what the solver raises for a history it cannot take."""
    try:
        solver.state_after(history)
    except error as problem:
        if wider is None:
            raise ReviewError(str(problem)) from None
        try:
            wider().state_after(history)
        except error as wider_problem:
            raise ReviewError(str(wider_problem)) from None


def luck_of(played: dict[str, tuple[float, float]], to_come: float) -> float:
    """Where guesses still to come `to_come` fall among those `played`'s colours could
    have left, 0 to 1 (1: none would have left fewer)."""
    worse = sum(share for share, other in played.values() if other > to_come + 1e-9)
    same = sum(share for share, other in played.values() if abs(other - to_come) <= 1e-9)
    return worse + same / 2


class BoardsReviewer:
    """Scores several boards' game (Dordle, Quordle, ...) against the several-board
    solver's moves as Reviewer does one board's: each move by what the game knew then
    (widening with `wider` where the colours left the answer list), skill by the expected
    total guesses it gave away (the estimate the solver ranks by, or its exact endgame
    search where that ranks the best move), luck per open board as one board's, averaged."""

    def __init__(self, solver: MultiSolver, wider: Callable[[], MultiSolver] | None) -> None:
        self.solver = solver
        self.wider = wider

    def review(self, history: MultiHistory) -> Review[BoardsTurnReview]:
        from epdle.solver.multi import MultiHistoryError

        fits(history, self.solver, self.wider, MultiHistoryError)
        solver, state = self.solver, self.solver.initial_state()
        turns, widened_at = [], None
        for number, (raw_guess, feedbacks) in enumerate(history, start=1):
            guess = solver.universe.lang.fold(raw_guess)
            after = solver.apply(state, guess, feedbacks)
            next_solver = solver
            if self.wider is not None and any(len(b.candidates) == 0 for b in after.boards):
                next_solver = self.wider()
                after = next_solver.state_after(history[:number])
                widened_at = number
            turn = self._turn(solver, state, guess, feedbacks, after, next_solver.universe)
            turns.append(turn)
            solver, state = next_solver, after
        solved = not after.open_boards() if history else False
        return summed(turns, solved, self.solver, widened_at, self.solver.boards)

    @staticmethod
    def _turn(
        solver: MultiSolver,
        state: MultiState,
        guess: str,
        feedbacks: Sequence[str | None],
        after: MultiState,
        after_universe: Universe,
    ) -> BoardsTurnReview:
        """The turn judged at `state`; `after`: the state its colours led to, over
        `after_universe` (the solver's, or every accepted word's if they left its list)."""
        universe = solver.universe
        ranked = solver.ranked(state)
        best = universe.guesses[ranked[0][0]]
        index = universe.guess_index[guess]
        expected_best = ranked[0][1]
        expected_played = next(
            (expected for each, expected, _ in ranked if each == index),
            None,
        )
        if expected_played is None:
            expected_played = solver.estimate(state, guess)
        boards, lucks = [], []
        for number in state.open_boards():
            before, now = state.boards[number], after.boards[number]
            colours = feedbacks[number]
            assert colours is not None  # an open board has its colours (state_after)
            played = outcomes(universe, before.candidates, guess)
            if colours in played:
                to_come = played[colours][1]
            else:  # colours no answer of the list gets: the answer is elsewhere
                solved = now.solved_in is not None
                to_come = 0.0 if solved else expected_to_come(after_universe, now.candidates)
            lucks.append(luck_of(played, to_come))
            boards.append(
                BoardTurn(
                    board=number + 1,
                    colours=colours,
                    left_before=len(before.candidates),
                    left_after=len(now.candidates),
                    candidates=likeliest(universe, before.candidates),
                    candidates_after=likeliest(after_universe, now.candidates),
                )
            )
        lost = 0.0 if best == guess else max(0.0, expected_played - expected_best)
        return BoardsTurnReview(
            guess=guess,
            best=best,
            boards=boards,
            expected_best=round(expected_best, 2),
            expected_played=round(expected_played, 2),
            skill=round(99 * max(0.0, 1.0 - lost)),
            luck=round(99 * sum(lucks) / len(lucks)),
        )


def summed(
    turns: list[TurnT],
    solved: bool,
    solver: Solver | MultiSolver,
    widened_at: int | None,
    boards: int | None = None,
) -> Review[TurnT]:
    """The game's review from its turns: their skill and luck averaged, the mode and the
    prior `solver` weighed."""
    return Review(
        turns,
        solved,
        skill=_average([t.skill for t in turns]),
        skill_after_opener=_average([t.skill for t in turns[1:]]) if len(turns) > 1 else None,
        luck=_average([t.luck for t in turns]),
        mode=mode_name(solver.hard, solver.blind),
        prior=solver.universe.prior_text,
        prior_name=solver.universe.prior_name,
        widened_at=widened_at,
        boards=boards,
    )


def _average(figures: list[int]) -> int:
    return round(sum(figures) / len(figures)) if figures else 0


def review_game(
    history: list[tuple[str, str]], solver: Solver, every_word: Callable[[], Solver]
) -> Review[TurnReview]:
    """The game's review by `solver`; the turns after its colours left the answer list
    are reviewed over every accepted word (`every_word()`), as the game itself went on."""
    if not history:
        raise ReviewError("the game has no guesses")
    return Reviewer(solver, None if solver.blind else every_word).review(history)


def keeps_hard_mode(history: list[tuple[str, str]]) -> bool:
    """Whether every guess after the first keeps hard mode's rule (a game of two guesses
    or more): a game played so may have been played in hard mode, and is reviewed so."""
    return len(history) > 1 and all(
        hard_mode_violation(history[:turn], guess) is None
        for turn, (guess, _) in enumerate(history)
    )


def game_review(
    history: tuple[tuple[str, str], ...], solver: Solver, solvers: SolverFor | None
) -> Review[TurnReview]:
    """review_game() for a game's solvers (`solvers`: the other modes', as the game has
    them), once per game: the device's frame, `play`'s line and the page's panel share it."""

    def every_word() -> Solver:
        return solver if solvers is None else solvers(solver.hard, True)

    done = _REVIEWS.setdefault(solver, {})
    if history not in done:
        if len(done) >= REVIEWS_KEPT:
            done.clear()
        done[history] = review_game(list(history), solver, every_word)
    return done[history]


def review_as_played(
    history: list[tuple[str, str]],
    solver: Solver,
    solvers: SolverFor | None,
    normal: bool = False,
) -> Review[TurnReview]:
    """The review of a game given from outside (a history, a shared grid), in `solver`'s
    mode, or in hard mode if every guess kept its rule (keeps_hard_mode) and `normal` does
    not say otherwise (`solvers`: the other modes')."""
    from_moves = solvers is not None and not (solver.hard or normal) and keeps_hard_mode(history)
    if from_moves and solvers is not None:
        solver = solvers(True, solver.blind)
    review = game_review(tuple(history), solver, solvers)
    return replace(review, hard_from_moves=True) if from_moves else review


def boards_review_as_played(
    history: MultiHistory,
    solver: MultiSolver,
    solvers: Callable[[bool, bool], MultiSolver] | None,
    normal: bool = False,
) -> Review[BoardsTurnReview]:
    """review_as_played() for several boards' game: in `solver`'s mode, or in hard mode
    if every guess kept one open board's hints and `normal` does not say otherwise, over
    every accepted word from the guess whose colours left the answer list."""
    if not history:
        raise ReviewError("the game has no guesses")
    from_moves = False
    if solvers is not None and not (solver.hard or normal) and len(history) > 1:
        from_moves = _boards_keep_hard_mode(history, solver.blind, solvers)
        if from_moves:
            solver = solvers(True, solver.blind)
    wider = None if solver.blind or solvers is None else _wider(solvers, solver.hard)
    review = BoardsReviewer(solver, wider).review(history)
    return replace(review, hard_from_moves=True) if from_moves else review


def _wider(solvers: Callable[[bool, bool], MultiSolver], hard: bool) -> Callable[[], MultiSolver]:
    return lambda: solvers(hard, True)


def _boards_keep_hard_mode(
    history: MultiHistory, blind: bool, solvers: Callable[[bool, bool], MultiSolver]
) -> bool:
    """Whether every guess keeps hard mode's rule of several boards (the hints of one
    open board at least), over the answer list or, where it left it, every word."""
    from epdle.solver.multi import MultiHistoryError

    for over_every_word in sorted({blind, True}):
        try:
            solvers(True, over_every_word).state_after(history)
        except MultiHistoryError as error:
            if "hard mode" in str(error):
                return False
            continue
        return True
    return False


def review_frame(game: Game) -> Planes | None:
    """The device's frame of a finished game's review (None if it has none)."""
    if not game.over or len(game.history) > ROWS_SHOWN:
        return None
    try:
        review = game_review(tuple(game.history), game.solver, game.solvers)
    except ReviewError:
        return None
    return review_planes(review)


def review_planes(review: Review[TurnReview]) -> Planes:
    """The device's frame of a review (ValueError: more rows than the panel shows)."""
    turns = [TurnFigures(t.guess, t.colours, t.skill, t.luck) for t in review.turns]
    return render_review(turns, review.skill, review.luck)


def grid_hard(grid: str) -> bool:
    """Whether a shared grid's title says the game was played in hard mode: its score
    marked with a star, "Wordle 1,234 4/6*" (or "X/6*")."""
    return any(
        part.endswith("*") and part[:-1].partition("/")[2].isdigit()
        for line in grid.splitlines()
        for part in line.split()
    )


def grid_history(grid: str, words: list[str]) -> list[tuple[str, str]]:
    """A shared grid's rows of squares ("Wordle 1,234 3/6" and blank lines skipped) with
    the words played, as (word, G/Y/B colours)."""
    rows = []
    for line in grid.splitlines():
        try:
            rows.append(parse_feedback(line.strip()))
        except ValueError:
            continue  # the title line, blank lines
    if len(rows) != len(words):
        raise ReviewError(f"the grid has {len(rows)} rows of squares but {len(words)} words")
    for word, row in zip(words, rows, strict=True):
        if len(word) != len(row):
            raise ReviewError(f"{word.upper()} has {len(word)} letters, its row {len(row)}")
    return [(word.lower(), row) for word, row in zip(words, rows, strict=True)]


def boards_review_planes(review: Review[BoardsTurnReview]) -> Planes:
    """The device's frame of several boards' review (ValueError: more rows than the panel
    shows)."""
    from epdle.render.boards_review import BoardsTurnFigures, render_boards_review

    turns = [
        BoardsTurnFigures(t.guess, sum(is_solved(b.colours) for b in t.boards), t.skill, t.luck)
        for t in review.turns
    ]
    return render_boards_review(turns, review.skill, review.luck)
