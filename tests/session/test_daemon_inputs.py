"""`epdle daemon` and bad feed lines: a line that is not UTF-8 or is absurdly long is
skipped with a warning, the lines around it are played, and the log stays short."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
from pathlib import Path

from epdle.cli import main
from epdle.session.daemon import MAX_LINE_BYTES

ARGS = ["--port", "sim://", "--strategy", "entropy", "--top", "2"]
# Longest log message the daemon writes about any one line (the line is quoted cut).
LOG_MESSAGE_MAX = 400


def run_daemon(feed: Path, caplog) -> tuple[int, list[str]]:
    caplog.set_level(logging.INFO)
    code = main(["daemon", "--feed", str(feed), *ARGS])
    return code, [record.getMessage() for record in caplog.records]


def test_a_line_that_is_not_utf8_is_skipped_and_the_rest_played(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_bytes(b"salet bybbb\ncr\xffny 21000\xfe\ncrony 21000\n")
    code, messages = run_daemon(feed, caplog)
    assert code == 0
    assert any("line 2: not UTF-8" in m and "skipped" in m for m in messages)
    assert any("5 candidate(s) left" in m for m in messages)  # both good lines played
    assert "feed ended" in messages


def test_a_fifo_goes_on_after_a_line_that_is_not_utf8(tmp_path: Path, caplog) -> None:
    fifo = tmp_path / "feed"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as writer:
            writer.write(b"salet bybbb\n\xc3\x28\n")
        with fifo.open("wb") as writer:  # a second writer: the daemon reopened the FIFO
            writer.write(b"crony 21000\nquit\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    code, messages = run_daemon(fifo, caplog)
    writer.join(5)
    assert code == 0
    assert any("not UTF-8" in m for m in messages)
    assert any("5 candidate(s) left" in m for m in messages)


def test_a_huge_line_is_skipped_unread_and_a_long_one_logged_cut(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    huge = b"x" * (10 * 1024 * 1024)
    long = b"y" * (MAX_LINE_BYTES - 10)
    feed.write_bytes(b"salet bybbb\n" + huge + b"\n" + long + b"\ncrony 21000\n")
    code, messages = run_daemon(feed, caplog)
    assert code == 0
    assert any(f"line 2: {len(huge) + 1} bytes" in m and "skipped" in m for m in messages)
    assert any(m.startswith("'yyyy") and "characters" in m for m in messages)  # line 3, cut
    assert max(len(m) for m in messages) < LOG_MESSAGE_MAX
    assert any("5 candidate(s) left" in m for m in messages)


def test_a_byte_order_mark_starts_the_feed_harmlessly(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_bytes(b"\xef\xbb\xbfsalet bybbb\ncrony 21000\n")
    code, messages = run_daemon(feed, caplog)
    assert code == 0
    assert any("5 candidate(s) left" in m for m in messages)
    assert not any("expected" in m for m in messages)


def test_the_help_states_the_line_limit(capsys) -> None:
    with contextlib.suppress(SystemExit):
        main(["daemon", "--help"])
    assert f"over {MAX_LINE_BYTES} bytes is skipped" in " ".join(capsys.readouterr().out.split())


def test_control_characters_of_a_line_are_escaped_in_the_log(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_bytes(b"sa\x1b[2Jlet bybbb\nsalet by\rbbb\ncrony\x08\x08x 21000\n")
    code, messages = run_daemon(feed, caplog)
    assert code == 0
    errors = [m for m in messages if "\\x1b[2J" in m or "\\r" in m or "\\x08" in m]
    assert len(errors) >= 3, messages
    assert not any(re.search("[\x00-\x1f\x7f-\x9f]", m) for m in messages), messages


def test_a_line_of_separators_is_logged_and_the_game_goes_on(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("salet bbybb\ncrony bbbbb\n")
    _, plain = run_daemon(feed, caplog)
    caplog.clear()
    feed.write_text("salet bbybb\n,\n:\n=\ncrony bbbbb\n")
    code, messages = run_daemon(feed, caplog)
    assert code == 0
    refused = [m for m in messages if "expected '<guess> <colours>'" in m]
    assert len(refused) == 3
    # CRONY played after them: the game ends where it ends without them
    summaries = [m for m in plain if "candidate(s) left" in m]
    assert [m for m in messages if "candidate(s) left" in m][-1] == summaries[-1]
    assert "feed ended" in messages
