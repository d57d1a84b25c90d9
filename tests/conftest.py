"""Every test's player history is its own: no test reads or writes the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_player_history(tmp_path_factory, monkeypatch):
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("EPDLE_DATA_DIR", str(data))
    return data
