"""tools/bench/bench_history.py: each puzzle replayed with only the answers before it,
beside the other priors on the same answer, and the table it writes by era."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))
import bench_history

from epdle.words.history import SHIPPED_HISTORY, shipped_history


def test_a_replayed_puzzle_is_played_by_every_prior_and_tabled_by_era(
    tmp_path, monkeypatch
) -> None:
    out = tmp_path / "replay.json"
    puzzles = [p for p in shipped_history() if p.puzzle in (1500, 1750)]
    fixed = bench_history.fixed_setups(False)
    shipped = str(resources.files("epdle.words").joinpath(SHIPPED_HISTORY))
    results: list[dict[str, object]] = []
    bench_history.replay(puzzles, False, fixed, shipped, set(), results, out)
    rows = json.loads(out.read_text())
    assert [(r["puzzle"], r["word"]) for r in rows] == [(1500, "savvy"), (1750, "sandy")]
    for row in rows:
        assert all(1 <= row[prior] <= bench_history.LOST_AT for prior in bench_history.PRIORS)
    doc = tmp_path / "bench.md"
    doc.write_text("x\n<!-- bench:history -->\nold\n<!-- /bench:history -->\ny\n")
    monkeypatch.setattr(bench_history, "BENCH_MD", doc)
    rows.append({**rows[0], "puzzle": 1501})  # two games an era: a standard error
    rows.append({**rows[1], "puzzle": 1751})
    out.write_text(json.dumps(rows))
    bench_history.write_table(out)
    text = doc.read_text()
    assert text.startswith("x\n<!-- bench:history -->\n") and text.endswith("y\n")
    assert "| 743-1688 | normal | 2 | history |" in text
    assert "| 1689-1751 | normal | 2 | uniform (original) |" in text
    assert "old" not in text
