"""Layers run one way: importing a lower layer loads nothing of the ones above it, nor
their third-party libraries (each import runs in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

WATCHED = ("numpy", "PIL", "serial", "rich", "epdle.render", "epdle.link", "epdle.sim",
           "epdle.session", "epdle.solver", "epdle.cli")  # fmt: skip

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
    "epdle.solver.fast": (*WATCHED[:-2], "epdle.cli", "epdle.solver.engine", "epdle.solver.policy"),
    "epdle.solver.pure": (*WATCHED[:-2], "epdle.cli", "epdle.solver.engine", "epdle.solver.policy"),
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
    for module in ("epdle.solver.state", "epdle.solver.ranking"):
        loaded = _loaded_after(module)
        assert not {"epdle.solver.policy", "epdle.solver.search", "epdle.solver.engine"} & loaded


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
