"""docs/bench.md's tables written by the runs that measure them (tools/bench/docs_tables.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))
import docs_tables as bench_docs

DOCUMENT = """# Bench

Prose the writer must leave alone | with a pipe.

<!-- bench:games -->
| old | table |
<!-- /bench:games -->

Between the sections.

<!-- bench:other -->
| another | helper's | section |
<!-- /bench:other -->
tail without a newline"""


@pytest.fixture
def tiny_runs(tmp_path, small_answers, small_guesses) -> list[bench_docs.Run]:
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(small_answers[:30]) + "\n")
    guesses.write_text("\n".join(small_guesses) + "\n")
    lists = ("--answers", str(answers), "--guesses", str(guesses))
    return [
        bench_docs.Run("entropy normal", ("--strategy", "entropy", *lists)),
        bench_docs.Run("expected hard", ("--strategy", "expected", "--hard", *lists)),
    ]


def _table(text: str, name: str) -> list[list[str]]:
    lines = bench_docs.section_body(text, name).strip().splitlines()
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_writer_replaces_its_section_only_with_the_benchs_json(tmp_path, tiny_runs):
    document = tmp_path / "bench.md"
    document.write_text(DOCUMENT)
    printed: dict[str, dict] = {}

    def measured(run: bench_docs.Run) -> dict:
        printed[run.name] = bench_docs.measure(run)
        return printed[run.name]

    bench_docs.write(document, "games", tiny_runs, "after", measured)
    text = document.read_text()
    # Everything outside the section is as it was, byte for byte.
    start, end = "<!-- bench:games -->", "<!-- /bench:games -->"
    assert text.split(start)[0] == DOCUMENT.split(start)[0]
    assert text.split(end)[1] == DOCUMENT.split(end)[1]
    header, rule, *rows = _table(text, "games")
    assert header == list(bench_docs.GAME_HEADER) and set(rule) == {"---"}
    assert [row[:2] for row in rows] == [["entropy normal", "after"], ["expected hard", "after"]]
    for row in rows:
        result = printed[row[0]]
        figures = dict(zip(header, row, strict=True))
        assert int(figures["games"]) == result["games"] == 30
        assert float(figures["mean"]) == result["mean"]
        assert int(figures["max"]) == result["max"]
        assert int(figures["over six"]) == result["failures"]
        assert int(figures["total"].replace(",", "")) == result["total"]
        assert figures["first guess"] == result["first_guess"].upper()
        histogram = dict(pair.split(": ") for pair in figures["guesses: games"].split(", "))
        assert histogram == {turns: str(count) for turns, count in result["histogram"].items()}
        assert float(figures["seconds"]) == result["seconds"]
        assert figures["measured on"] == bench_docs.machine()
    assert sum(int(row[6]) for row in rows) > 0


def test_a_run_measured_again_replaces_its_row_and_keeps_the_others(tmp_path, tiny_runs):
    document = tmp_path / "bench.md"
    document.write_text(DOCUMENT)
    figures = {"games": 3, "mean": 2.0, "max": 3, "failures": 0, "total": 6}
    fake = {**figures, "first_guess": "salet", "histogram": {"2": 3}, "seconds": 1.5}
    bench_docs.write(document, "games", tiny_runs, "before", lambda run: fake)
    again = {**fake, "mean": 1.6667, "total": 5}
    bench_docs.write(document, "games", tiny_runs[1:], "before", lambda run: again, tiny_runs)
    bench_docs.write(document, "games", tiny_runs[:1], "after", lambda run: again, tiny_runs)
    rows = _table(document.read_text(), "games")[2:]
    assert [(row[0], row[1], row[3]) for row in rows] == [
        ("entropy normal", "before", "2.0000"),
        ("entropy normal", "after", "1.6667"),
        ("expected hard", "before", "1.6667"),
    ]
    assert _table(document.read_text(), "other") == [["another", "helper's", "section"]]


@pytest.mark.parametrize(
    "text",
    [
        "no markers",
        "<!-- bench:games -->\n<!-- /bench:games -->\n<!-- bench:games -->",
        "<!-- /bench:games -->\n<!-- bench:games -->",
    ],
)
def test_a_document_without_one_pair_of_markers_is_refused_before_measuring(tmp_path, text):
    document = tmp_path / "bench.md"
    document.write_text(text)

    def measured(run: bench_docs.Run) -> dict:
        raise AssertionError("measured")

    with pytest.raises(ValueError, match="bench:games"):
        bench_docs.write(document, "games", [bench_docs.Run("x", ())], "after", measured)
    assert document.read_text() == text


def test_a_latency_row_carries_both_timings():
    run = bench_docs.LATENCY_RUNS[0]
    result = {
        "strategy": "best",
        "mode": "normal",
        "in process": {"turns": 24, "median_ms": 26.0, "p90_ms": 82.5, "max_ms": 104.0},
        "process": {"turns": 24, "median_ms": 103.0, "p90_ms": 126.0, "max_ms": 150.2},
    }
    cells = bench_docs.row_cells(run, "after", result, "here")
    assert cells == [run.name, "after", "24", "26 / 82.5 / 104", "24", "103 / 126 / 150.2", "here"]
    assert len(cells) == len(bench_docs.LATENCY_HEADER)


def test_the_code_column_marks_changed_code_not_the_rows_just_written(tmp_path):
    def git(*arguments: str) -> str:
        command = ["git", "-C", str(tmp_path), *arguments]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    git("init", "-q")
    (tmp_path / "host").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "host" / "solver.py").write_text("WIDTH = 1\n")
    document = tmp_path / "docs" / "bench.md"
    document.write_text("<!-- bench:games -->\n<!-- /bench:games -->\n")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    commit = git("rev-parse", "--short", "HEAD").strip()
    assert bench_docs.code_label(tmp_path) == commit
    # A long section measured run by run: the rows written so far are not the code.
    document.write_text("<!-- bench:games -->\n| row |\n<!-- /bench:games -->\n")
    assert bench_docs.code_label(tmp_path) == commit
    (tmp_path / "host" / "solver.py").write_text("WIDTH = 2\n")
    assert bench_docs.code_label(tmp_path) == commit + "+"
    git("checkout", "-q", "--", "host")
    (tmp_path / "host" / "new_module.py").write_text("")
    assert bench_docs.code_label(tmp_path) == commit + "+"


def test_the_standard_error_is_the_sample_deviation_over_the_root_of_the_count():
    # Mean 0, squared deviations 1 + 0 + 1 + 0 = 2 over 3: sqrt(2/3) / sqrt(4) = sqrt(1/6).
    assert bench_docs.standard_error([-1, 0, 1, 0]) == pytest.approx(math.sqrt(1 / 6))
    assert bench_docs.standard_error([0, 2]) == pytest.approx(1.0)  # sqrt(2) / sqrt(2)
    assert bench_docs.standard_error([3, 3, 3]) == 0.0
    assert math.isnan(bench_docs.standard_error([5]))  # one value: no spread to measure
