"""Every test's player history is its own: no test reads or writes the user's. And every
test's today is one fixed day (EPDLE_TODAY), the day after the shipped history's newest
answer: what today's game plays does not depend on the day the tests run."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_player_history(tmp_path_factory, monkeypatch):
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("EPDLE_DATA_DIR", str(data))
    monkeypatch.setenv("EPDLE_TODAY", TODAY)
    return data


# The day tests play on, for EPDLE_TODAY: the shipped history ends the day before.
TODAY = "2026-08-22"
