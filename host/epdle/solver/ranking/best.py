"""`best`'s policy over one word universe: the decision tree's guess where the game is on
it, else the estimate's ranking with a look one guess ahead, a bounded search once few
candidates are left, and the blind and hard-mode rules (the plausible candidates, the
rare-word guard, the hedge, the narrowing, the safe leader). The hard-mode guard that
freq uses too is here (HardGuard).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from contextlib import suppress

import numpy as np

from epdle.solver import openers
from epdle.solver.patterns import matrix_path
from epdle.solver.ranking.book import path_key
from epdle.solver.ranking.estimate import (
    candidate_bits,
    expected_guess_costs,
    pinned_codes,
    rank_expected_guesses,
    two_ply_costs,
)
from epdle.solver.ranking.figure import ESTIMATE, OPENER, SEARCH, TREE, tree_figure
from epdle.solver.ranking.pure.kernel import KernelMissing
from epdle.solver.ranking.pure.matrix import Matrix
from epdle.solver.ranking.pure.weighted import WeightedSearch, searched_guess
from epdle.solver.ranking.searched import searched_values
from epdle.solver.ranking.stats import (
    BoundedMemo,
    GuessStats,
    allowed_guesses,
    guess_stats,
    likelier_first,
)
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.search import INFINITE, FinishCheck, TreeSearch
from epdle.solver.settings import (
    BLIND_WIDTHS,
    COST_DECIMALS,
    FALLBACK_WIDTHS,
    LOOKAHEAD_MAX_CANDIDATES,
    LOOKAHEAD_POOL,
    LOOKAHEAD_TURNS,
    LOOKAHEAD_WIDTH,
    PLAUSIBLE_MASS_LEFT,
    RANKED_KEPT,
    RARE_GUARD_LEFT,
    RARE_GUARD_MAX,
    SEARCH_MAX_CANDIDATES,
    TRAP_PENALTY,
    TRAP_PENALTY_NEXT,
)
from epdle.solver.state import GameState
from epdle.solver.trees import load_or_build_tree
from epdle.solver.universe import Universe

# The measurements behind each value below: docs/bench.md, "The Solver's settings".
# Blind hard mode searches larger sets too, up to this many plausible words, with the
# narrower WIDE_WIDTHS and BLIND_HARD_RESCUE_WIDTH rescue guesses.
WIDE_SEARCH_MAX = 100
# Blind hard mode also searches larger sets (up to 100 plausible words), narrower (full
# blind hard bench, with BLIND_HARD_LOOKAHEAD_WIDTH: 20 / 6 / 3 3.6173, 30 / 8 / 3
# 3.6164, both 6 / 0; 40 / 10 / 3 with the hedge the same play as 30 / 8 / 3).
WIDE_WIDTHS = (1, 30, 8, 3)
# Blind hard mode's searches try only this many rescue guesses: where the beam cannot
# meet the guess limit, 200 more took seconds (4-9 s after SALET, DINER) to find none.
BLIND_HARD_RESCUE_WIDTH = 10
# Blind openers ahead of the ranking: hard mode opens with the hard tree's SALET, whose
# hints bind every later guess less badly than the estimate's TARSE.
BLIND_OPENERS = {False: (), True: ("salet",)}  # by hard
# Blind hard mode looks at more leaders (the safe leader below is chosen among them too).
BLIND_HARD_LOOKAHEAD_WIDTH = 24
# freq in hard mode keeps the letter rule's first guess only if every candidate can still
# be found in the guesses left after it (sets of at most GUARD_CANDIDATES), else plays the
# ranked guess (of the first GUARD_TRIES) that leaves the least weight where it cannot.
GUARD_CANDIDATES = 200
GUARD_TRIES = 12
# Blind hard mode: where the search cannot find every plausible word within the guesses
# left and at most NARROW_LEFT are left, it plays for fewer words before it relaxes the
# limit: the likeliest ones holding all but each of NARROW_MASS_LEFT of the mass in turn.
NARROW_LEFT = 4
NARROW_MASS_LEFT = (0.05, 0.1, 0.2)
# Blind hard mode, on sets too large for the search: the cheapest look-ahead leader after
# which FinishCheck can find every candidate in time is played first if it costs at
# most SAFE_MARGIN guesses more than the first leader.
SAFE_MARGIN = 0.01
# Blind hard mode, with at most HEDGE_LEFT guesses left: when the plausible play leaves a
# word of the likeliest ones holding all but HEDGE_MASS_LEFT of the mass (at most
# HEDGE_MAX words) in a pinned family that cannot be finished in time, and the search can
# find all of them within the limit for at most HEDGE_COST_MAX guesses a game more, that
# is played instead.
HEDGE_LEFT = 4
HEDGE_MASS_LEFT = 0.001
HEDGE_MAX = 100
HEDGE_COST_MAX = 1.0
# FinishCheck's memo is cleared beyond this many states (each key holds the hard-mode mask).
FINISH_MEMO_LIMIT = 20_000
# The searches' memos are cleared beyond this many states.
SEARCH_MEMO_LIMIT = 200_000


class HardGuard:
    """Hard mode: FinishCheck over one universe, for the guard (freq), the safe leader and
    the hedge (best)."""

    def __init__(self, universe: Universe) -> None:
        self.universe = universe
        self._check: FinishCheck | None = None

    def forget(self) -> None:
        self._check = None

    def check(self) -> FinishCheck:
        if self._check is None:
            self._check = FinishCheck(self.universe)
        elif len(self._check.memo) > FINISH_MEMO_LIMIT:
            self._check.memo.clear()
            self._check.found.clear()
        return self._check

    def guarded(self, state: GameState, ranked: list[int]) -> list[int]:
        """Hard mode: the ranking's first guess if every candidate can still be found within
        the guesses left after it; else the ranked guess (of the first GUARD_TRIES) that
        leaves the least weight where it cannot, or the checker's own guess that can."""
        if not state.history or not 2 < len(state.candidates) <= GUARD_CANDIDATES:
            return ranked
        guesses_left = GAME_GUESSES - len(state.history)
        candidates, allowed = state.candidates, state.allowed
        check = self.check()
        weights = self.universe.weights
        first = check.unsafe_mass(candidates, allowed, ranked[0], guesses_left, weights)
        if first == 0:
            return ranked
        chosen = check.finishing_guess(candidates, allowed, guesses_left)
        # The ranking may end with guesses the hints rule out: only allowed ones are tried.
        tries = [g for g in ranked[1:GUARD_TRIES] if allowed is None or allowed[g]]
        if chosen is None:
            lost = [
                (check.unsafe_mass(candidates, allowed, g, guesses_left, weights), rank, g)
                for rank, g in enumerate(tries, start=1)
            ]
            least = min(lost, default=(first, 0, ranked[0]))
            chosen = least[2] if least[0] < first else None
        else:
            # A ranked guess that is safe too beats the checker's own (better ranked).
            chosen = next(
                (g for g in tries if check.safe(candidates, allowed, g, guesses_left)),
                chosen,
            )
        if chosen is None or chosen == ranked[0]:
            return ranked
        return [chosen, *(g for g in ranked if g != chosen)]


