"""Without --prior, today's game (one board on the shipped English lists, no --lists, not
blind) is played under the history prior and every other game under the uniform one,
chosen in game_spec alone; the commands say which prior and how old the history is, and
the note that it is behind is said once, in one line, on stderr (and in --json)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from epdle.cli import main
from epdle.cli.errors import Parser
from epdle.cli.options import add_boards_option, add_solver_options, game_spec
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec

# The shipped history's newest answer, and a day that lacks the ten answers after it.
SHIPPED_LAST = "2026-08-21"
BEHIND_DAY = "2026-09-01"  # puzzle 1900: the answers of puzzles 1890-1899 missing


def _spec(*argv: str, todays_prior: bool = True) -> GameSpec:
    parser = Parser(prog="epdle test")
    add_solver_options(parser, todays_prior=todays_prior)
    add_boards_option(parser)
    return game_spec(parser.parse_args(list(argv)))


@pytest.mark.parametrize(
    ("argv", "prior", "blind"),
    [
        ((), "history", True),
        (("--hard",), "history", True),
        (("--strategy", "entropy"), "history", True),
        (("--lists", "original"), "uniform", False),
        (("--lists", "nyt2023"), "uniform", False),
        (("--blind",), "uniform", True),  # blind: weighted by frequency all the same
        (("--boards", "2"), "uniform", False),
        (("--length", "6"), "uniform", True),
        (("--language", "de"), "uniform", True),
        (("--prior", "uniform"), "uniform", False),
        (("--prior", "frequency"), "frequency", True),
    ],
)
def test_the_default_prior_follows_the_game_kind(argv, prior, blind) -> None:
    spec = _spec(*argv)
    assert (spec.prior, spec.blind) == (prior, blind)
    kinds = (("--boards",), ("--length",), ("--language",))
    assert GameSetup(spec).todays == (argv[:1] not in kinds)


def test_bench_plays_the_answer_lists_game_by_default() -> None:
    assert _spec(todays_prior=False).prior == "uniform"
    assert _spec("--prior", "history", todays_prior=False).prior == "history"


def test_played_and_date_apply_to_todays_game_without_naming_the_prior(capsys) -> None:
    assert _spec("--date", "2026-05-01").prior == "history"
    assert main(["suggest", "--boards", "2", "--date", "2026-05-01"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--played and --date are the history prior's" in err


def _suggest_json(capsys, *argv: str) -> tuple[dict, str]:
    assert main(["suggest", "--json", "--top", "1", *argv]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_suggest_says_the_prior_and_how_old_its_history_is(monkeypatch, capsys) -> None:
    # Up to date (the day after the newest answer): the heading says so, no note.
    assert main(["suggest", "--top", "1"]) == 0
    out, err = capsys.readouterr()
    assert f"prior: history (answers to {SHIPPED_LAST}, up to date)" in out.splitlines()[:4]
    assert err == ""
    report, err = _suggest_json(capsys)
    assert report["prior"] == "history" and report["history"]["days_behind"] == 0
    assert report["history"]["stale"] is None and err == ""
    # Ten days behind: the heading says it, and the note is one line on stderr.
    monkeypatch.setenv("EPDLE_TODAY", BEHIND_DAY)
    assert main(["suggest", "--top", "1"]) == 0
    out, err = capsys.readouterr()
    heading = out.splitlines()[:4]
    assert f"prior: history (answers to {SHIPPED_LAST}, 10 days behind)" in heading
    assert err.count("\n") == 1 and err.startswith("epdle suggest: note: the answer history")
    assert "10 days behind" in err and "epdle history add DATE WORD" in err
    report, err = _suggest_json(capsys)
    assert report["history"]["days_behind"] == 10
    assert report["history"]["stale"] in err and err.count("\n") == 1
    # Another prior: no history line, no note.
    assert main(["suggest", "--top", "1", "--prior", "uniform"]) == 0
    out, err = capsys.readouterr()
    assert "prior:" not in out and err == ""


def test_play_says_the_note_once_however_many_games(tmp_path, monkeypatch) -> None:
    # A whole process, as a player runs it: the note at the start, not at each game.
    monkeypatch.setenv("EPDLE_TODAY", BEHIND_DAY)
    argv = ["play", "--port", "sim://", "--top", "1", "--panel-dir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "epdle", *argv],
        input="salet bbybb\nnew\nnew\nquit\n",
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "note:" in line]
    assert len(notes) == 1 and notes[0].startswith("epdle play: note: the answer history ends")
    assert done.stdout.count("prior: history (answers to 2026-08-21, 10 days behind)") >= 3


def test_a_malformed_today_is_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setenv("EPDLE_TODAY", "2026-13-01")
    assert main(["suggest"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$EPDLE_TODAY: '2026-13-01' is not a date" in err
