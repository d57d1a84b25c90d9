"""Equal guesses are listed toward what can win and what is common: candidates first, then
the more common word (its Zipf frequency in the shipped table), then alphabetically; and
the tables show the figure each list is ranked by."""

from __future__ import annotations

import json

import pytest

from epdle import words
from epdle.cli import main
from epdle.solver import Solver
from epdle.solver.multi import MultiSolver
from epdle.solver.ranking import fast_advice
from epdle.solver.scoring import score
from epdle.solver.universe import Universe

# SALET BYBBB, BRACE BYGYB: CHAIR, CHARD and CHARM are left; CHARD and CHARM tell them
# apart equally well, and so do thousands of words that cannot win (ABRIM, ACMIC...).
CHAR = [("salet", "BYBBB"), ("brace", "BYGYB")]


def ORIGINAL() -> Universe:
    return Universe.shipped(lists="original")


def zipf(word: str) -> float:
    return words.frequency_table()[word].zipf


def listing_order(word: str) -> tuple[float, str]:
    return -zipf(word), word


@pytest.mark.parametrize("strategy", ["entropy", "expected", "minimax"])
def test_equal_candidates_come_the_more_common_first(strategy: str) -> None:
    advice = Solver(strategy, universe=ORIGINAL()).advise(CHAR)
    assert zipf("charm") > zipf("chard")
    assert [s.word for s in advice.suggestions[:2]] == ["charm", "chard"]


def test_equal_guesses_that_cannot_win_come_the_most_common_first() -> None:
    solver = Solver("entropy", universe=ORIGINAL())
    state = solver.state_after(CHAR)
    ranked = [solver.universe.guesses[g] for g in solver.ranked_guesses(state)]
    assert ranked[:2] == ["charm", "chard"]
    # The words after them all split the three apart (log2 3 bits): the most common first.
    others = ranked[2:]
    assert others == sorted(others, key=listing_order)
    assert zipf(others[0]) >= 4.0  # a word people know, not ABRIM


def test_best_off_the_tree_lists_equal_guesses_the_common_first_on_both_paths() -> None:
    # CRANE BYBBB, DOUBT BGBBB: six candidates; after the search's guess, guesses that
    # split them apart tie at 2.00 expected guesses.
    history = [("crane", "BYBBB"), ("doubt", "BGBBB")]
    solver = Solver("best", universe=ORIGINAL())
    slow = solver.engine_advice(history, top=5)
    fast = fast_advice("best", False, False, "original", history, 5)
    assert fast is not None and [s.word for s in fast.suggestions] == [
        s.word for s in slow.suggestions
    ]
    tied = [s for s in slow.suggestions[1:] if s.guesses == pytest.approx(2.0)]
    assert len(tied) >= 3 and not any(s.is_candidate for s in tied)
    assert [s.word for s in tied] == sorted((s.word for s in tied), key=listing_order)


def test_several_boards_list_equal_guesses_candidates_then_the_common_words() -> None:
    # Every board holds HUMID, HUMPH, VIVID, WHIFF: each may solve all four boards.
    answers = ["humid", "humph", "vivid", "whiff"]
    solver = MultiSolver(4, universe=ORIGINAL())
    history = [(guess, [score(guess, "humid")] * 4) for guess in ("salet", "crony")]
    advice = solver.advise(history, top=6)
    listed = [s.word for s in advice.suggestions]
    assert listed[:4] == sorted(answers, key=listing_order)
    assert listed[4] not in answers and listed[4] != "aalii"
    assert zipf(listed[4]) >= 4.0


@pytest.mark.parametrize(
    "history",
    ["salet:bybbb", "tarse:bybbb", "crane:bybbb,doubt:bgbbb", "salet:bybbb,brace:bygyb"],
)
def test_best_shows_the_estimated_guesses_it_ranks_by_in_order(history: str, capsys) -> None:
    # (The look one guess ahead re-ranks the first six: past them, --top 7 and more list
    # the rest by the estimate alone.)
    assert main(["suggest", "--history", history, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = [s["guesses"] for s in report["suggestions"]]
    # Every row has its figure; the runners-up in its order; a first row showing more
    # than a runner-up (placed by the tree or the search) says why it leads.
    assert None not in figures and figures[1:] == sorted(figures[1:])
    assert (figures[0] > min(figures[1:]) + 5e-3) == (report["lead"] is not None)
    assert main(["suggest", "--history", history]) == 0
    assert "guesses (est.)" in capsys.readouterr().out


def test_several_boards_show_the_sum_they_rank_by_in_order(capsys) -> None:
    history = "salet:bbybb/bbbbb/ybbbb/bbbbg"
    assert main(["suggest", "--boards", "4", "--history", history, "--json"]) == 0
    suggestions = json.loads(capsys.readouterr().out)["suggestions"]
    sums = [s["board_guesses"] for s in suggestions]
    assert None not in sums and sums == sorted(sums)
    assert main(["suggest", "--boards", "4", "--history", history]) == 0
    assert "boards' guesses" in capsys.readouterr().out
