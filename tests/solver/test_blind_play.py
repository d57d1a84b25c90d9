"""Blind play late in a game: every candidate, rare ones included, found in time."""

from __future__ import annotations

from advice_checks import guesses_to_find

from epdle.solver import Solver
from epdle.solver.ranking import best as policy
from epdle.solver.scoring import GAME_GUESSES


def test_late_in_a_blind_game_every_candidate_is_found_in_time(monkeypatch):
    # ?AUNT after three guesses: DAUNT, GAUNT, JAUNT are plausible, MAUNT, NAUNT, VAUNT
    # rare; played for the plausible ones only, a rare one would take more than six.
    history = [("tarse", "YGBBB"), ("clipt", "BBBBG"), ("haunt", "BGGGG")]
    solver = Solver("best", blind=True)
    state = solver.state_after(history)
    assert len(solver.best.plausible(state.candidates)) < len(state.candidates)
    assert len(state.candidates) <= policy.RARE_GUARD_MAX
    assert max(guesses_to_find(solver, history).values()) <= GAME_GUESSES
    monkeypatch.setitem(policy.RARE_GUARD_LEFT, False, 0)
    unguarded = guesses_to_find(Solver("best", blind=True), history)
    assert max(unguarded.values()) > GAME_GUESSES
