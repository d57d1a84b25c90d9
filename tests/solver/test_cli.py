from __future__ import annotations

import json
import subprocess
import sys

import pytest

from epdle.cli import main
from epdle.solver import score


def test_suggest_json(capsys, list_files, small_answers):
    answers, guesses = list_files
    answer = small_answers[3]
    history = f"salet:{score('salet', answer)}"
    code = main(
        ["suggest", "--history", history, "--top", "3", "--strategy", "entropy", "--json",
         "--answers", str(answers), "--guesses", str(guesses)]
    )  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    expected_left = sum(1 for a in small_answers if score("salet", a) == score("salet", answer))
    assert result["candidates_left"] == expected_left
    assert 1 <= len(result["suggestions"]) <= 3
    first = result["suggestions"][0]
    assert set(first) >= {"word", "bits", "expected_left"}
    bits = [s["bits"] for s in result["suggestions"]]
    assert bits == sorted(bits, reverse=True)


def test_suggest_takes_a_turn_written_as_play_takes_it(capsys):
    # 'salet bybbb' (the word and its colours apart) is the same turn as 'salet:bybbb'.
    assert main(["suggest", "--history", "salet:bybbb,crony:21000", "--json"]) == 0
    colon = capsys.readouterr().out
    assert main(["suggest", "--history", "salet bybbb, crony 21000", "--json"]) == 0
    assert capsys.readouterr().out == colon


def test_suggest_table(capsys, list_files):
    answers, guesses = list_files
    assert main(["suggest", "--strategy", "minimax", "--answers", str(answers),
                 "--guesses", str(guesses)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "candidates left\nranked by minimax: smallest worst case\n" in out
    for column in ("info (bits)", "left after (avg)", "could win"):
        assert column in out


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("salet:BBBBB,sonic:GBBBB", "guess 2 'sonic': feedback GBBBB: no accepted word fits"),
        ("salet:BBYBB,xyzzy:00000", "guess 2 'xyzzy': not in the accepted word list"),
        ("salet:BBQBB", "'Q' at position 3 is not a mark"),
    ],
)
def test_suggest_errors_name_the_guess(capsys, history, message):
    assert main(["suggest", "--history", history, "--strategy", "entropy"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("epdle suggest: error:") and message in err
    assert err.count("\n") == 1


def test_bench_json(capsys, list_files, small_answers):
    answers, guesses = list_files
    code = main(["bench", "--strategy", "expected", "--answers", str(answers),
                 "--guesses", str(guesses), "--limit", "30", "--json"])  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["strategy"] == "expected" and result["games"] == 30
    assert sum(result["histogram"].values()) == 30
    turns = {int(t): n for t, n in result["histogram"].items()}
    assert result["mean"] == pytest.approx(sum(t * n for t, n in turns.items()) / 30, abs=1e-4)
    assert result["max"] == max(turns)
    assert result["failures"] == sum(n for t, n in turns.items() if t > 6)
    assert result["seconds"] >= 0


def test_bench_table_and_bad_list(capsys, tmp_path, list_files):
    answers, guesses = list_files
    assert main(["bench", "--strategy", "freq", "--answers", str(answers),
                 "--guesses", str(guesses), "--limit", "5"]) == 0  # fmt: skip
    assert "bench: freq" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nab1de\n")
    assert main(["bench", "--answers", str(bad)]) == 1
    assert "bad.txt:2: 'ab1de' is not a word" in capsys.readouterr().err


def test_the_command_line_parses_without_loading_numpy_or_pillow():
    # Every `epdle` call pays for what building its parser imports: keep it to the stdlib.
    check = (
        "import sys; from epdle.cli import build_parser; build_parser(); "
        "print(sorted({'numpy', 'PIL', 'rich', 'serial'} & set(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "[]"


def test_bench_latency_json(capsys, list_files):
    answers, guesses = list_files
    code = main(["bench", "--latency", "--per-opener", "3", "--processes", "2", "--json",
                 "--strategy", "entropy",
                 "--answers", str(answers), "--guesses", str(guesses)])  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    # Of the latency openers, only SALET is in the small guess list.
    assert result["in process"]["turns"] == 3
    assert result["process"]["turns"] == 2
    for row in ("in process", "process"):
        timings = result[row]
        assert 0 < timings["median_ms"] <= timings["p90_ms"] <= timings["max_ms"]


def test_a_light_command_builds_only_its_own_parser():
    from epdle.cli import build_parser

    def commands(parser):
        return set(parser._subparsers._group_actions[0].choices)

    everything = commands(build_parser())
    assert {"suggest", "bench", "play", "render", "push", "sim"} <= everything
    # Its own parser only: not even its module's other commands.
    assert commands(build_parser(["suggest", "--history", "salet:BBBBB"])) == {"suggest"}
    assert commands(build_parser(["--version"])) == everything
    assert commands(build_parser(["-h", "suggest"])) == everything  # the top-level help


def test_a_one_shot_command_skips_the_last_collection_only_as_the_program(capsys):
    import gc

    frozen = gc.get_freeze_count()
    assert main(["suggest", "--history", "tarse:BYBBB"]) == 0  # called, as tests and tools do
    assert gc.get_freeze_count() == frozen
    code = (
        "import gc, sys; from epdle.cli import main; "
        "sys.argv = ['epdle', 'suggest', '--history', 'tarse:BYBBB']; code = main(); "
        "print(code, gc.get_freeze_count() > 0, file=sys.stderr)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stderr.strip() == "0 True"
    assert "candidates left" in run.stdout


def test_bench_latency_takes_the_openers_to_time(capsys):
    code = main(["bench", "--latency", "--openers", "salet,CRANE", "--per-opener", "2",
                 "--limit", "50", "--json", "--strategy", "freq"])  # fmt: skip
    assert code == 0
    assert json.loads(capsys.readouterr().out)["in process"]["turns"] == 4


def test_a_suggest_tries_the_fast_path_once(monkeypatch, capsys):
    # Where the fast path declines a turn, the Solver ranks it without trying it again.
    import epdle.solver.engine
    import epdle.solver.ranking

    tried = []

    def declining(*args, **kwargs):
        tried.append(args)

    monkeypatch.setattr(epdle.solver.ranking, "fast_advice", declining)
    monkeypatch.setattr(epdle.solver.engine, "fast_advice", declining)
    assert main(["suggest", "--history", "salet:bbybb", "--top", "2", "--json"]) == 0
    assert len(tried) == 1
    assert len(json.loads(capsys.readouterr().out)["suggestions"]) == 2
