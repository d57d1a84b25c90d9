"""The vectorised two-ply estimate against the per-bucket loop it replaces."""

from __future__ import annotations

import numpy as np
import pytest
from solver_hints import obeys_hints

from epdle import words
from epdle.solver import Solver, score
from epdle.solver.ranking.estimate import candidate_bits, expected_guess_costs, two_ply_costs
from epdle.solver.ranking.stats import guess_stats
from epdle.solver.scoring import pattern_string
from epdle.solver.universe import Universe


def _trapped_share(universe: Universe, bucket, guess: int, guesses_left: int) -> float:
    """The bucket's weight share that `guess` leaves in parts with all letters but one
    green and more words than the guesses left after it."""
    codes = universe.patterns[bucket, guess]
    weights = universe.weights[bucket]
    trapped = 0.0
    for code in np.unique(codes):
        marks = pattern_string(int(code))
        part = codes == code
        if marks.count("G") == universe.length - 1 and part.sum() > guesses_left - 2:
            trapped += weights[part].sum()
    return trapped / weights.sum()


def _bucket_by_bucket(
    universe: Universe,
    candidates,
    first_guesses,
    pool,
    hard: bool = False,
    trap: tuple[float, int] | None = None,
) -> list[float]:
    costs = []
    total = universe.weights[candidates].sum()
    for guess in first_guesses:
        codes = universe.patterns[candidates, guess]
        cost = 1.0
        for code in np.unique(codes):
            if code == universe.pattern_count - 1:
                continue
            bucket = candidates[codes == code]
            next_pool = pool
            if hard:
                # Only the guesses that reuse this feedback's hints (all, if none does).
                hint = [(universe.guesses[guess], pattern_string(int(code)))]
                valid = [g for g in pool if obeys_hints(universe.guesses[g], hint)]
                next_pool = np.array(valid) if valid else pool
            stats = guess_stats(universe, bucket, next_pool)
            each = expected_guess_costs(stats, candidate_bits(universe, bucket))
            if trap is not None:
                penalty, left = trap
                each = each + penalty * np.array(
                    [_trapped_share(universe, bucket, int(g), left) for g in next_pool]
                )
            finish = each.min()
            cost += universe.weights[bucket].sum() / total * float(finish)
        costs.append(cost)
    return costs


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize(("turns", "hidden_at"), [(0, 0), (1, 40), (1, 77)])
def test_two_ply_costs_equal_the_bucket_by_bucket_estimate(
    hard, blind, turns, hidden_at, small_guesses, small_answers
):
    universe = Universe(small_guesses, None if blind else small_answers)
    history = [("amaze", score("amaze", small_answers[hidden_at]))][:turns]
    candidates = Solver("entropy", universe=universe).state_after(history).candidates
    assert len(candidates) > 3
    first_guesses = np.arange(0, len(universe.guesses), 7)
    pool = np.arange(1, len(universe.guesses), 3)
    expected = _bucket_by_bucket(universe, candidates, first_guesses, pool, hard)
    costs = two_ply_costs(universe, candidates, first_guesses, pool, hard)
    assert costs == pytest.approx(expected)


@pytest.mark.parametrize("guesses_left", [3, 4, 5])
def test_two_ply_trap_charge_equals_the_bucket_by_bucket_charge(
    guesses_left, small_guesses, small_answers
):
    # The family words make pinned parts likely; the rest keeps the buckets mixed.
    family = [w for w in words.guesses() if w.endswith(("ound", "atch", "ight"))]
    universe = Universe(sorted(set(small_guesses) | set(family)), None, blind=True)
    candidates = np.flatnonzero([w in set(family) or w in small_answers for w in universe.answers])
    first_guesses = np.array([universe.guess_index[w] for w in ("salet", "round", "batch")])
    pool = np.arange(0, len(universe.guesses), 5)
    trap = (3.0, guesses_left)
    expected = _bucket_by_bucket(universe, candidates, first_guesses, pool, True, trap)
    costs = two_ply_costs(universe, candidates, first_guesses, pool, True, trap)
    assert costs == pytest.approx(expected)
    # The charge only adds: without it every leader costs at most as much.
    free = two_ply_costs(universe, candidates, first_guesses, pool, True)
    assert (free <= costs + 1e-12).all() and (free < costs).any()


def test_two_ply_cost_of_a_guess_that_isolates_every_candidate():
    # Three candidates told apart by the first guess: each bucket is finished in one more
    # guess, unless the first guess was the answer (chance 1/3, no further guess).
    answers = ["crane", "slate", "pious"]
    universe = Universe([*answers, "crate"], answers)
    crane = universe.guess_index["crane"]
    costs = two_ply_costs(universe, np.arange(3), np.array([crane]), np.arange(4))
    assert costs[0] == pytest.approx(1 + 2 / 3)


def test_hard_mode_look_ahead_cannot_split_a_pinned_family_with_a_free_word():
    # After SOUND shows ?OUND, hard mode allows only the family: one word at a time.
    family = ["bound", "found", "hound", "mound", "pound", "round", "wound"]
    universe = Universe([*family, "sound", "bumph", "frown"], family)
    candidates = np.arange(len(family))
    sound = np.array([universe.guess_index["sound"]])
    pool = np.arange(len(universe.guesses))
    free = two_ply_costs(universe, candidates, sound, pool)[0]
    hard = two_ply_costs(universe, candidates, sound, pool, hard=True)[0]
    assert hard > free


@pytest.mark.parametrize("blind", [False, True])
def test_leaders_of_equal_cost_keep_the_estimates_order(
    blind, small_guesses, small_answers, monkeypatch
):
    """Costs equal but for their last digits (float noise) do not reorder the leaders in
    normal mode; blind, the raw costs still decide."""
    from epdle.solver import settings
    from epdle.solver.ranking import best as policy

    universe = Universe(small_guesses, None if blind else small_answers)
    solver = Solver("best", universe=universe)
    candidates = solver.state_after([("amaze", score("amaze", small_answers[40]))]).candidates
    stats = guess_stats(universe, candidates)
    order = np.arange(len(stats.guesses))
    width = settings.LOOKAHEAD_WIDTH[solver.blind]
    noise = np.random.default_rng(3).uniform(-1e-12, 1e-12, width)
    monkeypatch.setattr(policy, "two_ply_costs", lambda *_args, **_kw: 2.5 + noise)
    leaders = solver.best.look_ahead(candidates, stats, order)[:width]
    expected = np.argsort(2.5 + noise, kind="stable") if blind else np.arange(width)
    assert list(leaders) == list(expected)
