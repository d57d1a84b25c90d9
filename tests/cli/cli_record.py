"""The recorded outputs and exit codes of a representative set of `epdle` commands: the
one-board and several-board games (suggest, bench, play, demo, review) and their usage
errors. The recording (cli_record.json) was made when equal guesses came to be listed the
more common word first and the suggestion tables to show the figure they are ranked by
(it held through the command line's upper floors and the solver redrawn before that), and
made again when the default game came to start from the 2023 list, and when today's
game came to be played under the history prior by default: the commands here play the
default game, whichever it is. Every command runs on one fixed day (EPDLE_TODAY,
RECORD_TODAY) with an empty history of the player's, so that the recording does not
depend on the day it runs. test_cli_record.py holds every command to it.

Regenerate (only when an output is meant to change):
    .venv/bin/python tests/cli/cli_record.py > tests/cli/cli_record.json
(EPDLE_RECORD_FROM=DIR: the `epdle` package under DIR instead of the installed one, e.g.
an older tree's host/.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

# (arguments, stdin); {out} is a fresh directory of the run.
COMMANDS: list[tuple[list[str], str]] = [
    (["suggest"], ""),
    (["suggest", "--history", "salet:bbybb"], ""),
    (["suggest", "--history", "salet:bbybb", "--hard", "--json"], ""),
    (["suggest", "--history", "crane:ybbbb,doubt:bgbbb", "--top", "3"], ""),
    (["suggest", "--history", "tarse:bybbb", "--strategy", "entropy"], ""),
    (["suggest", "--history", "tarse:bybbb", "--strategy", "freq", "--hard", "--json"], ""),
    (["suggest", "--history", "salet:bbbbb,crony:bbbbb,dumpy:gbbbb"], ""),  # no word fits
    (["suggest", "--history", "salet:bbbbb,crony:bbbbb,dumpy:gbbbb", "--json"], ""),
    (["suggest", "--prior", "uniform", "--top", "3"], ""),  # the 2023 list's game
    (["suggest", "--history", "salet:ggggg"], ""),
    (["suggest", "--history", "salet:bbbbb,salet:bbbbb"], ""),
    (["suggest", "--history", "zzzzz:bbbbb"], ""),
    (["suggest", "--history", "salet:bbybb,crony:bbbbb", "--hard"], ""),
    (["suggest", "--history", "salet:bbxbb"], ""),
    (["suggest", "--boards", "2", "--history", "salet:bbybb/gbbbb"], ""),
    (["suggest", "--boards", "2", "--history", "salet:bbybb/gbbbb", "--json"], ""),
    (["suggest", "--boards", "2", "--history", "salet:bbybb"], ""),
    (["suggest", "--boards", "2", "--strategy", "freq"], ""),
    (["suggest", "--boards", "4", "--history", "salet:bbbbb/bbbbb/bbbbb/bbbbb"], ""),
    (["suggest", "--boards", "0"], ""),
    (["suggest", "--top", "0"], ""),
    (["bench", "--limit", "12", "--json"], ""),
    (["bench", "--limit", "8", "--hard", "--strategy", "entropy", "--json"], ""),
    (["bench", "--boards", "2", "--limit", "3", "--json"], ""),
    (["bench", "--boards", "2"], ""),
    (["bench", "--boards", "2", "--latency", "--limit", "3"], ""),
    (["bench", "--games", "x.txt"], ""),
    (["bench", "--boards", "2", "--strategy", "entropy", "--limit", "2"], ""),
    (["bench", "--plot", "out.xyz", "--limit", "2"], ""),
    (["review", "--history", "salet:GBYBB,crony:BBGBB,slosh:GGGGG"], ""),
    (["review", "--history", "salet:GBYBB,crony:BBGBB,slosh:GGGGG", "--json"], ""),
    (["review", "--history", "salet:bbbbb,crony:bbbbb,dumpy:gbbbb", "--json"], ""),
    (["review"], ""),
    (
        ["play", "--port", "sim://", "--panel-dir", "{out}", "--top", "3"],
        "salet bbybb\nhard\nundo\nblind\nsalet zzzzz\ncandidates\nsalet bbybb\nquit\n",
    ),
    (
        ["play", "--port", "sim://", "--panel-dir", "{out}", "--boards", "2", "--top", "2"],
        "salet bbybb/gbbbb\nhelp\nhard\ncandidates\nundo\nquit\n",
    ),
    (
        ["play", "--port", "sim://", "--panel-dir", "{out}", "--boards", "2", "--strategy", "freq"],
        "",
    ),
    (
        ["play", "--port", "sim://", "--panel-dir", "{out}"],
        "salet bbbbb\ncrony bbbbb\ndumpy gbbbb\nquit\n",
    ),
    (["demo", "--answer", "cigar", "--out", "{out}", "--no-cycle"], ""),
    (["demo", "--answer", "cigar,rebut", "--boards", "2", "--out", "{out}", "--no-cycle"], ""),
    (["demo", "--answer", "cigar", "--boards", "2", "--out", "{out}"], ""),
    (["demo", "--answer", "qqqqq", "--out", "{out}"], ""),
]


def _normalised(text: str, out: str) -> str:
    text = text.replace(os.path.realpath(out), "{out}").replace(out, "{out}")
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', text)
    # The simulated board's timing and energy, the bench's and the demo's clocks.
    return re.sub(r"\d+\.\d s simulated, \d+\.\d mJ", "T s simulated, E mJ", text)


def _program() -> list[str]:
    source = os.environ.get("EPDLE_RECORD_FROM")
    if not source:
        return [sys.executable, "-m", "epdle"]
    # Past the editable install's finder: the package under `source`.
    start = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
        "if 'editable' not in getattr(f, '__module__', '')]; "
        f"sys.path.insert(0, {source!r}); from epdle.cli import main; sys.exit(main())"
    )
    return [sys.executable, "-c", start]


# The day every command runs on: the day after the shipped history's newest answer.
RECORD_TODAY = "2026-08-22"


def run(arguments: list[str], stdin: str) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory() as cache,
        tempfile.TemporaryDirectory() as data,
        tempfile.TemporaryDirectory() as out,
    ):
        command = [a.replace("{out}", out) for a in arguments]
        env = {**os.environ, "COLUMNS": "100", "EPDLE_CACHE_DIR": cache, "NO_COLOR": "1"}
        env |= {"EPDLE_DATA_DIR": data, "EPDLE_TODAY": RECORD_TODAY}
        done = subprocess.run(
            [*_program(), *command],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        return {
            "command": arguments,
            "stdin": stdin,
            "code": done.returncode,
            "stdout": _normalised(done.stdout, out),
            "stderr": _normalised(done.stderr, out),
        }


def main() -> int:
    print(json.dumps([run(arguments, stdin) for arguments, stdin in COMMANDS], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
