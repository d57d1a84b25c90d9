"""Draw the README's pictures: the simulated panel through demo games.

Usage: PYTHONPATH=host python tools/gen/readme_pictures.py  (needs the sim library:
`make native`, then EPDLE_SIM_LIB=build/host/firmware/libepdle_sim.so).
Plays `epdle demo --answer slosh` (docs/img/demo.png: today's game, under the history
prior, on PICTURE_DAY, the day after the shipped history's newest answer, so that the
picture does not depend on the day it is drawn), a six-letter German game
(`--language de --length 6 --answer straße`, docs/img/demo-de-6.png) and a
nine-letter English one (`--length 9 --answer labyrinth`, docs/img/demo-en-9.png),
and lays the panel after each step side by side, scaled up.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

from epdle.session.demo import play_demo
from epdle.session.one_board import Game
from epdle.session.spec import GameSpec
from epdle.solver import Solver

SCALE = 2
GAP = 8
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
PICTURE_DAY = "2026-08-22"
# (picture, answer, the game as `epdle demo` plays it)
GAMES = [
    ("demo.png", "slosh", GameSpec(prior="history", date=PICTURE_DAY)),
    ("demo-de-6.png", "straße", GameSpec(language="de", length=6)),
    ("demo-en-9.png", "labyrinth", GameSpec(length=9)),
]


def main() -> int:
    for name, answer, spec in GAMES:
        universe = spec.in_mode(False, False).universe()
        draw(Solver(universe=universe), answer, IMAGES / name)
    return 0


def draw(solver: Solver, answer: str, picture: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        result = play_demo(Game(solver, top=1), answer, out, cycle=False)
        panels = [Image.open(out / f"panel-{n}.png").convert("RGB")
                  for n in range(1, result.refreshes + 1)]  # fmt: skip
    width, height = panels[0].size
    sheet = Image.new("RGB", (len(panels) * (width + GAP) - GAP, height), "#888888")
    for i, panel in enumerate(panels):
        sheet.paste(panel, (i * (width + GAP), 0))
    sheet = sheet.resize((sheet.width * SCALE, sheet.height * SCALE), Image.Resampling.NEAREST)
    picture.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(picture, optimize=True)
    guesses = " ".join(step.guess for step in result.steps)
    print(f"wrote {picture} ({len(panels)} panels: {guesses})")


if __name__ == "__main__":
    sys.exit(main())
