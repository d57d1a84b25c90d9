"""One spec, one setup: the game's settings fixed once, its solvers made once per mode,
one place choosing one board's game or several, one rule for widening past the list."""

from __future__ import annotations

import argparse

import pytest

from epdle.cli import main
from epdle.cli.errors import UsageError
from epdle.cli.options import add_boards_option, add_solver_options, add_top_option, game_spec
from epdle.session.boards import MultiGame
from epdle.session.controller import Controller
from epdle.session.game import GameError
from epdle.session.one_board import Game
from epdle.session.presenter import DevicePresenter
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec


def _spec(*argv: str) -> GameSpec:
    parser = argparse.ArgumentParser()
    add_solver_options(parser)
    add_top_option(parser)
    add_boards_option(parser)
    return game_spec(parser.parse_args(list(argv)))


def test_the_arguments_make_one_frozen_spec() -> None:
    spec = _spec("--hard", "--top", "3", "--boards", "4")
    assert spec == GameSpec(boards=4, hard=True, top=3)
    with pytest.raises(AttributeError):
        spec.hard = False  # type: ignore[misc]
    with pytest.raises(UsageError, match="--strategy applies to one board"):
        _spec("--boards", "2", "--strategy", "freq")


def test_a_dictionary_game_is_blind_whatever_is_asked() -> None:
    assert _spec("--length", "6").in_mode(hard=True, blind=False).blind
    assert _spec("--language", "fr").always_blind
    own = _spec("--length", "6", "--answers", "mine.txt")
    assert not own.always_blind and not own.in_mode(False, False).blind
    assert not _spec("--prior", "uniform").in_mode(False, False).blind
    assert _spec().in_mode(False, False).blind  # today's game: the history prior's words


def test_only_the_original_lists_widen() -> None:
    assert _spec().widens
    for options in (["--answers", "a.txt"], ["--guesses", "g.txt"], ["--length", "4"]):
        assert not _spec(*options).widens


def test_each_modes_solver_is_made_once_and_switching_uses_it() -> None:
    setup = GameSetup(GameSpec(top=2))
    game = setup.new_game()
    assert isinstance(game, Game) and game.solver is setup.solver(False, False)
    game.play("salet", "bbybb")
    game.switch(hard=True)
    assert game.solver is setup.solver(True, False) and game.solver.hard
    assert setup.new_game().solver is setup.solver(False, False)


def test_the_boards_choose_the_game_and_its_controller() -> None:
    one, several = GameSetup(GameSpec()).game_kind(), GameSetup(GameSpec(boards=2)).game_kind()
    assert (one.game, several.game) == (Game, MultiGame)
    setup = GameSetup(GameSpec(boards=2, top=1))
    game = setup.new_game()
    assert isinstance(game, MultiGame) and game.boards == 2 and game.max_guesses == 7
    controller = setup.new_controller(DevicePresenter("sim://"))
    assert type(controller) is Controller and isinstance(controller.game, MultiGame)


def test_a_list_of_ones_own_is_not_widened_past_in_play_as_in_suggest(tmp_path, capsys) -> None:
    # Neither CIGAR nor REBUT gets SALET all grey: the feedback leaves the list given.
    answers = tmp_path / "answers.txt"
    answers.write_text("cigar\nrebut\n")
    setup = GameSetup(GameSpec(answers=str(answers), top=1))
    game = setup.new_game()
    with pytest.raises(GameError, match="no word of the answer list") as refused:
        game.play("salet", "bbbbb")
    assert game.history == [] and not game.widened
    assert main(["suggest", "--answers", str(answers), "--history", "salet:bbbbb"]) == 1
    assert str(refused.value) in capsys.readouterr().err


def test_the_heading_names_the_list_the_game_starts_from(tmp_path) -> None:
    from epdle.session.terminal import mode_text

    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nslate\ntrace\n")
    for options, named in (
        ([], "every accepted word"),  # today's game, under the history prior
        (["--prior", "uniform"], "the 2023 list"),
        (["--lists", "original"], "the original list"),
        (["--answers", str(answers)], "the answer list"),  # one's own: no shipped list named
    ):
        game = GameSetup(_spec(*options)).new_game()
        assert mode_text(game) == named, options
