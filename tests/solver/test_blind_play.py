"""Blind play late in a game: every candidate, rare ones included, found in time."""

from __future__ import annotations

from epdle.solver import Solver, engine, score
from epdle.solver.scoring import GAME_GUESSES


def _guesses_to_find(solver: Solver, history: list[tuple[str, str]]) -> dict[str, int]:
    """Per candidate left after `history`: the guesses the whole game takes to find it."""
    start = solver.state_after(history)
    taken = {}
    for index in start.candidates:
        answer = solver.universe.answers[index]
        state, turns = start, len(history)
        while turns <= 10:
            guess = solver.next_guess(state)
            turns += 1
            if guess == answer:
                break
            state = solver.apply(state, guess, score(guess, answer))
        taken[answer] = turns
    return taken


def test_late_in_a_blind_game_every_candidate_is_found_in_time(monkeypatch):
    # ?AUNT after three guesses: DAUNT, GAUNT, JAUNT are plausible, MAUNT, NAUNT, VAUNT
    # rare; played for the plausible ones only, a rare one would take more than six.
    history = [("tarse", "YGBBB"), ("clipt", "BBBBG"), ("haunt", "BGGGG")]
    solver = Solver("best", blind=True)
    state = solver.state_after(history)
    assert len(solver._plausible(state.candidates)) < len(state.candidates)
    assert len(state.candidates) <= engine.RARE_GUARD_MAX
    assert max(_guesses_to_find(solver, history).values()) <= GAME_GUESSES
    monkeypatch.setitem(engine.RARE_GUARD_LEFT, False, 0)
    unguarded = _guesses_to_find(Solver("best", blind=True), history)
    assert max(unguarded.values()) > GAME_GUESSES
