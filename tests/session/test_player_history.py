"""The player's history: `epdle history` shows, adds and imports answers, every finished
game of today under the history prior is recorded, and bad input is a one-line error that
loses nothing (a damaged file is kept as it was)."""

from __future__ import annotations

import datetime
import json

import pytest

from epdle.cli import main
from epdle.session import history
from epdle.session.controller import record_finished
from epdle.session.one_board import Game
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver.scoring import score

TODAY = datetime.date(2026, 12, 7)  # puzzle 1997


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch):
    monkeypatch.setattr(history, "today", lambda: TODAY)


def _json(capsys, argv: list[str]) -> dict[str, object]:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_show_gives_the_last_answers_counts_and_how_old(capsys) -> None:
    report = _json(capsys, ["history", "--last", "2", "--json"])
    assert report["today"] == {"date": "2026-12-07", "puzzle": 1997}
    assert report["counts"] == {"original": 1824, "added": 46, "other": 2, "repeat": 22}
    assert [row["word"] for row in report["last"]] == ["murky", "trace"]
    assert report["last"][1]["kind"] == "repeat"
    assert "ends on 2026-08-21 (puzzle 1889), 107 days behind" in report["stale"]
    assert main(["history", "--last", "1"]) == 0
    text = capsys.readouterr().out
    assert "2026-08-21   1889  TRACE  repeat" in text and "epdle history add" in text


def test_add_and_import_write_the_players_history(tmp_path, capsys) -> None:
    assert _json(capsys, ["history", "add", "2026-08-22", "Quake", "--json"])["added"] == 1
    file = tmp_path / "mine.tsv"
    file.write_text("# mine\n2026-08-22\t1890\tquake\n2026-08-23\t1891\tocean\n")
    assert _json(capsys, ["history", "import", str(file), "--json"]) == {
        "added": 1,
        "already": 1,
        "file": str(history.player_history_path()),
    }
    words = [p.word for p in history.player_history()]
    assert words == ["quake", "ocean"]
    report = _json(capsys, ["history", "--last", "1", "--json"])
    assert report["last"][0]["word"] == "ocean" and "1891" in report["stale"]


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["add", "2026-02-30", "quake"], 2, "'2026-02-30' is not a date"),
        (["add", "2026-12-08", "quake"], 2, "2026-12-08 is in the future (today is 2026-12-07)"),
        (["add", "2026-08-22", "qqqqq"], 2, "'QQQQQ' is not an accepted word"),
        (["add", "2026-08-21", "quake"], 1, "puzzle 1889 (2026-08-21) is already TRACE"),
        (["import", "missing.tsv"], 1, "history file missing.tsv does not exist"),
    ],
)
def test_bad_input_is_one_line(argv, code, message, capsys) -> None:
    assert main(["history", *argv]) == code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not history.player_history_path().exists()


def test_a_damaged_history_is_reported_and_kept(capsys) -> None:
    path = history.player_history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    damaged = "2026-08-22\t1890\tquake\n2026-08-23 1891 ocean\n"
    path.write_text(damaged)
    for argv in (["history"], ["history", "add", "2026-08-24", "crane"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "line 2: expected date<TAB>puzzle<TAB>word" in err and "kept" in err
    assert main(["suggest", "--prior", "history"]) == 1
    assert "line 2" in capsys.readouterr().err
    assert path.read_text() == damaged
    assert history.record_game("crane", TODAY) is not None
    assert path.read_text() == damaged


def _today_game() -> Game:
    game = GameSetup(GameSpec(prior="history", blind=True, top=1)).new_game()
    assert isinstance(game, Game)
    return game


def test_a_finished_game_of_today_is_recorded_once() -> None:
    game = _today_game()
    guess = game.advice.suggestions[0].word
    game.play(guess, score(guess, "crane"))
    assert record_finished(game) == []  # not over yet
    assert history.player_history() == []
    game.play("crane", score("crane", "crane"))
    assert record_finished(game) == []
    assert record_finished(game) == []  # recorded already: nothing twice
    assert [(p.date, p.puzzle, p.word) for p in history.player_history()] == [
        (TODAY, 1997, "crane")
    ]


def test_a_lost_game_says_how_to_give_its_answer() -> None:
    game = _today_game()
    for word in ("fuzzy", "jazzy", "mummy", "puppy", "vivid", "civic"):
        game.play(word, "BBBBB")
    assert game.lost
    assert record_finished(game) == [
        "lost: `epdle history add 2026-12-07 WORD` records the answer in your history"
    ]
    assert history.player_history() == []


def test_a_replayed_day_is_not_recorded() -> None:
    game = GameSetup(GameSpec(prior="history", blind=True, top=1, date="2026-03-01")).new_game()
    assert isinstance(game, Game)
    game.play("crane", score("crane", "crane"))
    assert record_finished(game) == [] and history.player_history() == []


def test_the_front_ends_controller_records_a_game_and_refuses_a_second_answer() -> None:
    from epdle.session.controller import Controller
    from epdle.session.presenter import DevicePresenter

    controller = Controller(_today_game(), DevicePresenter("sim://"))
    try:
        notes = controller.handle("crane GGGGG").notes
        assert not any("history" in note for note in notes)
        assert [p.word for p in history.player_history()] == ["crane"]
        controller.handle("new")
        notes = controller.handle("ocean GGGGG").notes
        assert (
            "not recorded in your history: puzzle 1997 (2026-12-07) is already CRANE in the "
            "history, not OCEAN"
        ) in notes
        assert [p.word for p in history.player_history()] == ["crane"]
    finally:
        controller.presenter.close()
