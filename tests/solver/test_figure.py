"""One expected-guesses figure per row (epdle.solver.ranking.figure): the first row
included, whichever path ranked it, in the game's mode; and the chance to win on the last
guesses (epdle.odds)."""

from __future__ import annotations

import json

import pytest

from epdle.cli import main
from epdle.solver import Solver
from epdle.solver.ranking import fast_advice
from epdle.solver.scoring import GAME_GUESSES, feedback, parse_history

TREE, SEARCH = "tree", "search"  # epdle.solver.ranking.figure's sources, as --json says them

# The tree's opening, a turn on the tree, the estimate's ground, the search's, the last word.
HISTORIES = ["", "tarse:BBGBY", "salet:bbybb", "tarse:BBBBB,colin:BYBBB", "salet:YBYBB"]
# Normal mode also (the hints of the first guess are not kept here).
NORMAL_ONLY = ["tarse:BBGBY,cupid:BBBBB", "salet:bbybb,courd:bbbbb"]


@pytest.fixture(scope="module")
def shipped_cache(tmp_path_factory) -> str:
    """A cache holding the 2023 lists' pattern matrix, which the fast path reads."""
    cache = str(tmp_path_factory.mktemp("cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", cache)
        Solver("best").universe.patterns  # noqa: B018 (written to the cache)
    return cache


@pytest.fixture(scope="module", params=[False, True], ids=["normal", "hard"])
def module_solver(request, shipped_cache) -> Solver:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", shipped_cache)
        solver = Solver("best", hard=request.param)
        solver.universe.patterns  # noqa: B018
    return solver


@pytest.fixture
def solver(module_solver, shipped_cache, monkeypatch) -> Solver:
    monkeypatch.setenv("EPDLE_CACHE_DIR", shipped_cache)
    return module_solver


@pytest.mark.parametrize("text", HISTORIES + NORMAL_ONLY)
def test_every_row_has_its_figure_and_no_runner_up_shows_fewer_than_the_row_above(solver, text):
    if solver.hard and text in NORMAL_ONLY:
        solver = Solver("best")  # the same check in normal mode
    history = parse_history(text)
    fast = fast_advice("best", solver.hard, False, "nyt2023", history)
    for advice in (fast, solver.engine_advice(history)):
        if advice is None:
            continue
        figures = [s.guesses for s in advice.suggestions]
        assert None not in figures, (text, figures)
        runners_up = figures[1:]
        assert runners_up == sorted(runners_up), (text, figures)


def test_the_opening_figure_is_the_trees_own_play_in_each_mode():
    """The first row's figure at the opening is the tree's expected guesses over every
    answer: walked through the tree by the Solver, read from the shipped file by the fast
    path, and hard mode's is hard mode's own."""
    shown = {}
    for hard in (False, True):
        solver = Solver("best", hard=hard)
        first = solver.engine_advice([]).suggestions[0]
        fast = fast_advice("best", hard, False, "nyt2023", [])
        assert fast is not None
        assert first.source == fast.suggestions[0].source == TREE  # type: ignore[attr-defined]
        assert first.guesses == pytest.approx(fast.suggestions[0].guesses, abs=1e-9)
        shown[hard] = first.guesses
    assert shown[True] > shown[False] + 0.05


def test_the_tree_figure_counts_each_answers_guesses():
    from epdle.solver.ranking.figure import tree_figure

    tree = {"": "crane", "crane:BBBBB": "fight"}
    answers = ["crane", "fight"]
    assert feedback("crane", "fight") == "BBBBB"
    assert tree_figure(tree, "", answers) == 1.5  # CRANE in 1, FIGHT in 2
    assert tree_figure(tree, "", ["crane", "moist"]) is None  # MOIST leaves the tree


def test_where_the_search_ran_each_row_has_its_searched_value(solver):
    history = parse_history("tarse:BBBBB,colin:BYBBB")  # 6 left
    fast = fast_advice("best", solver.hard, False, "nyt2023", history)
    slow = solver.engine_advice(history)
    assert fast is not None
    for advice in (fast, slow):
        assert {s.source for s in advice.suggestions} == {SEARCH}
    assert [s.guesses for s in fast.suggestions] == pytest.approx(
        [s.guesses for s in slow.suggestions], abs=1e-9
    )


def test_one_candidate_left_shows_one_guess(capsys):
    assert (
        main(["suggest", "--history", "tarse:BBBBB,colin:BYBBB,gumbo:BGGGG", "--prior", "uniform"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("1 candidate left")
    assert out.splitlines()[3].split()[-1] == "1.00"


def test_the_table_shows_a_figure_on_every_row_and_says_why_the_first_leads(capsys):
    assert main(["suggest", "--prior", "uniform"]) == 0
    out = capsys.readouterr().out
    assert "searched" not in out
    first = out.splitlines()[3].split()
    assert first[:2] == ["1", "TARSE"] and first[-1] == "3.55"
    assert "TARSE leads: the decision tree plays it" in out


def test_json_carries_the_figure_its_source_and_the_chance(capsys):
    assert (
        main(["suggest", "--history", "tarse:BBBBB,colin:BYBBB", "--json", "--prior", "uniform"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    rows = report["suggestions"]
    assert report["lead"] is None  # GUMBO shows the fewest
    assert rows[0]["guesses_from"] == SEARCH and rows[0]["guesses"] is not None
    assert rows[0]["chance"] == pytest.approx(1 / 6, abs=1e-4)
    assert rows[-1]["chance"] == 0  # a word that cannot win


def test_the_chance_to_win_shows_on_the_last_guesses(capsys):
    assert main(["suggest", "--history", "tarse:BBBBB,colin:BYBBB", "--prior", "uniform"]) == 0
    out = capsys.readouterr().out
    assert "GUMBO    1 in 6" in out
    # 116 left: not yet
    assert main(["suggest", "--history", "salet:bbybb", "--prior", "uniform"]) == 0
    assert " in " not in capsys.readouterr().out.split("\n", 3)[3]


def test_chance_wording():
    from epdle import odds

    assert odds.LAST_PLAYED == GAME_GUESSES - 1
    assert odds.chance_text(0.25) == "1 in 4"
    assert odds.chance_text(0.37) == "37 %"
    assert odds.chance_text(0.0) == ""
    assert odds.chance_shown(4, 2) and not odds.chance_shown(50, 2)
    assert odds.chance_shown(50, GAME_GUESSES - 1)  # the last guess
    assert not odds.chance_shown(1, GAME_GUESSES - 1)  # one left: "the answer"


def test_blind_hard_modes_opener_shows_its_figure_and_why_it_leads(capsys):
    assert main(["suggest", "--blind", "--hard", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    first = report["suggestions"][0]
    assert first["word"] == "salet" and first["guesses"] is not None
    assert report["lead"] == "hard mode's opener, whose hints bind the later guesses less"


def test_under_the_history_prior_every_row_has_its_searched_figure_and_chance(capsys):
    """The default prior's numpy-free path gives each row the figure the Solver would (the
    searched value where the search ran) and each word that could win its chance."""
    history = "tarse:BBBBB,colin:BYBBB,gumbo:BGGGG"
    assert main(["suggest", "--history", history, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["prior"] == "history"
    rows = report["suggestions"]
    assert all(row["guesses"] is not None and row["guesses_from"] == SEARCH for row in rows)
    assert all((row["chance"] > 0) == row["is_candidate"] for row in rows)
    assert sum(row["chance"] for row in rows) <= 1 + 1e-9
    assert main(["suggest", "--history", history]) == 0
    assert " %" in capsys.readouterr().out  # the chance, under a prior of unequal chances
