"""Presses against push, info, show and clear on `epdle sim serve --pty --real-time`: the
board in its own process, in real time (a refresh takes its ~15 s of wall time), the host
a new session on the terminal for each command (as `epdle info` is), the button pressed
(SIGUSR1) at a seeded moment before or during the command. The command must go
through; while the device refreshes the panel the host says so in one line and waits.

Run as a script for trials of the issue's kinds: a push, a press at a random moment
0.05-2 s after it starts, then `info`; or (--before) a press at a random moment 0.05-2 s
before `epdle info`:
    python tests/sim/test_press_real_time.py --trials 10 --seed 1 [--before]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from served_pty import STATE_TIMEOUT_S, Line, ServedPty

from epdle.frames import encode
from epdle.link import Device, LinkError
from epdle.render.suggestions import render_suggestion
from epdle.solver.engine import Suggestion

PARALLEL_TRIALS = 4


def suggestions(words: list[str]) -> list[bytes]:
    """Typical suggestion frames (a push of 8 takes some 3 s on the line)."""
    history = [("crane", "bgybb")]
    out = []
    for rank, word in enumerate(words):
        suggestion = Suggestion(word, 3.2 - 0.1 * rank, 5.0, rank % 2 == 0)
        planes = render_suggestion(history, suggestion, rank + 1, len(words), 23)
        out.append(encode(planes.black, planes.red))
    return out


OLD = suggestions(["sloth", "doubt"])
NEW = suggestions(["sloth", "doubt", "pious", "limbo", "fight", "tulip", "boxed", "humph"])


COMMANDS: dict[str, Callable[[Device], object]] = {
    "push": lambda dev: dev.push(NEW, replace=True),
    "info": lambda dev: dev.info(),
    "show": lambda dev: dev.show(1),
    "clear": lambda dev: dev.clear(),
}


@dataclass
class Outcome:
    error: str | None
    notices: list[str]
    seconds: float
    refreshes: int = 0  # after the press: its own, and the show's


def last_press(lines: list[Line]) -> int | None:
    return max(
        (i for i, (_, text) in enumerate(lines) if text.startswith("button pressed")),
        default=None,
    )


def idle_after_press(lines: list[Line]) -> bool:
    """The press came, and the device went to sleep after it (and after its refresh)."""
    pressed = last_press(lines)
    return pressed is not None and lines[-1][1] == "asleep" and len(lines) - 1 > pressed


def refreshes_after_press(lines: list[Line]) -> int:
    pressed = last_press(lines) or 0
    return sum(text.startswith("panel refreshed") for _, text in lines[pressed:])


def run_epdle_info(path: str, notices: list[str]) -> str | None:
    """`epdle info` itself: exit 0, or its error line; its other stderr lines are notices."""
    done = subprocess.run(
        [sys.executable, "-m", "epdle", "info", "--port", path],
        capture_output=True,
        text=True,
        timeout=STATE_TIMEOUT_S,
        check=False,
    )
    lines = done.stderr.splitlines()
    if done.returncode != 0:
        return lines[-1] if lines else f"exit {done.returncode}"
    notices += lines
    return None


def trial(command: str, press_at: float, then_info: bool = False) -> Outcome:
    """Press `press_at` seconds after the command starts (before it, if negative)."""
    with ServedPty() as server:
        with Device.open(server.path) as dev:
            dev.push(OLD)
        server.wait_until(lambda lines: bool(lines) and lines[-1][1] == "asleep", "asleep")
        if press_at < 0:
            server.press()
            threading.Event().wait(-press_at)  # the press's moment, not a synchronisation
        else:
            threading.Timer(press_at, server.press).start()
        notices: list[str] = []
        started = time.monotonic()
        try:
            for name in [command, "info"] if then_info else [command]:
                if name == "info" and not then_info:
                    error = run_epdle_info(server.path, notices)
                    if error is not None:
                        return Outcome(error, notices, time.monotonic() - started)
                    continue
                with Device.open(server.path) as dev:  # a new session, as a new `epdle` is
                    dev.notice = notices.append
                    COMMANDS[name](dev)
        except LinkError as error:
            return Outcome(str(error), notices, time.monotonic() - started)
        seconds = time.monotonic() - started
        server.wait_until(idle_after_press, "asleep after the press")
        with server.changed:
            return Outcome(None, notices, seconds, refreshes_after_press(server.lines))


# Seeded press moments, before each command (its new session opens on a refresh under
# way) and during it.
_rng = random.Random(36)
TRIALS = [
    (command, round(_rng.uniform(*span), 2))
    for command in COMMANDS
    for span in ((-1.5, -0.05), (0.05, 2.0))
]


@pytest.mark.slow
def test_presses_at_every_phase_never_fail_a_command() -> None:
    with ThreadPoolExecutor(PARALLEL_TRIALS) as pool:
        outcomes = list(pool.map(lambda t: trial(*t), TRIALS))
    failed = [(t, o.error) for t, o in zip(TRIALS, outcomes, strict=True) if o.error]
    assert failed == []
    for (command, _), outcome in zip(TRIALS, outcomes, strict=True):
        # The press was shown, wherever it came (during a command too, released before its
        # reply), once; a SHOW's own refresh besides.
        assert outcome.refreshes == 1 + (command == "show")
        assert len(outcome.notices) <= 2  # one line per refresh waited out
        assert all("is refreshing its panel: waiting" in n for n in outcome.notices)
    # The commands that came while the panel refreshed said so.
    assert sum(bool(o.notices) for o in outcomes) >= len(TRIALS) // 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", action="store_true", help="press before `epdle info`")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    moments = [round(rng.uniform(0.05, 2.0), 2) for _ in range(args.trials)]

    def one(at: float) -> Outcome:
        return trial("info", -at) if args.before else trial("push", at, then_info=True)

    with ThreadPoolExecutor(PARALLEL_TRIALS) as pool:
        outcomes = list(pool.map(one, moments))
    for at, outcome in zip(moments, outcomes, strict=True):
        result = outcome.error or (
            f"ok ({len(outcome.notices)} notice(s), {outcome.refreshes} refresh(es) after it)"
        )
        when = "before `epdle info`" if args.before else "into the push"
        print(f"press {at:4.2f} s {when}: {outcome.seconds:5.1f} s, {result}")
    failures = sum(o.error is not None for o in outcomes)
    print(f"{args.trials - failures} of {args.trials} trials went through")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
