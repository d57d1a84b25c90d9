"""The shipped history of the Times' answers: every puzzle from 0, dated by its number,
and the same as the bench's own copy where they overlap; and how history files are read."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from epdle import words
from epdle.words.history import (
    DAY_ZERO,
    HistoryFileError,
    Played,
    before,
    parse_date,
    parse_history,
    puzzle_number,
    shipped_history,
)

BENCH_DATA = Path(__file__).resolve().parents[2] / "tools" / "bench" / "data"
BENCH_COPY = BENCH_DATA / "nyt-answers-since-2023-07.tsv"


def test_every_puzzle_from_zero_is_there_with_its_date() -> None:
    history = shipped_history()
    numbers = {played.puzzle for played in history}
    assert numbers == set(range(max(numbers) + 1))
    assert history[0] == Played(datetime.date(2021, 6, 19), 0, "cigar")
    assert all(played.date == DAY_ZERO + datetime.timedelta(played.puzzle) for played in history)
    accepted = set(words.guesses())
    assert all(played.word in accepted for played in history)
    # The four days of 2022 the Times changed the answer list both words.
    doubled = sorted(n for n in numbers if sum(p.puzzle == n for p in history) > 1)
    assert doubled == [241, 284, 324, 325]


def test_it_agrees_with_the_bench_copy_where_they_overlap() -> None:
    bench = parse_history(BENCH_COPY.read_text(), BENCH_COPY.name)
    shipped = {(p.date, p.puzzle, p.word) for p in shipped_history()}
    assert len(bench) == 1147
    assert all((p.date, p.puzzle, p.word) in shipped for p in bench)
    overlap = [p for p in shipped_history() if bench[0].puzzle <= p.puzzle <= bench[-1].puzzle]
    assert len(overlap) == len(bench)


def test_a_puzzle_number_is_the_days_since_puzzle_zero() -> None:
    assert puzzle_number(datetime.date(2026, 2, 2)) == 1689
    assert puzzle_number(datetime.date(2021, 6, 19)) == 0


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("2026-02-02\t1689", "expected date<TAB>puzzle<TAB>word"),
        ("2026-02-30\t1689\tcigar", "is not a date"),
        ("2026-02-02\t1690\tcigar", "2026-02-02 is puzzle 1689, not '1690'"),
        ("2026-02-02\t1689\tcig4r", "not a five-letter word"),
        ("2026-02-02\t1689\tqqqqq", "'qqqqq' is not an accepted word"),
        ("2020-02-02\t-500\tcigar", "before the first puzzle"),
    ],
)
def test_a_bad_line_is_named_with_why(line: str, why: str) -> None:
    text = "# header\n2026-02-01\t1688\tspiny\n" + line + "\n"
    with pytest.raises(HistoryFileError, match=r"f line 3: .*" + why.replace("(", r"\(")):
        parse_history(text, "f", frozenset(words.guesses()))


def test_an_entry_twice_is_refused() -> None:
    with pytest.raises(HistoryFileError, match="line 2: cigar on 2026-02-02 is there twice"):
        parse_history("2026-02-02\t1689\tcigar\n2026-02-02\t1689\tCIGAR\n", "f")


def test_a_future_date_is_refused() -> None:
    with pytest.raises(ValueError, match="2026-12-08 is in the future"):
        parse_date("2026-12-08", datetime.date(2026, 12, 7))


def test_what_a_day_knows_is_what_came_before_it() -> None:
    day = datetime.date(2026, 2, 2)
    known = before(shipped_history(), day)
    assert known[-1].puzzle == 1688 and all(p.date < day for p in known)
