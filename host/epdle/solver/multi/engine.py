"""MultiSolver: one guess for every unsolved board, chosen to finish them all soonest.

Each board keeps its own candidates (and, in hard mode, its own rule: the history check
and every guess proposed keep at least one open board's rule, as multi/hard_rule.py
defines once); a guess is scored by the sum over the open boards of the guesses each
would still need on its own after it (the single game's cost curve over its feedback
buckets). A board down to one word is played first (that guess must come anyway, and it
tells about the others). Once few words are left on the open boards, the endgame is
searched exactly instead (epdle.solver.multi.endgame; in hard mode with each board's
rule as the feedback inside the search narrows it). Near the limit a guard keeps to
guesses after which every board can still be finished in time.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from epdle.solver.cache import cache_dir, write_atomically
from epdle.solver.multi.advice import BoardAdvice, MultiAdvice, MultiSuggestion
from epdle.solver.multi.endgame import EndgameSearch
from epdle.solver.multi.hard_rule import HardRule
from epdle.solver.multi.history import (
    MultiHistory,
    MultiHistoryError,
    check_boards,
    guess_limit,
)
from epdle.solver.ranking.stats import bucket_blocks
from epdle.solver.scoring import hard_mode_violation, quoted
from epdle.solver.settings import TIE_ORDER, cost_curve
from epdle.solver.state import GameState, apply, checked_guess
from epdle.solver.universe import Universe

# The endgame is searched exactly (epdle.solver.multi.endgame) once the open boards hold
# at most ENDGAME_WORDS candidates in all, over their words and the ENDGAME_PROBES best
# other guesses by the estimate, within ENDGAME_STATES states.
ENDGAME_WORDS = 12
ENDGAME_PROBES = 8
ENDGAME_STATES = 4000
# First guesses kept in the disk cache (ranked for one board).
OPENING_KEPT = 50
# Candidates listed per board (likeliest first).
LISTED = 100
# With at most this many guesses to spare over the open boards, a guess must leave every
# board finishable in time by playing its words in turn; with none to spare, only words
# that may solve a board are played.
GUARD_SPARE = 1

# A ranked guess: (guess index, expected total guesses, what it is ranked by: the guesses
# the open boards would still need, summed; None where the endgame's exact search ranks).
Ranked = tuple[int, float, float | None]


@dataclass(frozen=True)
class BoardState:
    candidates: np.ndarray  # indexes into universe.answers
    solved_in: int | None = None  # the guess (1-based) that solved it
    history: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MultiState:
    boards: tuple[BoardState, ...]
    used: int  # guesses played

    def open_boards(self) -> list[int]:
        return [index for index, board in enumerate(self.boards) if board.solved_in is None]


class MultiSolver:
    """Next-guess advice for a game of `boards` boards over one word universe
    (`endgame=False`: the estimate ranks to the end, without the exact endgame search;
    what a benchmark measures the search against)."""

    def __init__(
        self,
        boards: int,
        *,
        hard: bool = False,
        blind: bool = False,
        universe: Universe | None = None,
        keep_plurals: bool = False,
        endgame: bool = True,
    ) -> None:
        self.boards = check_boards(boards)
        self.max_guesses = guess_limit(boards)
        self.hard = hard
        self.endgame = endgame
        self.universe = universe or Universe.shipped(blind=blind, keep_plurals=keep_plurals)
        self.blind = self.universe.blind
        self._cost = np.array(cost_curve(len(self.universe.answers)))
        self._cost[1:] /= np.arange(1, len(self._cost))  # guesses per word of a bucket
        self._opening: list[Ranked] | None = None

    # -- history -> state -------------------------------------------------------------

    def initial_state(self) -> MultiState:
        everyone = np.arange(len(self.universe.answers))
        return MultiState(tuple(BoardState(everyone) for _ in range(self.boards)), 0)

    def state_after(self, history: MultiHistory) -> MultiState:
        """Replay a parsed history; raise MultiHistoryError naming the first wrong guess."""
        state = self.initial_state()
        for turn, (raw_guess, feedbacks) in enumerate(history, start=1):
            guess = checked_guess(self.universe, turn, raw_guess, MultiHistoryError)
            where = f"guess {turn} {quoted(guess)}"
            if len(feedbacks) != self.boards:
                raise MultiHistoryError(f"{where}: {len(feedbacks)} feedbacks for {self.boards}")
            if turn > self.max_guesses:
                raise MultiHistoryError(f"{where}: the game allows {self.max_guesses} guesses")
            self._check_hard_mode(state, guess, where)
            for board, (board_state, feedback) in enumerate(
                zip(state.boards, feedbacks, strict=True), start=1
            ):
                if (feedback is None) != (board_state.solved_in is not None):
                    said = "solved" if feedback is None else "open"
                    raise MultiHistoryError(f"{where}: board {board} is not {said}")
            state = self.apply(state, guess, feedbacks)
            for board, board_state in enumerate(state.boards, start=1):
                if len(board_state.candidates) == 0:
                    words = "accepted word" if self.blind else "word of the answer list"
                    raise MultiHistoryError(
                        f"{where}: board {board}: no {words} fits its feedback so far"
                    )
        return state

    def apply(self, state: MultiState, guess: str, feedbacks: Sequence[str | None]) -> MultiState:
        """The state after `guess` got `feedbacks` (None on boards already solved)."""
        used = state.used + 1
        boards = []
        for board, feedback in zip(state.boards, feedbacks, strict=True):
            if feedback is None or board.solved_in is not None:
                boards.append(board)
                continue
            one = GameState(board.history, board.candidates, None)
            after = apply(self.universe, one, guess, feedback)  # as one board's game
            solved = used if after.solved else None
            boards.append(BoardState(after.candidates, solved, after.history))
        return MultiState(tuple(boards), used)

    def playable(self, state: MultiState) -> np.ndarray:
        """Which guesses may be played next (mask over universe.guesses): in hard mode
        those keeping all the hints of at least one open board (HardRule.playable)."""
        if not self.hard:
            return HardRule.playable(self.universe, [])
        rules = [HardRule.of(state.boards[index].history) for index in state.open_boards()]
        return HardRule.playable(self.universe, rules)

    def _check_hard_mode(self, state: MultiState, guess: str, where: str) -> None:
        """MultiHistoryError when `guess` keeps the hints of no open board (playable),
        naming how it breaks each board's."""
        if not self.hard or self.playable(state)[self.universe.guess_index[guess]]:
            return
        reasons = "; ".join(
            f"board {board + 1}: {hard_mode_violation(state.boards[board].history, guess)}"
            for board in state.open_boards()
        )
        raise MultiHistoryError(
            f"{where}: hard mode: it keeps the hints of no open board ({reasons})"
        )

    # -- advice ---------------------------------------------------------------------------

    def advise(self, history: MultiHistory, top: int = 5) -> MultiAdvice:
        """Ranked next guesses and each board's state for a parsed history."""
        state = self.state_after(history)
        boards = [self._board_advice(board) for board in state.boards]
        open_boards = state.open_boards()
        left = self.max_guesses - state.used
        solved = not open_boards
        lost = bool(open_boards) and left <= 0
        suggestions: list[MultiSuggestion] = []
        if not solved and not lost:
            for guess, expected, summed in self.ranked(state)[: max(1, top)]:
                word = self.universe.guesses[guess]
                solves = tuple(
                    index
                    for index in open_boards
                    if self._is_candidate(guess, state.boards[index].candidates)
                )
                suggestions.append(MultiSuggestion(word, expected, solves, summed))
        return MultiAdvice(suggestions, boards, state.used, left, solved, lost)

    def next_guess(self, state: MultiState) -> str:
        return self.universe.guesses[self.ranked(state)[0][0]]

    def estimate(self, state: MultiState, guess: str) -> float:
        """The expected total guesses of the game with `guess` played next, by the
        estimate that ranks (_combine), whether or not it is among the guesses ranked."""
        pool = np.array([self.universe.guess_index[guess]])
        open_boards = [state.boards[index] for index in state.open_boards()]
        per_board = [self._board_costs(board.candidates, pool) for board in open_boards]
        return self._combine(state, pool, per_board)[0][1]

    def _board_advice(self, board: BoardState) -> BoardAdvice:
        weights = self.universe.weights[board.candidates]
        order = np.argsort(-weights, kind="stable")[:LISTED]
        words = [self.universe.answers[board.candidates[i]] for i in order]
        return BoardAdvice(board.solved_in, len(board.candidates), words)

    def _is_candidate(self, guess: int, candidates: np.ndarray) -> bool:
        row = self.universe.answer_of_guess[guess]
        return bool(row >= 0 and np.any(candidates == row))

    # -- ranking --------------------------------------------------------------------------

    def ranked(self, state: MultiState) -> list[Ranked]:
        """(guess index, expected total guesses, the boards' guesses summed that it is
        ranked by), best first (the opening's memoised)."""
        if state.used == 0:
            if self._opening is None:
                pool, costs, chance, worst = self._opening_costs()
                per_board = [(costs, chance, worst)] * self.boards
                self._opening = self._combine(state, pool, per_board)
            return self._opening
        return self._ranked(state)

    def _opening_costs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The leading first guesses of one board and their _board_costs, from the disk
        cache (the same for every number of boards and mode: nothing is known yet)."""
        path = cache_dir() / f"multi-opening-{self.universe.key}-{TIE_ORDER}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            columns = [np.array(data[name]) for name in ("guesses", "costs", "open", "worst")]
            if len({len(column) for column in columns}) == 1 and len(columns[0]):
                return columns[0], columns[1], columns[2], columns[3]
        except (OSError, ValueError, KeyError, TypeError):
            pass  # missing or damaged: worked out again
        pool = np.arange(len(self.universe.guesses))
        costs, chance, worst = self._board_costs(np.arange(len(self.universe.answers)), pool)
        keep = np.lexsort((self.universe.common_rank, costs))[:OPENING_KEPT]
        data = {
            "guesses": pool[keep].tolist(),
            "costs": costs[keep].tolist(),
            "open": chance[keep].tolist(),
            "worst": worst[keep].tolist(),
        }
        with contextlib.suppress(OSError):  # a read-only cache costs the next run this work
            write_atomically(path, lambda temporary: temporary.write_text(json.dumps(data)))
        return pool[keep], costs[keep], chance[keep], worst[keep]

    def _ranked(self, state: MultiState) -> list[Ranked]:
        open_boards = [state.boards[index] for index in state.open_boards()]
        pool = self._pool(state, open_boards)
        per_board = [self._board_costs(board.candidates, pool) for board in open_boards]
        spare = self.max_guesses - state.used - len(open_boards)
        if spare <= GUARD_SPARE and len(pool) > 1:
            # Near the limit: only guesses after which playing each board's words in turn
            # finishes every board in time, whatever the feedback (if there are any).
            worst = np.sum([board_worst for _, _, board_worst in per_board], axis=0)
            safe = worst <= self.max_guesses - state.used - 1
            if not safe.any():  # none can: those that leave the fewest to play in turn
                safe = worst == worst.min()
            if not safe.all():
                pool = pool[safe]
                per_board = [(c[safe], o[safe], w[safe]) for c, o, w in per_board]
        ranked = self._combine(state, pool, per_board)
        if not open_boards or min(len(b.candidates) for b in open_boards) == 1:
            return ranked
        if not self.endgame or sum(len(b.candidates) for b in open_boards) > ENDGAME_WORDS:
            return ranked
        candidate_words = set(self._candidate_words(open_boards).tolist())
        probes = [guess for guess, *_ in ranked if guess not in candidate_words][:ENDGAME_PROBES]
        search = EndgameSearch(self.universe, probes, ENDGAME_STATES, hard=self.hard)
        boards = [tuple(sorted(board.candidates.tolist())) for board in open_boards]
        rules = [HardRule.of(board.history) for board in open_boards] if self.hard else None
        prefer = [guess for guess, *_ in ranked]
        searched = search.rank(boards, self.max_guesses - state.used, rules, prefer)
        if searched is None:
            return ranked
        exact: list[Ranked] = [(guess, state.used + value, None) for guess, value in searched]
        seen = {guess for guess, *_ in exact}
        return exact + [entry for entry in ranked if entry[0] not in seen]

    def _combine(
        self,
        state: MultiState,
        pool: np.ndarray,
        per_board: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> list[Ranked]:
        """Rank `pool` by the sum over the open boards of the guesses each would still
        need on its own (what every board learns counts). Each comes with the estimated
        total guesses of the game: this one, one more for each board it leaves open, and
        the probing guesses of the board that needs most (the others' are shared)."""
        total = np.zeros(len(pool))
        still_open = np.zeros(len(pool))
        probing = np.zeros(len(pool))
        for costs, open_chance, _ in per_board:
            total += costs
            still_open += open_chance
            probing = np.maximum(probing, costs - open_chance)
        expected = state.used + 1 + still_open + probing
        # Equal totals (rounded: sums carry float noise): a guess that may solve a board
        # first, then the more common word.
        may_win = still_open < len(per_board) - 1e-9
        ties = (self.universe.common_rank[pool], ~may_win)
        order = np.lexsort((*ties, np.round(total, 9)))
        return [(int(pool[i]), float(expected[i]), float(total[i])) for i in order]

    def _pool(self, state: MultiState, open_boards: list[BoardState]) -> np.ndarray:
        """The guesses worth scoring: a board's lone word first, near the limit only
        words that may solve a board, else every guess that may be played (playable;
        a candidate keeps its own board's hints, so the first two always may)."""
        index_of = self.universe.guess_index_of_answers
        lone = [index_of[b.candidates[0]] for b in open_boards if len(b.candidates) == 1]
        if lone:
            return np.unique(np.array(lone, dtype=np.int64))
        if self.max_guesses - state.used - len(open_boards) <= 0:
            return np.unique(self._candidate_words(open_boards))
        return np.flatnonzero(self.playable(state))

    def _candidate_words(self, open_boards: list[BoardState]) -> np.ndarray:
        rows = np.concatenate([board.candidates for board in open_boards])
        return np.unique(self.universe.guess_index_of_answers[rows])

    def _board_costs(
        self, candidates: np.ndarray, pool: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per guess of `pool`: the guesses this board would still need on its own after
        it (its own solving guess included), the chance it stays open, and the most
        candidates it may leave (0 when the guess is its last one)."""
        weights = self.universe.weights[candidates]
        weights = weights / weights.sum()
        rows = self.universe.patterns[candidates]
        costs = np.empty(len(pool))
        worst = np.empty(len(pool), dtype=np.int64)
        blind = self.universe.blind
        per_word = self._cost
        for part, count, mass in bucket_blocks(
            rows, pool, self.universe.pattern_count, weights if blind else None
        ):
            if mass is None:
                costs[part] = (count * per_word[count]).sum(axis=1) / len(candidates)
            else:
                costs[part] = (mass * per_word[count]).sum(axis=1)
            worst[part] = count.max(axis=1)
        chance = np.zeros(len(pool))
        position = np.full(len(self.universe.answers), -1)
        position[candidates] = np.arange(len(candidates))
        rows_of_pool = self.universe.answer_of_guess[pool]
        hits = (rows_of_pool >= 0) & (position[np.maximum(rows_of_pool, 0)] >= 0)
        chance[hits] = weights[position[rows_of_pool[hits]]]
        # The guess's own bucket (it is the answer) costs nothing more.
        worst[chance >= 1.0] = 0
        return costs - chance * per_word[1], 1.0 - chance, worst
