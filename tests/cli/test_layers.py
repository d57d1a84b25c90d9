"""Layers run one way: importing a lower layer loads nothing of the ones above it, nor
their third-party libraries (each import runs in a fresh interpreter). And the imports as
written run one way too: no module imports its way back to itself, none takes another's
private names."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

WATCHED = ("numpy", "PIL", "serial", "rich", "epdle.render", "epdle.link", "epdle.sim",
           "epdle.session", "epdle.solver", "epdle.cli")  # fmt: skip
# The Solver and its numpy ranking, which the fast path never loads.
SOLVER_ENGINE = ("epdle.solver.engine", "epdle.solver.ranking.best", "epdle.solver.ranking.stats")

# module -> what importing it must not load
NOT_LOADED = {
    "epdle.panel": WATCHED,
    "epdle.crc": WATCHED,
    "epdle.frames": WATCHED,
    "epdle.frames.store": WATCHED,
    "epdle.words": WATCHED,
    "epdle.frames.encoder": tuple(name for name in WATCHED if name != "numpy"),
    "epdle.link": (
        "numpy",
        "PIL",
        "rich",
        "epdle.render",
        "epdle.sim",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    "epdle.render.export": (
        "serial",
        "epdle.link",
        "epdle.sim",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    "epdle.sim": (
        "PIL",
        "serial",
        "rich",
        "epdle.render",
        "epdle.link",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    # The fast path every front end takes first: no numpy, no engine behind it.
    "epdle.solver.ranking": (*WATCHED[:-2], "epdle.cli", *SOLVER_ENGINE),
    "epdle.solver.ranking.pure": (*WATCHED[:-2], "epdle.cli", *SOLVER_ENGINE),
    "epdle.solver": (
        "numpy",
        "PIL",
        "serial",
        "rich",
        "epdle.render",
        "epdle.link",
        "epdle.sim",
        "epdle.session",
    ),
}


def _loaded_after(module: str) -> set[str]:
    check = f"import sys, json; import {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("module", sorted(NOT_LOADED))
def test_a_layer_loads_nothing_above_it(module: str) -> None:
    loaded = _loaded_after(module)
    assert module in loaded
    above = {
        name
        for name in loaded
        for watched in NOT_LOADED[module]
        if name == watched or name.startswith(watched + ".")
    }
    assert not above, f"importing {module} loaded {sorted(above)}"


def test_the_solver_front_is_apart_from_its_policy() -> None:
    # state (the history) and the one-ply ranking load nothing of `best`'s policy or search.
    for module in ("epdle.solver.state", "epdle.solver.ranking.one_ply"):
        loaded = _loaded_after(module)
        assert (
            not {"epdle.solver.ranking.best", "epdle.solver.search", "epdle.solver.engine"} & loaded
        )


def test_the_words_package_loads_a_module_only_when_used() -> None:
    # `epdle.words.languages` alone (what a one-shot suggest needs) loads no other module
    # of the package; each exported name still resolves, to its module's own object.
    loaded = _loaded_after("epdle.words.languages")
    assert {name for name in loaded if name.startswith("epdle.words.")} == {"epdle.words.languages"}
    import epdle.words

    for name in epdle.words.__all__:
        value = getattr(epdle.words, name)
        modules = [m for key, m in sys.modules.items() if key.startswith("epdle.words.")]
        assert any(getattr(module, name, None) is value for module in modules), name
    with pytest.raises(AttributeError):
        epdle.words.not_a_name  # noqa: B018


# -- the imports as written: no circle, no private name taken from another module ------

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "epdle"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> list[tuple[str, str | None]]:
    """(module, name taken from it) of every epdle import in the file, those inside
    functions too; not those for type checkers alone (under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("epdle"):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.append(
                    (submodule, None) if submodule in modules else (node.module, alias.name)
                )
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names if alias.name.startswith("epdle")]
    return found


def _private_names(path: Path, module: str) -> list[tuple[str, str]]:
    """(module, name) of every private name the file of `module` imports: in absolute and
    relative imports, those inside functions and those for type checkers."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    taken = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = node.module or ""
        if node.level:  # relative: from the package `level - 1` steps up
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join([*base, *([source] if source else [])])
        taken += [
            (source, alias.name)
            for alias in node.names
            if alias.name.startswith("_") and not alias.name.startswith("__")
        ]
    return taken


def _import_graph() -> tuple[dict[str, set[str]], list[str]]:
    """Which epdle modules each imports, and every private name one takes from another."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    private = []
    for module, path in paths.items():
        imports = _imports(path, set(paths))
        graph[module] = {target for target, _ in imports if target in paths and target != module}
        private += [
            f"{module} takes {target}.{name}"
            for target, name in _private_names(path, module)
            if target.startswith("epdle")
        ]
    return graph, private


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while (member := stack.pop()) != module:
                    group.append(member)
                group.append(module)
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_module_imports_its_way_back_to_itself() -> None:
    graph, _ = _import_graph()
    assert "epdle.cli.solver" in graph and "epdle.session.setup" in graph
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_no_module_takes_another_ones_private_names() -> None:
    _, private = _import_graph()
    assert private == []


def test_the_private_name_finder_reads_relative_and_typing_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from .suggestions import _hidden, shown\n"
        "from ..solver import _deep\n"
        "if TYPE_CHECKING:\n    from epdle.words import _typed\n",
        encoding="utf-8",
    )
    assert _private_names(probe, "epdle.render.probe") == [
        ("epdle.render.suggestions", "_hidden"),
        ("epdle.solver", "_deep"),
        ("epdle.words", "_typed"),
    ]


def _board_count_choices(source: str) -> int:
    """Board counts compared with one or two (`boards > 1`, `x.boards == 1`, ...) and type
    tests for a several-board class in `source`."""
    found = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and len(node.ops) == 1:  # not a range check
            sides = [node.left, *node.comparators]
            count = any(
                (isinstance(n, ast.Attribute) and n.attr == "boards")
                or (isinstance(n, ast.Name) and n.id == "boards")
                for n in sides
            )
            found += count and any(isinstance(n, ast.Constant) and n.value in (1, 2) for n in sides)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            found += "Multi" in ast.unparse(node.args[1])
    return found


def test_one_board_or_several_is_chosen_in_one_place() -> None:
    """GameSpec.by_boards alone tells one board's game from several boards'."""
    package = Path(__file__).resolve().parents[2] / "host" / "epdle"
    choices = {
        str(path.relative_to(package)): count
        for path in sorted(package.rglob("*.py"))
        if (count := _board_count_choices(path.read_text(encoding="utf-8")))
    }
    assert choices == {"session/spec.py": 1}


def test_the_choice_finder_finds_a_choice() -> None:
    assert _board_count_choices("if spec.boards > 1: pass") == 1
    assert _board_count_choices("ok = isinstance(c, MultiController)") == 1
    assert _board_count_choices("if len(words) > 1: pass") == 0
    assert _board_count_choices("if boards <= 3: pass") == 0
    assert _board_count_choices("ok = 1 <= boards <= 32") == 0
