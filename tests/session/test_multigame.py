"""A game of several boards: one colour group per board, the end at N + 5 guesses (or
every board solved), undo/new, the frames and the played line of play and daemon."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path

import pytest
from PIL import Image
from rich.console import Console

from epdle.cli import main
from epdle.render.multi import render_multi
from epdle.render.planes import planes_to_image
from epdle.session.boards import MultiGame, parse_colours
from epdle.session.controller import Controller
from epdle.session.daemon import Daemon
from epdle.session.game import GameError
from epdle.session.presenter import DevicePresenter
from epdle.solver import score
from epdle.solver.multi import MultiSolver

# Two boards, JAUNT and CIGAR: the ?AUNT words never find JAUNT, CIGAR is found last.
ANSWERS = ["jaunt", "cigar"]
LOSING = ["salet", "daunt", "gaunt", "haunt", "taunt", "vaunt", "cigar"]


def colours(word: str, answers: list[str] = ANSWERS, solved: tuple[int, ...] = ()) -> str:
    return "/".join("-" if board in solved else score(word, a) for board, a in enumerate(answers))


@pytest.fixture(scope="module")
def dordle() -> MultiSolver:
    return MultiSolver(2)


def test_colours_take_every_board_or_the_open_ones() -> None:
    assert parse_colours("crane", "gybbb/21000", [True, True]) == ["GYBBB", "GYBBB"]
    assert parse_colours("crane", "-/🟩🟨⬛⬛⬛", [False, True]) == [None, "GYBBB"]
    # A solved board may be left out, or given anything: it has no colours any more.
    assert parse_colours("crane", "gybbb", [False, True, False]) == [None, "GYBBB", None]
    assert parse_colours("crane", "ggggg/bbbbb", [False, True]) == [None, "BBBBB"]


@pytest.mark.parametrize(
    ("text", "open_boards", "message"),
    [
        ("gybbb", [True, True], r"1 colour group\(s\) for 2 boards: give 2, separated by /"),
        ("gybbb/bbbbb", [True, False, True, True], r"give 4 \(or 3, the open boards'\)"),
        ("-/bbbbb", [True, True], "board 1 is not solved yet: give its colours"),
        ("gybbb/bbxbb", [True, True], "board 2: "),
        ("gybb/bbbbb", [True, True], "board 1: "),
    ],
)
def test_wrong_colours_say_which_board(text: str, open_boards: list[bool], message: str) -> None:
    with pytest.raises(GameError, match=message):
        parse_colours("crane", text, open_boards)


def test_the_game_ends_lost_at_n_plus_5_with_what_was_left(dordle: MultiSolver) -> None:
    game = MultiGame(dordle)
    assert game.max_guesses == 7
    for word in LOSING[:-1]:
        game.play_colours(word, colours(word))
        assert not game.over
    game.play_colours("cigar", colours("cigar"))
    assert len(game.history) == 7
    assert game.lost and game.over and not game.solved
    assert game.open_boards() == [True, False]
    assert game.advice.boards[0].candidates == ["jaunt"]
    with pytest.raises(GameError, match="over: all 7 guesses are played"):
        game.play_colours("jaunt", "ggggg/-")
    assert len(game.history) == 7  # unchanged
    game.undo()
    game.undo()
    game.play_colours("jaunt", colours("jaunt"))
    game.play_colours("cigar", "-/ggggg")
    assert game.solved and not game.lost and len(game.history) == 7
    with pytest.raises(GameError, match="solved"):
        game.play_colours("crane", "-/-")
    game.new()
    assert game.history == [] and not game.over


def test_a_bad_guess_leaves_the_game_as_it_was(dordle: MultiSolver) -> None:
    game = MultiGame(dordle)
    game.play_colours("salet", colours("salet"))
    for word, text in [("zzzzz", "bbbbb/bbbbb"), ("crane", "ggggg/ggggg")]:
        with pytest.raises(GameError):
            game.play_colours(word, text)  # not a word; two answers the same word
    assert [word for word, _ in game.history] == ["salet"]


def test_frames_cycle_the_suggestions_then_end_with_the_words_left_and_the_review(
    dordle: MultiSolver,
) -> None:
    game = MultiGame(dordle, top=3)
    controller = Controller(game, DevicePresenter("sim://"))
    assert len(controller.frames()) == 3
    for word in LOSING:
        game.play_colours(word, colours(word))
    frames = controller.frames()
    # The status frame (NOT SOLVED, and what board 1 had left), then the game's review card.
    review = game.review(game.history)
    assert len(review.turns) == len(LOSING)
    assert frames == [*render_multi(game.advice, 3), game.review_planes(review)]
    other = game.advice.boards[0].__class__(None, 1, ["daunt"])
    changed = game.advice.__class__(
        [], [other, game.advice.boards[1]], 7, 0, solved=False, lost=True
    )
    assert render_multi(changed, 3) != frames


def test_the_played_line_takes_one_group_a_board_and_commands_still_work(
    dordle: MultiSolver,
) -> None:
    def solvers(hard: bool, blind: bool) -> MultiSolver:
        return dordle if (hard, blind) == (False, False) else MultiSolver(2, hard=hard, blind=blind)

    game = MultiGame(dordle, solvers=solvers)
    controller = Controller(game, DevicePresenter("sim://"))
    controller.defer_pushes = True  # the device is tested elsewhere
    outcome = controller.handle(f"salet {colours('salet')}")
    assert outcome.error is None and outcome.changed
    assert controller.handle("daunt gybbb").error == (
        "'daunt': 1 colour group(s) for 2 boards: give 2, separated by /, - for a solved "
        "board, e.g. gybbb/gybbb"
    )
    spaced = " / ".join(colours("daunt").split("/"))
    assert controller.handle(f"daunt {spaced}").error is None
    assert len(controller.game.history) == 2
    assert controller.handle("undo").changed
    assert len(controller.game.history) == 1
    assert controller.handle("show x").error == "show needs a suggestion number, e.g. 'show 2'"
    assert controller.handle("what is this").unknown
    notes = controller.handle("c").notes
    assert notes[0].startswith("board 1: ") and notes[1].startswith("board 2: ")
    assert controller.handle("hard on").notes == ["hard mode on"]
    assert controller.game.solver.hard and len(controller.game.history) == 1


def test_a_guess_spelt_as_a_command_is_a_guess(dordle: MultiSolver) -> None:
    controller = Controller(MultiGame(dordle), DevicePresenter("sim://"))
    controller.defer_pushes = True
    assert controller.handle(f"blind {colours('blind')}").error is None
    assert controller.handle("undo").changed and controller.game.history == []
    controller.handle(f"cigar {colours('cigar')}")
    assert controller.handle(f"blind {score('blind', 'jaunt')}").error is None  # one board open
    assert [word for word, _ in controller.game.history] == ["cigar", "blind"]
    assert controller.handle("blind maybe").error == (
        "blind takes on or off, e.g. 'blind off' ('blind' turns it on)"
    )


def test_the_one_open_boards_colours_alone_do(dordle: MultiSolver) -> None:
    controller = Controller(MultiGame(dordle), DevicePresenter("sim://"))
    controller.defer_pushes = True
    assert controller.handle(f"cigar {colours('cigar')}").error is None
    assert controller.handle(f"jaunt {score('jaunt', 'jaunt')}").error is None
    assert controller.game.solved
    assert controller.game.history[-1][1] == ["GGGGG", None]


def test_scripted_play_of_two_boards_ends_at_seven(tmp_path: Path, monkeypatch, capsys) -> None:
    script = [f"{word} {colours(word)}" for word in LOSING] + ["jaunt ggggg/-"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script) + "\n"))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=200, color_system=None)
    )
    code = main(["play", "--boards", "2", "--panel-dir", str(tmp_path)])
    errors = capsys.readouterr().err.splitlines()
    assert code == 1
    assert errors == [
        "epdle play: error: this game is over: all 7 guesses are played; "
        "type 'new' to start another"
    ]
    text = output.getvalue()
    assert "Not solved in 7: board 1: 1 word left: JAUNT." in text
    assert "DAUNT  BGGGG  BYBBB" in text  # the board, piped: each board's colours
    assert "solved in 7 (CIGAR)" not in text  # only the open boards in the end line
    panels = sorted(tmp_path.glob("panel-*.png"), key=lambda path: int(path.stem[6:]))
    assert panels  # the simulated board's panel, the last one the NOT SOLVED frame
    assert Image.open(panels[-1]).size == (212, 104)


def test_the_daemon_plays_a_quordle_feed(tmp_path: Path, caplog) -> None:
    answers = ["cigar", "rebut", "sissy", "humph"]
    feed = tmp_path / "feed"
    feed.write_text(f"salet {colours('salet', answers)}\nbad line here\n")
    solver = MultiSolver(4)
    controller = Controller(MultiGame(solver), DevicePresenter("sim://"))
    with caplog.at_level(logging.INFO, logger="epdle.daemon"):
        assert Daemon(controller, str(feed), poll_interval=0.01).run() == 0
    messages = [record.getMessage() for record in caplog.records]
    assert any(message.startswith("guess 2 of 9; boards: ") for message in messages)
    assert any("expected '<guess> <colours>'" in message for message in messages)
    assert len(controller.game.history) == 1


def test_demo_of_two_boards_solves_and_ends_on_the_solved_frame(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    command = ["demo", "--boards", "2", "--answer", "cigar,rebut", "--top", "2", "--out"]
    assert main([*command, str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["solved"] is True and summary["answer"] == "cigar,rebut"
    assert len(summary["guesses"]) <= 7
    assert summary["violations"] == []
    assert all(len(feedback.split("/")) == 2 for feedback in summary["feedback"])
    last = Image.open(out / f"panel-{summary['refreshes']}.png").convert("RGB")
    solver = MultiSolver(2)
    history = [
        (guess, [None if part == "-" else part for part in feedback.split("/")])
        for guess, feedback in zip(summary["guesses"], summary["feedback"], strict=True)
    ]
    solved = planes_to_image(render_multi(solver.advise(history), 2)[0]).convert("RGB")
    assert last.tobytes() == solved.tobytes()
    # The button cycled the turn's suggestions: the second refresh is the opening's second.
    second = Image.open(out / "panel-2.png").convert("RGB")
    opening = planes_to_image(render_multi(solver.advise([], top=2), 2)[1]).convert("RGB")
    assert second.tobytes() == opening.tobytes()
    assert summary["refreshes"] == summary["frames_pushed"]  # every frame pushed was shown


@pytest.mark.parametrize(
    ("arguments", "code", "message"),
    [
        (["--boards", "2", "--answer", "cigar"], 1, "--answer has 1 word(s) for 2 boards"),
        (["--boards", "2", "--answer", "cigar,qqqqq"], 1, "'qqqqq' is not an accepted word"),
        (["--boards", "0", "--answer", "cigar"], 2, "must be at least 1, not 0"),
        (["--boards", "two", "--answer", "cigar"], 2, "'two' is not a whole number"),
        (
            ["--boards", "2", "--strategy", "freq", "--answer", "a,b"],
            2,
            "--strategy applies to one",
        ),
    ],
)
def test_demo_refuses_bad_boards_and_answers(
    tmp_path: Path, capsys, arguments: list[str], code: int, message: str
) -> None:
    assert main(["demo", *arguments, "--out", str(tmp_path)]) == code
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error


def test_the_reference_examples_play() -> None:
    reference = Path(__file__).resolve().parents[2] / "docs" / "reference.md"
    lines = re.findall(r"^guess colours> (.+)$", reference.read_text(), re.MULTILINE)
    assert len(lines) == 3
    controller = Controller(MultiGame(MultiSolver(4)), DevicePresenter("sim://"))
    controller.defer_pushes = True
    for line in lines:
        assert controller.handle(line).error is None, line
    assert controller.game.open_boards() == [True, False, True, False]
