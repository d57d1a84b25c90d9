"""Draw the README's picture: the simulated panel through a demo game.

Usage: PYTHONPATH=host python tools/readme_pictures.py  (needs the sim library:
`make native`, then EPDLE_SIM_LIB=build/host/firmware/libepdle_sim.so).
Plays `epdle demo --answer slosh` and lays the panel after each step side by
side, scaled up, as docs/img/demo.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

from epdle.session.demo import play_demo
from epdle.session.game import Game
from epdle.solver import Solver

ANSWER = "slosh"
SCALE = 2
GAP = 8
OUT = Path(__file__).resolve().parent.parent / "docs" / "img" / "demo.png"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        result = play_demo(Game(Solver(), top=1), ANSWER, out, cycle=False)
        panels = [Image.open(out / f"panel-{n}.png").convert("RGB")
                  for n in range(1, result.refreshes + 1)]  # fmt: skip
    width, height = panels[0].size
    sheet = Image.new("RGB", (len(panels) * (width + GAP) - GAP, height), "#888888")
    for i, panel in enumerate(panels):
        sheet.paste(panel, (i * (width + GAP), 0))
    sheet = sheet.resize((sheet.width * SCALE, sheet.height * SCALE), Image.Resampling.NEAREST)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(OUT, optimize=True)
    print(f"wrote {OUT} ({len(panels)} panels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
