"""Published optima: which lists they belong to, and how a bench reports against them."""

from __future__ import annotations

from epdle import words
from epdle.solver.bench import BenchResult
from epdle.solver.records import published_optimum

# The New York Times answer list of 2022-08-30 is the original one less these six.
NYT_REMOVED = {"agora", "fibre", "lynch", "pupal", "slave", "wench"}


def _nyt_answers() -> list[str]:
    return [word for word in words.answers("original") if word not in NYT_REMOVED]


def test_the_nyt_lists_are_recognised_in_any_order():
    guesses = list(words.guesses())
    answers = _nyt_answers()
    normal = published_optimum(guesses, answers, hard=False)
    hard = published_optimum(list(reversed(guesses)), answers[::-1], hard=True)
    assert (normal and normal.total, normal and normal.opener) == (7883, "tarse")
    assert (hard and hard.total, hard and hard.opener) == (8097, "salet")


def test_other_lists_have_no_published_optimum():
    # The shipped pair (the original answers with today's guesses) was never published.
    assert (
        published_optimum(list(words.guesses()), list(words.answers("original")), hard=False)
        is None
    )
    assert published_optimum(list(words.guesses()), _nyt_answers()[1:], hard=True) is None


def _result(histogram: dict[int, int], hard: bool) -> BenchResult:
    guesses, answers = list(words.guesses()), _nyt_answers()
    return BenchResult(
        "best", hard, False, sum(histogram.values()), 0.0, max(histogram), histogram, 0, 1.0,
        "salet", published=published_optimum(guesses, answers, hard),
    )  # fmt: skip


def test_a_bench_says_whether_its_total_equals_the_published_optimum():
    equal = _result({2: 97, 3: 1000, 4: 1212}, hard=False)  # 194 + 3,000 + 4,848 = 8,042
    assert equal.total == 8042
    assert "8,042, is 159 over it" in (equal.against_published() or "")
    assert equal.as_json()["published_optimum"] == 7883
    at = _result({3: 1139, 4: 1170}, hard=True)  # 3,417 + 4,680 = 8,097
    text = at.against_published() or ""
    assert text.startswith("published optimum for the New York Times lists of 2022-08-30")
    assert text.endswith("8,097 (SALET first); this total, 8,097, equals it")
    unpublished = BenchResult("best", False, False, 1, 2.0, 2, {2: 1}, 0, 1.0, "salet")
    assert unpublished.against_published() is None
    assert unpublished.as_json()["published_optimum"] is None
