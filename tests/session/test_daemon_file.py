"""`epdle daemon` fed from a plain file: it plays every line, then ends."""

from __future__ import annotations

import logging
from pathlib import Path

from epdle.cli import main


def test_daemon_plays_a_file_feed_and_ends(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("salet bybbb\nnot a line\ncrony 21000\n")
    caplog.set_level(logging.INFO)
    code = main(["daemon", "--port", "sim://", "--feed", str(feed), "--strategy", "entropy",
                 "--top", "2"])  # fmt: skip
    assert code == 0
    messages = [record.getMessage() for record in caplog.records]
    assert any("5 candidate(s) left" in m for m in messages)  # after both guesses
    assert any(m.startswith("not a line: expected '<guess> <colours>'") for m in messages)
    assert "feed ended" in messages


def test_daemon_refuses_a_missing_feed(tmp_path: Path, capsys) -> None:
    assert main(["daemon", "--port", "sim://", "--feed", str(tmp_path / "nope")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_daemon_needs_a_port(capsys) -> None:
    # Without --port: auto, which finds no USB serial adapter here.
    assert main(["daemon", "--feed", "-"]) == 1
    assert "no USB serial adapter found" in capsys.readouterr().err
