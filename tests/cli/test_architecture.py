"""Rules of the package as written, read from its source: each class name used once, one
place that asks for one board's game or several boards', and the game's controller and
page apart from the kinds of game they drive."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "epdle"


def _class_names(files: dict[str, str]) -> dict[str, list[str]]:
    """Each class name defined more than once, with the files that define it."""
    defined: dict[str, list[str]] = defaultdict(list)
    for name, source in files.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                defined[node.name].append(name)
    return {name: where for name, where in defined.items() if len(where) > 1}


def test_each_class_name_is_used_once_in_the_package() -> None:
    files = {
        str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert _class_names(files) == {}


def test_the_class_name_finder_finds_a_name_twice() -> None:
    files = {"a.py": "class Reply:\n    class Inner: ...\n", "b/c.py": "class Reply(int): ..."}
    assert _class_names(files) == {"Reply": ["a.py", "b/c.py"]}


def _calls_of(source: str, attribute: str) -> int:
    """Calls of a method named `attribute` in `source` (`x.by_boards(...)`)."""
    return sum(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == attribute
        for node in ast.walk(ast.parse(source))
    )


def test_by_boards_is_asked_by_the_game_setup_alone() -> None:
    callers = {
        str(path.relative_to(PACKAGE)): count
        for path in sorted(PACKAGE.rglob("*.py"))
        if (count := _calls_of(path.read_text(encoding="utf-8"), "by_boards"))
    }
    assert callers == {"session/setup.py": 1}


def test_the_call_finder_finds_a_call() -> None:
    assert _calls_of("spec.by_boards(one, two)\nx = spec.by_boards", "by_boards") == 1


def _defines_a_kind_of_game(source: str) -> bool:
    """Whether `source` defines a game of one kind: a class on the games' shared generic
    base, made concrete (`class Game(GameBase[Solver, Advice, Turn])`)."""
    return any(
        isinstance(node, ast.ClassDef)
        and any(
            isinstance(base, ast.Subscript)
            and isinstance(base.value, ast.Name)
            and base.value.id not in ("Generic", "Protocol")
            for base in node.bases
        )
        for node in ast.walk(ast.parse(source))
    )


# The session's modules that define a kind of game.
KINDS = {
    module
    for path in (PACKAGE / "session").glob("*.py")
    if _defines_a_kind_of_game(path.read_text(encoding="utf-8"))
    for module in [".".join(("epdle", *path.relative_to(PACKAGE).with_suffix("").parts))]
}


def _imported(source: str) -> set[str]:
    """Every epdle module the source imports, or imports a name from (type checkers' too)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_the_controller_and_the_page_import_neither_kind_of_game() -> None:
    assert {"epdle.session.one_board", "epdle.session.boards"} == KINDS
    for module in ("session/controller.py", "web/state.py", "web/api.py", "session/play.py"):
        assert not _imported((PACKAGE / module).read_text(encoding="utf-8")) & KINDS, module


def test_the_kind_finder_finds_a_game() -> None:
    assert _defines_a_kind_of_game("class Game(GameBase[Solver, Advice, Turn]): ...")
    assert not _defines_a_kind_of_game("class GameBase(Generic[S, A, T]): ...")


def test_each_kind_of_game_answers_the_same_names() -> None:
    from epdle.session.boards import MultiGame
    from epdle.session.game import GameBase
    from epdle.session.one_board import Game

    asked = {name for name, value in vars(GameBase).items() if _raises_not_implemented(value)}
    assert {"move", "frames", "show", "summary", "page_state", "solved"} <= asked
    for kind in (Game, MultiGame):
        assert all(not _raises_not_implemented(getattr(kind, name)) for name in asked), kind


def _raises_not_implemented(value: object) -> bool:
    function = value.fget if isinstance(value, property) else value
    code = getattr(function, "__code__", None)
    return code is not None and "NotImplementedError" in code.co_names


def test_the_import_finder_finds_a_kind() -> None:
    assert "epdle.session.boards" in _imported("from epdle.session.boards import MultiGame")
    assert "epdle.session.one_board" in _imported("from epdle.session import one_board")
