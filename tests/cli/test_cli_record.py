"""The command line prints what it printed and exits as it exited when the recording
was made, for every recorded command (cli_record.py says which and how)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_record import run

RECORDING = json.loads(Path(__file__).with_name("cli_record.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize(
    "recorded", RECORDING, ids=[" ".join(r["command"])[:60] for r in RECORDING]
)
def test_the_command_behaves_as_recorded(recorded):
    assert run(recorded["command"], recorded["stdin"]) == recorded
