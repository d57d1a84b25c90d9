"""Helpers for the web tests."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient


def settle(client: TestClient) -> dict:
    """The state once the device has caught up with the advice (the push follows the
    reply: the page gets the advice first)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = client.get("/api/state").json()
        if not state["device"]["updating"]:
            return state
        time.sleep(0.02)
    raise AssertionError("the device never caught up")


# Colours typed wrong after TARSE, each with the command line's refusal of it: the page
# sends them as typed and shows that refusal (one board or several).
MALFORMED = {
    "not-a-mark": ("bbxbb", "'x' at position 3 is not a mark"),
    "four-letters": ("gybb", "'tarse' has 5 letters but 4 colours were given"),
    "four-squares": ("🟩🟨⬛⬛", "'tarse' has 5 letters but 4 colours were given"),
    "six-marks": ("yyyyyy", "'tarse' has 5 letters but 6 colours were given"),
}
MALFORMED_CASES = [
    pytest.param(colours, message, id=name) for name, (colours, message) in MALFORMED.items()
]