class BestPolicy:
    """`best`'s ranked guesses for the states of one universe and mode (memoised)."""

    def __init__(
        self,
        universe: Universe,
        hard: bool,
        strategy: str,
        progress: Callable[[int, int], None] | None = None,
        tree_any_size: bool = False,
    ) -> None:
        self.universe = universe
        self.hard = hard
        self.blind = universe.blind
        self.strategy = strategy
        self._progress = progress
        self._tree_any_size = tree_any_size  # trees.load_or_build_tree's any_size
        self.ranked_memo: BoundedMemo[list[int]] = BoundedMemo()
        # Per state: the leaders the look re-ranked, by their cost one guess further on
        # (figures).
        self.looked: BoundedMemo[dict[int, float]] = BoundedMemo()
        self._tree: dict[str, str] | None = None
        self._searches: dict[bool, TreeSearch] = {}  # by wide
        self._weighted: WeightedSearch | None = None  # blind normal mode (_weighted_search)
        self.guard = HardGuard(universe)

    def forget(self) -> None:
        """Drop the per-state memos."""
        self.ranked_memo.clear()
        self.looked.clear()
        self._searches.clear()
        self._weighted = None
        self.guard.forget()

    def opening(self, rank: Callable[[GameState], list[int]]) -> list[int]:
        """The ranked first guesses (cached on disk)."""
        return openers.ranked_openers(self.universe, self.strategy, self.hard, rank)

    # -- the decision tree --------------------------------------------------------------

    def tree_guess(self, state: GameState) -> str | None:
        """The decision tree's guess for this history, if the game is still on the tree."""
        if self.blind:
            return None
        if self._tree is None:
            self._tree = load_or_build_tree(
                self.universe, self.hard, self._progress, self._tree_any_size
            )
        return self._tree.get(path_key(state.history))

    def ranked(self, state: GameState) -> list[int]:
        """Guess indexes, best first: the tree's guess first while on it, else the fallback."""
        tree_guess = self.tree_guess(state)
        if tree_guess is None:
            return self._fallback_ranked(state)
        # On the tree the runners-up are only shown: the estimate ranks them, no search.
        key = state.key()
        if key not in self.ranked_memo:
            if state.history:
                self.ranked_memo[key] = self.estimate_ranked(state, look_ahead=False)
            else:
                self.ranked_memo[key] = self.opening(self.estimate_ranked)
        chosen = self.universe.guess_index[tree_guess]
        return [chosen, *(g for g in self.ranked_memo[key] if g != chosen)]

    def _fallback_ranked(self, state: GameState) -> list[int]:
        """Off the tree (or blind): a bounded search when few words matter, else the estimate."""
        key = state.key()
        ranked = self.ranked_memo.get(key)
        if ranked is None:
            if not state.history:
                estimated = self.opening(self.estimate_ranked)
                ranked = self._preferred_first(estimated)
            else:
                estimated = self.estimate_ranked(state)
                searched = self._searched_guess(state)
                ranked = estimated
                if searched is not None:
                    ranked = [searched, *(g for g in estimated if g != searched)]
            self.ranked_memo[key] = ranked
        return ranked

    def figures(
        self, state: GameState, guesses: list[int]
    ) -> list[tuple[float | None, str | None]]:
        """Each of `guesses` with the expected guesses to finish (this one included) that
        `best` chose by, and what gave it (epdle.solver.ranking.figure): the tree's own
        play for the tree's guess; where the search ran, each guess's searched value;
        else its cost one guess further on where the look re-ranked it, else the
        estimate's (expected_guess_costs), the blind opener's included."""
        looked = self.looked.get(state.key(), {})
        candidates = state.candidates
        if len(candidates) > 2:
            candidates = self.plausible(candidates)
        stats = guess_stats(self.universe, candidates, np.array(guesses, dtype=np.int64))
        estimates = expected_guess_costs(stats, candidate_bits(self.universe, candidates))
        rows: list[tuple[float | None, str | None]] = [
            (looked.get(guess, float(estimate)), ESTIMATE)
            for guess, estimate in zip(guesses, estimates, strict=True)
        ]
        if self.tree_guess(state) is not None and self._tree is not None:
            words = [self.universe.answers[i] for i in state.candidates]
            rows[0] = (tree_figure(self._tree, path_key(state.history), words), TREE)
        elif not state.history and guesses[:1] == self._preferred_first([]):
            rows[0] = (rows[0][0], OPENER)  # blind hard mode's opener, ahead of the ranking
        elif self._searches_here(state):
            searched = self.searched_figures(state, guesses)
            rows = [
                (f, SEARCH) if f is not None else row for f, row in zip(searched, rows, strict=True)
            ]
        return rows

    def _searches_here(self, state: GameState) -> bool:
        """Whether `best` searches this state (_searched_guess's sizes)."""
        return (
            len(state.candidates) > 2
            and len(self.plausible(state.candidates)) <= self._search_max()
        )

    def searched_figures(self, state: GameState, guesses: list[int]) -> list[float | None]:
        """Each guess's searched value: the guesses a fresh search (as _searched_guess
        sets it up) takes to find each plausible candidate with that guess first, averaged
        (None: it cannot within the guesses left, relaxed as the search relaxes them)."""
        candidates = self.plausible(state.candidates)
        # Not blind, from a fresh search, as the fast path values them (pure/); blind, the
        # kept one (its memo spares re-searching up to a hundred words).
        wide = len(candidates) > SEARCH_MAX_CANDIDATES[self.blind]
        search = self._search(wide, fresh=not self.blind)
        left = max(1, GAME_GUESSES - len(state.history))
        mass = float(search.weights[candidates].sum())

        def cost(guess: int, limit: int) -> float:
            return search.cost_of(candidates, state.allowed, guess, limit)

        totals = searched_values(guesses, left, cost)
        return [None if total >= INFINITE else total / mass for total in totals]

    def _preferred_first(self, ranked: list[int]) -> list[int]:
        """Blind, the mode's known opener (when it is an accepted guess) ahead of the ranking."""
        if not self.blind:
            return ranked
        index = self.universe.guess_index
        preferred = [index[word] for word in BLIND_OPENERS[self.hard] if word in index]
        return [*preferred, *(guess for guess in ranked if guess not in preferred)]

    # -- the estimate and the look ahead ------------------------------------------------

    def estimate_ranked(self, state: GameState, look_ahead: bool = True) -> list[int]:
        """The guesses by estimated guesses to finish (rank_expected_guesses) over the
        plausible candidates, the leaders re-ranked one guess further on early in a game."""
        candidates = state.candidates
        if len(candidates) <= 2:
            return likelier_first(self.universe, candidates)
        # Blind, the rare tail (a sliver of the prior) would only slow the ranking.
        candidates = self.plausible(candidates)
        stats = guess_stats(self.universe, candidates, allowed_guesses(state))
        order = rank_expected_guesses(stats, candidate_bits(self.universe, candidates))
        searched = len(candidates) <= self._search_max()
        affordable = len(candidates) <= LOOKAHEAD_MAX_CANDIDATES[self.blind]
        turn_to_look = look_ahead and len(state.history) in LOOKAHEAD_TURNS
        if turn_to_look and not searched and affordable:
            guesses_left = GAME_GUESSES - len(state.history)
            looked: dict[int, float] = {}
            order = self.look_ahead(candidates, stats, order, guesses_left, state.allowed, looked)
            self.looked[state.key()] = looked
        return [int(stats.guesses[i]) for i in order[:RANKED_KEPT]]

    def pinned_family_share(self, candidates: np.ndarray, guess: int, guesses_left: int) -> float:
        """Hard mode: the share (by weight) of the candidates that `guess` leaves in a
        family its greens pin down (all letters but one in place) larger than the guesses
        left after it. Such a family can only be guessed one word at a time."""
        universe = self.universe
        codes = universe.patterns[candidates, guess].astype(np.int64)
        weights = universe.weights[candidates]
        unique, inverse, sizes = np.unique(codes, return_inverse=True, return_counts=True)
        trapped = pinned_codes(universe.length)[unique] & (sizes > guesses_left - 1)
        return float(weights[trapped[inverse]].sum() / weights.sum())

    def look_ahead(
        self,
        candidates: np.ndarray,
        stats: GuessStats,
        order: np.ndarray,
        guesses_left: int | None = None,
        allowed: np.ndarray | None = None,
        looked: dict[int, float] | None = None,
    ) -> np.ndarray:
        """Re-rank the leading guesses by the best estimated cost one guess further on
        (each leader's cost into `looked`, by guess index, when given).

        The next guess is picked from the leaders here plus the likeliest candidates'
        own words, which keeps the two-ply look affordable (hundreds of guesses, not all).
        """
        universe = self.universe
        likeliest = np.argsort(-universe.weights[candidates], kind="stable")[:LOOKAHEAD_POOL]
        own_words = universe.guess_index_of_answers[candidates[likeliest]]
        pool = np.union1d(stats.guesses[order[:LOOKAHEAD_POOL]], own_words)
        width = BLIND_HARD_LOOKAHEAD_WIDTH if self.blind and self.hard else None
        leaders = order[: width or LOOKAHEAD_WIDTH[self.blind]]
        hard_left = guesses_left if self.hard else None
        trap = None if hard_left is None else (TRAP_PENALTY_NEXT, hard_left)
        costs = two_ply_costs(universe, candidates, stats.guesses[leaders], pool, self.hard, trap)
        if hard_left is not None:
            trapped = [
                self.pinned_family_share(candidates, int(guess), hard_left)
                for guess in stats.guesses[leaders]
            ]
            costs = costs + TRAP_PENALTY * np.array(trapped)
        if not self.blind:
            # Leaders often cost the same (143/56 for two guesses, say), and then the last
            # digits are noise: from max(0, tiny) ** 0.7 and numpy's own log2, which differs
            # by CPU. Rounded, equal leaders keep the estimate's order, on every machine and
            # in epdle.solver.ranking.pure. (Blind costs are weighted sums: left as they were.)
            costs = np.round(costs, COST_DECIMALS)
        if looked is not None:
            looked.update(zip(stats.guesses[leaders].tolist(), costs.tolist(), strict=True))
        ranking = np.argsort(costs, kind="stable")
        leaders = leaders[ranking]
        if self.blind and hard_left is not None:
            leaders = self._safe_leader_first(
                candidates, allowed, stats.guesses, leaders, costs[ranking], hard_left
            )
        return np.concatenate([leaders, order[~np.isin(order, leaders)]])

    def _safe_leader_first(
        self,
        candidates: np.ndarray,
        allowed: np.ndarray | None,
        guesses: np.ndarray,
        leaders: np.ndarray,
        costs: np.ndarray,
        guesses_left: int,
    ) -> np.ndarray:
        """Blind hard mode: the leaders (indexes into `guesses`, cheapest first, with their
        costs), the cheapest one after which FinishCheck can find every candidate in
        time moved first if it costs at most SAFE_MARGIN more than the first."""
        check = self.guard.check()
        for rank, leader in enumerate(leaders):
            if costs[rank] > costs[0] + SAFE_MARGIN:
                break
            guess = int(guesses[leader])
            if check.safe(candidates, allowed, guess, guesses_left):
                return np.concatenate([[leader], leaders[leaders != leader]])
        return leaders

    # -- the search -------------------------------------------------------------------

    def plausible(
        self, candidates: np.ndarray, mass_left: float = PLAUSIBLE_MASS_LEFT
    ) -> np.ndarray:
        """The candidates worth searching for: blind, the likeliest ones holding all but
        `mass_left` of their prior mass; else all of them."""
        if not self.blind:
            return candidates
        weights = self.universe.weights[candidates]
        order = np.argsort(-weights, kind="stable")
        cumulative = np.cumsum(weights[order])
        kept = int(np.searchsorted(cumulative, (1.0 - mass_left) * cumulative[-1])) + 1
        return np.sort(candidates[order[:kept]])

    def _hedged_guess(
        self, search: TreeSearch, state: GameState, candidates: np.ndarray, guesses_left: int
    ) -> int | None:
        """Blind hard mode: a guess that finds every word of a wider set than the plausible
        `candidates` in time, when the plausible play's guess would leave one of them in a
        pinned family that cannot be (HEDGE_MASS_LEFT and the rest above); else None."""
        wider = self.plausible(state.candidates, HEDGE_MASS_LEFT)
        if not len(candidates) < len(wider) <= HEDGE_MAX:
            return None
        # If the plausible words cannot all be found in time, the wider set cannot either (the
        # narrowing below plays for fewer words then): no hedge, and no costly search.
        plain, plain_guess = search.solve(candidates, state.allowed, guesses_left, 1)
        if plain >= INFINITE:
            return None
        check = self.guard.check()
        pinned = pinned_codes(self.universe.length)
        at_risk = False
        for code, part in check.search.buckets(wider, plain_guess):
            if not pinned[code] or np.isin(part, candidates).all():
                continue
            child_allowed = check.search.allowed_after(state.allowed, plain_guess, code)
            if not check.can_finish(part, child_allowed, guesses_left - 1):
                at_risk = True
                break
        if not at_risk:
            return None
        cost, guess = search.solve(wider, state.allowed, guesses_left, 1)
        if cost >= INFINITE:
            return None
        weights = self.universe.weights
        extra = cost / float(weights[wider].sum()) - plain / float(weights[candidates].sum())
        return guess if extra <= HEDGE_COST_MAX else None

    def _search_max(self) -> int:
        """The largest (plausible) set the search plays for."""
        if self.blind and self.hard:
            return max(WIDE_SEARCH_MAX, SEARCH_MAX_CANDIDATES[True])
        return SEARCH_MAX_CANDIDATES[self.blind]

    def _weighted_search(self) -> WeightedSearch | None:
        """Blind normal mode where every candidate is a guess of the same index: the
        search of epdle.solver.ranking.pure.weighted (the fast path's, TreeSearch's costs
        and guesses without numpy), its memo kept as TreeSearch's; None where the matrix
        is not cached or the lists differ."""
        universe = self.universe
        if universe.answers != universe.guesses:
            return None
        if self._weighted is None:
            universe.patterns  # noqa: B018 (cached on disk here, if it can be)
            path = str(matrix_path(universe.guesses, universe.answers))
            try:
                matrix = Matrix(path, len(universe.answers), len(universe.guesses))
            except (OSError, ValueError):
                return None
            weights = array("d", np.ascontiguousarray(universe.weights, dtype=np.float64).tobytes())
            self._weighted = WeightedSearch(matrix, weights, universe.length, BLIND_WIDTHS)
        elif len(self._weighted.memo) > SEARCH_MEMO_LIMIT:
            self._weighted.memo.clear()
        return self._weighted

    def _search(self, wide: bool, fresh: bool = False) -> TreeSearch:
        """The search over sets of its size (`wide`: past SEARCH_MAX_CANDIDATES), kept
        for the turns to come; `fresh`: a new one, with no memo of earlier turns."""
        search = None if fresh else self._searches.get(wide)
        if search is None:
            weights = self.universe.weights if self.blind else None
            fallback = BLIND_WIDTHS if self.blind else FALLBACK_WIDTHS
            widths = WIDE_WIDTHS if wide else fallback
            rescue = BLIND_HARD_RESCUE_WIDTH if self.blind and self.hard else None
            search = TreeSearch(self.universe, self.hard, widths, weights, rescue)
            if not fresh:
                self._searches[wide] = search
        elif len(search.memo) > SEARCH_MEMO_LIMIT:
            search.memo.clear()
        return search

    def _searched_guess(self, state: GameState) -> int | None:
        """The tree search's guess for the plausible candidates, within the guesses left."""
        if len(state.candidates) <= 2:
            return None
        candidates = self.plausible(state.candidates)
        if len(candidates) > self._search_max():
            return None
        if self.blind and not self.hard:
            weighted = self._weighted_search()
            if weighted is not None:
                every, turns = state.candidates.tolist(), len(state.history)
                with suppress(KernelMissing):
                    return searched_guess(weighted, every, candidates.tolist(), turns)
        search = self._search(len(candidates) > SEARCH_MAX_CANDIDATES[self.blind])
        guesses_left = max(1, GAME_GUESSES - len(state.history))
        if self.blind and guesses_left <= RARE_GUARD_LEFT[self.hard]:
            every = state.candidates
            if len(candidates) < len(every) <= RARE_GUARD_MAX:
                cost, guess = search.solve(every, state.allowed, guesses_left, 1)
                if cost < INFINITE:
                    return guess
        if self.blind and self.hard and guesses_left <= HEDGE_LEFT:
            hedged = self._hedged_guess(search, state, candidates, guesses_left)
            if hedged is not None:
                return hedged
        cost, guess = search.solve(candidates, state.allowed, guesses_left, 1)
        if cost < INFINITE:
            return guess
        if self.blind and self.hard and guesses_left <= NARROW_LEFT:
            for mass_left in NARROW_MASS_LEFT:
                fewer = self.plausible(state.candidates, mass_left)
                if 2 < len(fewer) < len(candidates):
                    cost, guess = search.solve(fewer, state.allowed, guesses_left, 1)
                    if cost < INFINITE:
                        return guess
        # Blind, once not every candidate can be found in time, a limit just one over would
        # still hedge for the rarest words: two over lets the search play for the likely ones.
        relaxed = 2 if self.blind else 1
        for limit in (guesses_left + relaxed, guesses_left + 3):
            cost, guess = search.solve(candidates, state.allowed, limit, 1)
            if cost < INFINITE:
                return guess
        return None
