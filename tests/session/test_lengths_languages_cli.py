"""--length and --language through every command: suggest, bench, render, play, daemon, demo."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from rich.console import Console

from epdle.cli import main
from epdle.render.planes import LANDSCAPE_SIZE

STRATEGY = ["--strategy", "entropy"]  # one-ply: quick; the solver's tests cover ranking


def test_suggest_takes_a_german_history_with_umlauts(capsys) -> None:
    code = main(["suggest", "--language", "de", "--history", "säule:bbbbb", "--json", *STRATEGY])
    assert code == 0, capsys.readouterr().err
    advice = json.loads(capsys.readouterr().out)
    assert 0 < advice["candidates_left"] < 3000
    assert all(len(s["word"]) == 5 for s in advice["suggestions"])


def test_suggest_six_letters_ranks_words_not_names(capsys) -> None:
    assert main(["suggest", "--length", "6", "--json", "--top", "10", *STRATEGY]) == 0
    ranked = [s["word"] for s in json.loads(capsys.readouterr().out)["suggestions"]]
    assert len(ranked) == 10 and all(len(word) == 6 for word in ranked)
    assert not {"darien", "lanier", "larsen"} & set(ranked)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--history", "säule:bbbbb"], "'ä' is not a letter of English (a-z)"),
        (["--language", "de", "--history", "café:bbbb"], "'é' is not a letter of German"),
        (["--language", "es", "--length", "4", "--history", "años:bbbbb"], "expected 4"),
    ],
)
def test_letters_outside_the_alphabet_fail_in_one_line(capsys, arguments, message) -> None:
    assert main(["suggest", *arguments]) == 1  # bad input: a failure (exit 1), one line
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [(["--language", "xx"], "invalid choice: 'xx'"), (["--length", "10"], "invalid choice: 10")],
)
def test_unknown_languages_and_lengths_are_usage_errors(capsys, arguments, message) -> None:
    assert main(["suggest", *arguments]) == 2
    assert message in capsys.readouterr().err


def test_bench_samples_evenly_in_another_language(capsys) -> None:
    code = main(["bench", "--language", "es", "--length", "4", "--limit", "6", "--json", *STRATEGY])
    assert code == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 6 and result["blind"] and result["failures"] == 0


def test_render_writes_nine_letter_frames(tmp_path: Path, capsys) -> None:
    out = tmp_path / "frames"
    code = main(["render", "--length", "9", "--history", "secretion:bybbbybyb", "--top", "2",
                 "--out", str(out), *STRATEGY])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 2 and all(len(p.stem.split("-", 1)[1]) == 9 for p in pngs)
    with Image.open(pngs[0]) as frame:
        assert frame.size == LANDSCAPE_SIZE


def test_play_takes_length_and_language(tmp_path: Path, monkeypatch, capsys) -> None:
    script = "straße bbbbbb\nsäule bbbbb\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=120, color_system=None)
    )
    panel_dir = tmp_path / "panel"
    code = main(["play", "--language", "de", "--length", "6", "--top", "1",
                 "--panel-dir", str(panel_dir), *STRATEGY])  # fmt: skip
    text = output.getvalue()
    assert code == 1  # a scripted line failed
    assert "STRAẞE BBBBBB" in text  # the board, piped: one capital per letter, its colours
    assert "guess 2 'säule': has 5 letters, this game uses 6" in capsys.readouterr().err
    assert len(list(panel_dir.glob("panel-*.png"))) == 2  # opening, after straße


def test_daemon_takes_length(tmp_path: Path) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("secretion bybbbybyb\n")
    code = main(["daemon", "--port", "sim://", "--feed", str(feed), "--length", "9", *STRATEGY])
    assert code == 0


def test_demo_plays_a_six_letter_german_game(tmp_path: Path, capsys) -> None:
    out = tmp_path / "demo"
    code = main(["demo", "--language", "de", "--length", "6", "--answer", "STRAßE",
                 "--out", str(out), "--top", "1", "--no-cycle", *STRATEGY])  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "STRAẞE: solved in" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["answer"] == "straße" and summary["solved"]


def test_even_samples_spread_over_the_list() -> None:
    from epdle.words import even_sample

    items = [f"w{i:03d}" for i in range(100)]
    assert even_sample(items, 4, None) == ["w000", "w025", "w050", "w075"]
    assert even_sample(items, 500, None) == items
    seeded = even_sample(items, 4, 7)
    assert [int(w[1:]) // 25 for w in seeded] == [0, 1, 2, 3]  # one from each stretch
    # Whole numbers: 75 * 4,416 / 100 is 3,312, where 75 * 44.16 in floats is 3,311.99...
    many = [f"w{i:04d}" for i in range(4416)]
    assert even_sample(many, 100)[75] == "w3312"


def test_a_command_may_leave_the_length_options_out() -> None:
    import argparse

    from epdle.cli.options import add_solver_options, game_spec

    parser = argparse.ArgumentParser()
    add_solver_options(parser, other_lengths=False)
    args = parser.parse_args(["--blind"])
    assert not hasattr(args, "length") and not game_spec(args).dictionary
    with pytest.raises(SystemExit):
        parser.parse_args(["--length", "6"])
