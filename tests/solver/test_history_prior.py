"""`--prior history`: each accepted word's chance of being a day's answer, by kind, from
the answers before that day alone; and the options that pick the day and the history."""

from __future__ import annotations

import datetime
import json

import numpy as np
import pytest

from epdle import words
from epdle.cli import main
from epdle.solver.history_prior import KINDS, REPEATS_FROM, history_prior
from epdle.words.history import DAY_ZERO, Played, shipped_history


def _day(puzzle: int) -> datetime.date:
    return DAY_ZERO + datetime.timedelta(puzzle)


@pytest.fixture(scope="module")
def guesses() -> list[str]:
    return list(words.guesses())


def test_the_kinds_follow_the_history_before_the_day(guesses) -> None:
    prior = history_prior(guesses, shipped_history(), _day(1800))
    kind = {word: KINDS[k] for word, k in zip(guesses, prior.kinds, strict=True)}
    assert kind["cigar"] == "repeat"  # puzzle 0 (and 1689)
    assert kind["murky"] == "original"  # first played on 1888: not yet known on 1800
    assert kind["xylyl"] == "other"
    assert np.isclose(prior.weights.sum(), 1.0) and (prior.weights > 0).all()
    # Every never-played original word is likelier than any addition, repeat or other word.
    original = prior.weights[prior.kinds == 0]
    assert original.min() > prior.weights[prior.kinds != 0].max()
    assert sum(prior.shares.values()) == pytest.approx(1.0)


def test_nothing_dated_that_day_or_later_is_read(guesses) -> None:
    day = _day(1750)
    later = [Played(_day(1750 + n), 1750 + n, "zzzzz") for n in range(3)]
    known = [p for p in shipped_history() if p.puzzle < 1750]
    assert np.array_equal(
        history_prior(guesses, known, day).weights,
        history_prior(guesses, list(shipped_history()) + later, day).weights,
    )


def test_repeats_have_no_share_before_the_times_ran_them(guesses) -> None:
    before = history_prior(guesses, shipped_history(), _day(REPEATS_FROM - 1))
    after = history_prior(guesses, shipped_history(), _day(1889))
    assert before.shares["repeat"] == 0
    # 21 repeats in the 200 puzzles 1689-1888, with half a pseudo-puzzle each way.
    assert after.shares["repeat"] == pytest.approx(21.5 / 201)
    # The Times brings back early answers: the oldest played words lead the repeats.
    repeats = np.flatnonzero(after.kinds == 2)
    best = guesses[repeats[np.argmax(after.weights[repeats])]]
    first = {p.word: p.puzzle for p in reversed(shipped_history())}
    assert first[best] < 100


def test_suggest_replays_a_day_from_a_history_file(tmp_path, capsys) -> None:
    played = tmp_path / "played.tsv"
    played.write_text("".join(p.line() + "\n" for p in shipped_history() if p.puzzle < 1800))
    argv = ["suggest", "--prior", "history", "--played", str(played), "--json", "--top", "2"]
    assert main([*argv, "--date", "2026-05-23"]) == 0  # puzzle 1799
    report = json.loads(capsys.readouterr().out)
    assert report["prior"] == "history" and report["history"]["puzzle"] == 1799
    assert report["history"]["last_puzzle"] == 1798
    assert main([*argv, "--date", "2026-05-25"]) == 0  # a day the file misses
    captured = capsys.readouterr()
    assert "1 day behind" in captured.err and "epdle history add" in captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--date", "2026-02-31"], "--date: '2026-02-31' is not a date"),
        (["--date", "2999-01-01"], "--date: 2999-01-01 is in the future"),
        (["--played", "no-such-file.tsv"], "history file no-such-file.tsv does not exist"),
        (["--boards", "2"], "--prior history is the Times' game"),
    ],
)
def test_bad_history_options_are_one_line_errors(argv, message, capsys) -> None:
    code = main(["suggest", "--prior", "history", *argv])
    err = capsys.readouterr().err
    assert code in (1, 2) and message in err and err.count("\n") == 1


def test_played_and_date_need_the_history_prior(capsys) -> None:
    assert main(["suggest", "--prior", "uniform", "--date", "2026-01-01"]) == 2
    assert "--played and --date are the history prior's" in capsys.readouterr().err


def test_a_days_prior_is_fitted_once_and_a_damaged_cache_fitted_again(
    guesses, private_cache, monkeypatch
) -> None:
    from epdle.solver import history_prior as module

    fitted = history_prior(guesses, shipped_history(), _day(1800))
    (stored,) = private_cache.glob("history-prior-*.npz")

    def refused(*_args: object) -> object:
        raise AssertionError("fitted again")

    with monkeypatch.context() as patch:
        patch.setattr(module, "_fitted", refused)
        again = history_prior(guesses, shipped_history(), _day(1800))
    assert np.array_equal(again.weights, fitted.weights) and again.shares == fitted.shares
    stored.write_bytes(b"not a numpy file")
    assert np.array_equal(
        history_prior(guesses, shipped_history(), _day(1800)).weights, fitted.weights
    )
    # Another day, or other answers before it, is another entry.
    history_prior(guesses, shipped_history()[:-1], _day(1889))
    assert len(list(private_cache.glob("history-prior-*.npz"))) == 2
