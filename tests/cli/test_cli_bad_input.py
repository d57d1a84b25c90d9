"""Every subcommand with bad input: the exit code (1 failure, 2 usage), exactly one
line on stderr in the `epdle COMMAND: error:` form, and never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from epdle.cli import main
from epdle.frames.store import MAX_SUGGESTION_FRAMES

FAILURE, USAGE = 1, 2
MISSING = "/nonexistent-epdle/none"
# Word lists, options the solver needs to answer quickly in every case that gets to it.
FAST = ["--strategy", "entropy"]


def _files(tmp: Path) -> dict[str, str]:
    (tmp / "garbage.frame").write_bytes(b"zz\n")
    (tmp / "notes.txt").write_text("hello\n")
    (tmp / "fake.png").write_text("not a picture\n")
    (tmp / "set.h").write_text("/* frames */\n")
    (tmp / "not.hex").write_text("this is not intel hex\n")
    (tmp / "a-file").write_text("x\n")
    (tmp / "dir").mkdir()
    return {
        "tmp": str(tmp),
        "garbage": str(tmp / "garbage.frame"),
        "notes": str(tmp / "notes.txt"),
        "fake_png": str(tmp / "fake.png"),
        "header": str(tmp / "set.h"),
        "not_hex": str(tmp / "not.hex"),
        "file": str(tmp / "a-file"),
        "dir": str(tmp / "dir"),
    }


# (argv with {placeholders}, exit code, a fragment of the message)
CASES: list[tuple[list[str], int, str]] = [
    # suggest
    (["suggest", "--history", "salet:zzzzz"], FAILURE, "is not a mark"),
    (["suggest", "--history", "salet"], FAILURE, "expected word:feedback"),
    (["suggest", "--top", "0"], USAGE, "--top: must be at least 1"),
    (["suggest", "--top", "-3"], USAGE, "must be at least 1"),
    (["suggest", "--top", "1000"], USAGE, "must be at most 50"),
    (["suggest", "--top", "many"], USAGE, "'many' is not a whole number"),
    (["suggest", "--strategy", "nope"], USAGE, "invalid choice"),
    (["suggest", "--answers", MISSING], FAILURE, "cannot read word list"),
    (["suggest", "--history", "crane:ggggg,salet:bbbbb", *FAST], FAILURE, "already solved"),
    (["suggest", "--history", "salet:bbbbb,sonic:gbbbb", *FAST], FAILURE, "no accepted word"),
    (["suggest", "--hard", "--history", "salet:bbbgb,crony:bbbbb", *FAST], FAILURE, "hard mode"),
    # bench
    (["bench", "--limit", "0"], USAGE, "--limit: must be at least 1"),
    (["bench", "--latency", "--processes", "-1"], USAGE, "--processes"),
    (["bench", "--guesses", MISSING], FAILURE, "cannot read word list"),
    # image
    (["image", MISSING, "--out", "{tmp}/x.png"], FAILURE, "does not exist"),
    (["image", "{fake_png}", "--out", "{tmp}/x.png"], FAILURE, "is not a picture"),
    (["image", "{fake_png}", "--out", f"{MISSING}/x.png"], FAILURE, "does not exist"),
    (["image", "{fake_png}", "--out", "{dir}"], USAGE, "unknown output type"),
    (["image", "{fake_png}", "--out", "{tmp}/x.gif"], USAGE, "unknown output type"),
    (["image", "{fake_png}", "--threshold", "300", "--out", "{tmp}/x.png"], USAGE, "at most 256"),
    # render
    (["render", "--top", "0", "--out", "{tmp}/r"], USAGE, "--top"),
    (["render", "--history", "salet:BBQBB", "--out", "{tmp}/r"], FAILURE, "not a mark"),
    (["render", *FAST, "--out", "{file}"], FAILURE, "is a file, not a directory"),
    # push / show / info / link-bench
    (["push", "--port", "sim://", MISSING], FAILURE, "does not exist"),
    (["push", "--port", "sim://", "{garbage}"], FAILURE, "not a valid .frame"),
    (["push", "--port", "sim://", "{notes}"], FAILURE, "neither a picture"),
    (["push", "--port", "sim://", "{header}"], FAILURE, "is a C header"),
    (["push", "--port", "sim://", "{not_hex}"], FAILURE, "not an Intel HEX file"),
    (["push", "--port", "sim://", "{garbage}", "--show", "300"], USAGE, "at most 32"),
    (["push", "--port", "/dev/epdle-none", "{tmp}/f.frame"], FAILURE, "does not exist"),
    (["push", "--port", "sim://", "{garbage}", "--timeout", "0"], USAGE, "more than 0"),
    (["push", "--port", "sim://", "{garbage}", "--retries", "0"], USAGE, "at least 1"),
    (["show", "--port", "sim://", "0"], USAGE, "at least 1"),
    (["show", "--port", "sim://", "300"], USAGE, "at most 32"),
    (["show", "--port", "sim://", "9"], FAILURE, "holds frames 1 to"),
    (["show", "--port", "/dev/epdle-none", "1"], FAILURE, "no such device"),
    (["info", "--port", "/dev/epdle-none"], FAILURE, "cannot open /dev/epdle-none: no such"),
    (["info", "--port", "nope://x"], FAILURE, "protocol 'nope' not known"),
    (["info", "--port", "sim://?bogus=1"], FAILURE, "unknown sim:// option"),
    (["info"], FAILURE, "no USB serial adapter found"),
    (["info", "--port", "auto"], FAILURE, "pass --port PATH (sim:// for the simulated board)"),
    (["info", "--port", "sim://", "--timeout", "nan"], USAGE, "not a finite number"),
    (["link-bench", "--frames", "0"], USAGE, "at least 1"),
    (["link-bench", "--frames", "9"], USAGE, "at most 8"),
    # sim
    (["sim", "selftest", "--out", "{tmp}/s", "--presses", "0"], USAGE, "at least 1"),
    (["sim", "selftest", "--out", "{tmp}/s", "--sleep-ms", "-5"], USAGE, "at least 0"),
    (["sim", "selftest", "--out", "{file}"], FAILURE, "is a file, not a directory"),
    (["sim", "serve", "--pty", "--flash-hex", MISSING], FAILURE, "does not exist"),
    (["sim", "serve", "--pty", "--flash-hex", "{not_hex}"], FAILURE, "not an Intel HEX"),
    (["sim", "serve", "--pty", "--png-dir", "{file}"], FAILURE, "is a file"),
    (["sim", "serve", "--pty", "--vcd", "{dir}"], FAILURE, "is a directory"),
    (["sim", "serve", "--pty", "--epd-log", f"{MISSING}/log"], FAILURE, "does not exist"),
    (["sim", "serve"], USAGE, "--pty"),
    # play / daemon / demo
    (["play", "--answers", MISSING], FAILURE, "cannot read word list"),
    (["play", "--top", "0"], USAGE, "--top: must be at least 1"),
    (
        ["play", "--top", "40"],
        USAGE,
        f"at most {MAX_SUGGESTION_FRAMES} (the suggestion frames the device's store",
    ),
    (["play", *FAST, "--panel-dir", "{file}"], FAILURE, "is a file, not a directory"),
    (["daemon", "--port", "sim://", "--feed", "{dir}", *FAST], FAILURE, "is a directory"),
    (["daemon", "--port", "sim://", "--feed", MISSING, *FAST], FAILURE, "does not exist"),
    (["daemon", "--port", "sim://", "--feed", "-", "--top", "0"], USAGE, "--top"),
    (["daemon", "--feed", "-"], FAILURE, "no USB serial adapter found"),
    (["demo", "--answer", "qqqqq", "--out", "{tmp}/d", *FAST], FAILURE, "not an accepted word"),
    (["demo", "--answer", "crane", "--out", "{file}", *FAST], FAILURE, "is a file"),
    (["demo", "--answer", "crane", "--out", "{tmp}/d", "--top", "0"], USAGE, "--top"),
    # no command at all, an unknown one
    ([], USAGE, "required"),
    (["frobnicate"], USAGE, "invalid choice"),
]


def _ids() -> list[str]:
    return [f"{i}-{'-'.join(argv[:2]) or 'none'}" for i, (argv, _, _) in enumerate(CASES)]


@pytest.mark.parametrize(("argv", "code", "fragment"), CASES, ids=_ids())
def test_bad_input_fails_with_one_plain_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    code: int,
    fragment: str,
) -> None:
    files = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    args = [arg.format(**files) for arg in argv]
    assert main(args) == code
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("epdle") and ": error: " in lines[0], err
    assert fragment in lines[0]
    assert "Traceback" not in err and "Errno" not in err


def test_long_input_is_cut_in_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suggest", "--history", "salet:" + "x" * 100_000]) == FAILURE
    err = capsys.readouterr().err
    assert len(err) < 400 and "(100000 characters)" in err


def test_scripted_play_with_garbage_feedback_fails_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("salet qqqqq\n"))
    code = main(["play", *FAST, "--top", "1", "--panel-dir", str(tmp_path / "p")])
    assert code == FAILURE
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "epdle play: error: colours for 'salet': feedback 'qqqqq': 'q' at position 1 is not "
        "a mark; use G/Y/B letters, 2/1/0 digits or 🟩🟨⬛ squares"
    ]


@pytest.mark.parametrize(
    "make_argv",
    [
        lambda tmp: ["info", "--port", "/dev/epdle-none"],
        lambda tmp: ["sim", "serve", "--pty", "--flash-hex", str(tmp / "no.hex")],
        lambda tmp: ["push", "--port", "sim://", str(tmp / "bad.frame")],
    ],
    ids=["missing-port", "serve-missing-hex", "garbage-frame"],
)
def test_a_real_process_prints_one_line_and_no_traceback(
    tmp_path: Path, make_argv: Callable[[Path], list[str]]
) -> None:
    (tmp_path / "bad.frame").write_bytes(b"zz\n")
    done = subprocess.run(
        [sys.executable, "-m", "epdle", *make_argv(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "EPDLE_DEBUG": ""},
    )
    assert done.returncode == FAILURE
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
