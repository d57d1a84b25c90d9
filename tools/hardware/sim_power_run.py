"""One `epdle sim power --json` run on the simulated board, and what it counts, for the
generators of `hardware/power.md`'s power tables (gen_power_guard.py, gen_power_gap.py)."""

from __future__ import annotations

import contextlib
import io
import json

from epdle.cli import main

Result = dict[str, object]


def power(volts: float, ohms: float, *options: str) -> Result:
    """One `epdle sim power --json` run of a cell of `volts` and `ohms`, with `options`."""
    args = ["sim", "power", "--json", "--cell-volts", f"{volts:.4f}", "--cell-ohms"]
    args += [f"{ohms:.4f}", *options]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if main(args) != 0:
            raise SystemExit(f"epdle {' '.join(args)} failed")
    result: Result = json.loads(out.getvalue())
    return result


def cuts_with_pumps_on(result: Result) -> int:
    """The run's cuts of the panel's supply with its charge pumps running."""
    violations = result["violations"]
    assert isinstance(violations, list)
    return sum("charge pumps on" in str(violation) for violation in violations)
