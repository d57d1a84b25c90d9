"""The fault campaign (link_campaign.py), CI-sized and seeded; `make soak` runs a long one."""

from __future__ import annotations

import os

from link_campaign import run_campaign

ROUNDS = int(os.environ.get("EPDLE_CAMPAIGN_ROUNDS", "24"))
SEED = int(os.environ.get("EPDLE_CAMPAIGN_SEED", "2112"))


def test_the_fault_campaign_always_leaves_a_whole_set() -> None:
    counts = run_campaign(SEED, ROUNDS)
    print(counts.summary())
    assert counts.mismatches == []
    # The faults did strike: the campaign is no calm run.
    assert counts.cuts >= ROUNDS // 4
    assert counts.presses >= ROUNDS // 4
    assert counts.damaged_transfers >= ROUNDS
    assert counts.uploads_completed >= ROUNDS // 4
