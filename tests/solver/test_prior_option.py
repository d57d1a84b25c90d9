"""`--prior uniform|frequency`: chosen once in the GameSpec, the frequency prior playing
every accepted word from the first guess, weighted as a blind game weighs them."""

from __future__ import annotations

import json

from solver_hints import obeys_hints

from epdle.cli import main
from epdle.cli.errors import Parser
from epdle.cli.options import add_solver_options, game_spec
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver.names import PRIORS
from epdle.solver.scoring import score


def _spec(*argv: str) -> GameSpec:
    parser = Parser(prog="epdle test")
    add_solver_options(parser)
    return game_spec(parser.parse_args(list(argv)))


def test_the_prior_is_parsed_once_into_the_spec_and_frequency_stays_blind() -> None:
    assert _spec("--lists", "nyt2023").prior == "uniform" and not _spec("--lists", "nyt2023").blind
    assert _spec().prior == "history" and _spec().blind  # today's game (test_default_prior)
    spec = _spec("--prior", "frequency", "--hard")
    assert spec.prior == "frequency" and spec.blind and spec.hard
    # Switching modes keeps the prior: a frequency game never narrows to the answer list.
    assert spec.in_mode(False, False).blind
    setup = GameSetup(spec)
    game = setup.new_game()
    assert game.solver.blind and game.solver.hard
    assert game.switch(hard=False, blind=False) is not None
    assert game.solver.blind and not game.solver.hard
    assert set(PRIORS) == {"uniform", "frequency", "history"}


def test_a_frequency_game_made_without_the_cli_is_blind_too() -> None:
    # The rule lives in GameSpec (always_blind, applied by in_mode): a spec made by hand
    # that names the prior alone plays every accepted word, as the CLI's does.
    by_hand = GameSpec(prior="frequency", top=1)
    assert by_hand.in_mode(False, False).blind
    assert GameSetup(by_hand).new_game().solver.blind
    assert not GameSetup(GameSpec(top=1)).new_game().solver.blind


def test_an_unknown_prior_is_a_one_line_usage_error(capsys) -> None:
    assert main(["suggest", "--prior", "zipf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--prior" in err and "frequency" in err


def _suggest(capsys, *argv: str) -> dict:
    assert main(["suggest", "--json", "--top", "50", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_frequency_prior_ranks_a_common_word_above_a_rare_one_that_uniform_ties(
    capsys,
) -> None:
    # GAUNT all green but G: DAUNT, HAUNT, JAUNT, TAUNT, VAUNT on the answer list, each
    # guess of one splitting the rest alike, so uniformly they tie.
    uniform = _suggest(capsys, "--prior", "uniform", "--history", "gaunt:BGGGG")
    assert uniform["prior"] == "uniform" and not uniform["blind"]
    assert uniform["candidates"] == ["daunt", "haunt", "jaunt", "taunt", "vaunt"]
    figures = {s["word"]: s["guesses"] for s in uniform["suggestions"]}
    assert figures["haunt"] == figures["vaunt"]
    # Under the frequency prior HAUNT (common) is likelier than VAUNT (rare): guessed first.
    frequency = _suggest(capsys, "--prior", "frequency", "--history", "gaunt:BGGGG")
    assert frequency["prior"] == "frequency" and frequency["blind"]
    assert frequency["suggestions"][0]["word"] == "haunt"
    ranked = [s["word"] for s in frequency["suggestions"]]
    assert "vaunt" not in ranked or ranked.index("haunt") < ranked.index("vaunt")
    assert frequency["candidates"].index("haunt") < frequency["candidates"].index("vaunt")
    # Rare words off the list are candidates too (every accepted word).
    assert "maunt" in frequency["candidates"]


def test_hard_mode_with_the_frequency_prior_keeps_the_hints(capsys) -> None:
    history = [(word, score(word, "haunt")) for word in ("salet", "daunt")]
    text = ",".join(f"{word}:{colours}" for word, colours in history)
    report = _suggest(capsys, "--hard", "--prior", "frequency", "--history", text)
    assert report["hard"] and report["prior"] == "frequency"
    assert report["suggestions"]
    for suggestion in report["suggestions"]:
        assert obeys_hints(suggestion["word"], history), suggestion["word"]


def test_bench_json_names_the_prior(capsys) -> None:
    for prior in ("uniform", "frequency"):
        argv = ["bench", "--json", "--limit", "3", "--strategy", "entropy", "--prior", prior]
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["prior"] == prior and report["blind"] == (prior == "frequency")
        assert report["games"] == 3
