"""Pictures of the play: the bench histogram and the decision tree, as PNG and SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from epdle.cli import main
from epdle.solver import Solver, score
from epdle.solver.bench import BenchResult, run_bench
from epdle.solver.pictures import FAILED, decision_tree, draw_tree, plot_histogram, tree_words
from epdle.solver.universe import Universe

pytest.importorskip("matplotlib")

SVG = "{http://www.w3.org/2000/svg}"


def _result(histogram: dict[int, int], worst: list[str]) -> BenchResult:
    games = sum(histogram.values())
    total = sum(turns * count for turns, count in histogram.items())
    failures = sum(count for turns, count in histogram.items() if turns > 6)
    return BenchResult("best", True, True, games, total / games, max(histogram), histogram,
                       failures, 1.0, "salet", worst)  # fmt: skip


def _red_pixels(path) -> int:
    """Pixels in the failure colour (the lost games' bars, markers and label)."""
    red = tuple(int(FAILED[i : i + 2], 16) for i in (1, 3, 5))
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    return int((np.abs(pixels - red).sum(axis=2) < 30).sum())


def _svg_texts(path) -> list[str]:
    root = ElementTree.parse(path).getroot()
    return [" ".join(node.itertext()).strip() for node in root.iter(f"{SVG}text")]


def test_the_histogram_marks_the_lost_games(tmp_path):
    lost = tmp_path / "lost.png"
    plot_histogram(_result({3: 50, 4: 40, 5: 9, 7: 2, 8: 1}, ["hound"]), lost)
    clean = tmp_path / "clean.png"
    plot_histogram(_result({3: 50, 4: 40, 5: 12}, ["hound"]), clean)
    for path in (lost, clean):
        with Image.open(path) as image:
            image.verify()
            assert image.format == "PNG" and image.size[0] > 400
    # Red only where games were lost (beyond the shaded limit, which is pale).
    assert _red_pixels(lost) > 50
    assert _red_pixels(clean) == 0


def test_the_histogram_svg_names_the_counts_and_the_worst_words(tmp_path):
    path = tmp_path / "bench.svg"
    plot_histogram(_result({2: 5, 3: 50, 4: 40, 7: 3}, ["hound", "mound"]), path)
    texts = _svg_texts(path)
    assert {"5", "50", "40", "3"} <= set(texts)
    assert any("3 games over six" in text for text in texts)
    assert any("HOUND, MOUND" in text for text in texts)


def test_the_tree_follows_the_solvers_play(small_universe, small_answers):
    solver = Solver("best", universe=small_universe)
    root = decision_tree(solver, depth=2, branches=3)
    assert root.guess == solver.next_guess(solver.initial_state())
    assert root.size == len(small_answers)
    groups = Counter(score(root.guess, answer) for answer in small_answers)
    groups.pop("GGGGG", None)
    largest = sorted(groups.values(), reverse=True)
    assert [child.size for child in root.children] == largest[:3]
    assert root.hidden == len(groups) - 3
    assert root.hidden_words == sum(largest[3:])
    for child in root.children:
        state = solver.apply(solver.initial_state(), root.guess, child.feedback)
        assert child.guess == solver.next_guess(state)
        assert child.size == len(state.candidates)
        assert len(child.children) <= 3 and all(not c.children for c in child.children)


def test_the_tree_picture_holds_every_guess_it_shows(tmp_path, small_universe):
    solver = Solver("entropy", universe=small_universe)
    root = decision_tree(solver, opener="salet", depth=2, branches=2)
    svg = tmp_path / "tree.svg"
    draw_tree(root, svg, "entropy from SALET")
    texts = _svg_texts(svg)
    assert "entropy from SALET" in texts
    assert set(w.upper() for w in tree_words(root)) <= set(texts)
    png = tmp_path / "tree.png"
    draw_tree(root, png)
    with Image.open(png) as image:
        assert image.format == "PNG"
        # Green and yellow feedback tiles are drawn on the branches.
        colours = {tuple(c) for c in np.asarray(image.convert("RGB")).reshape(-1, 3)[::7]}
    assert (0x6A, 0xAA, 0x64) in colours


def test_the_commands_write_the_pictures(tmp_path, capsys, small_guesses, small_answers):
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(small_answers) + "\n")
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("\n".join(small_guesses) + "\n")
    lists = ["--answers", str(answers), "--guesses", str(guesses)]
    plot = tmp_path / "bench.svg"
    assert main(["bench", "--strategy", "entropy", "--plot", str(plot), *lists]) == 0
    solver = Solver("entropy", universe=Universe(small_guesses, small_answers))
    counts = run_bench(solver, small_answers).histogram
    assert {str(count) for count in counts.values()} <= set(_svg_texts(plot))
    picture = tmp_path / "tree.png"
    assert main(["tree", str(picture), "--opener", "salet", "--depth", "1", *lists]) == 0
    assert Image.open(picture).format == "PNG"
    capsys.readouterr()
    assert main(["tree", str(tmp_path / "tree.gif"), *lists]) == 2
    assert "must be .png or .svg" in capsys.readouterr().err
    assert main(["tree", str(picture), "--opener", "zzzzz", *lists]) == 1  # a bad value
    assert "not in the accepted word list" in capsys.readouterr().err
    assert main(["bench", "--plot", str(tmp_path / "b.jpg"), "--limit", "1", *lists]) == 2
