"""tools/setup/bootstrap.sh: what `make run` / `make test` need is found, installed or named in
one line; a copied checkout's stale CMake cache and .venv are noticed and removed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the script itself runs (`sudo -n true` included), besides the tools it looks for.
SHELL_TOOLS = ("bash", "dirname", "sed", "head", "realpath", "id", "rm", "cat", "env", "true")


def _base_python() -> str:
    """The interpreter this venv was made from (a venv's own python has no ensurepip)."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return str(base.resolve())


def _checkout(tmp_path: Path) -> Path:
    """A checkout holding only the script (it looks at its own tree)."""
    checkout = tmp_path / "checkout"
    (checkout / "tools" / "setup").mkdir(parents=True)
    shutil.copy(ROOT / "tools" / "setup" / "bootstrap.sh", checkout / "tools" / "setup")
    return checkout


def _path_with(tmp_path: Path, tools: tuple[str, ...]) -> str:
    """A PATH of just `tools` (and what a shell script needs)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in dict.fromkeys((*SHELL_TOOLS, *tools)):
        if (bin_dir / name).exists():
            continue
        found = _base_python() if name == "python3" else shutil.which(name)
        if found is None:
            pytest.skip(f"{name} is not installed here")
        (bin_dir / name).symlink_to(found)
    return str(bin_dir)


def _run(checkout: Path, target: str, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(checkout / "tools" / "setup" / "bootstrap.sh"), target],
        capture_output=True,
        text=True,
        env={"PATH": path, "EPDLE_BOOTSTRAP_INSTALL": "never", "HOME": str(checkout)},
        executable=shutil.which("bash"),
        timeout=60,
    )


def test_missing_test_tools_are_named_in_one_line(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    path = _path_with(tmp_path, ("python3", "cmake", "cc", "make"))
    done = _run(checkout, "test", path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "epdle: missing pkg-config, libcmocka-dev; "
        "install them with: sudo apt-get install -y pkg-config libcmocka-dev"
    ]


def test_ci_asks_for_hunspell_for_the_language_lists_test(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    path = _path_with(tmp_path, ("python3", "cmake", "cc", "make"))
    done = _run(checkout, "ci", path)
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert "hunspell" in line.split(";")[0].removeprefix("epdle: missing ").split(", ")


def test_run_needs_no_test_tools(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    path = _path_with(tmp_path, ("python3", "cmake", "cc", "make"))
    done = _run(checkout, "run", path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_compiler_without_c_library_headers_asks_for_libc6_dev(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # What gcc installed without its recommended packages says.
    _fake(bin_dir, "cc", 'echo "<stdin>:1:10: fatal error: stdio.h: No such file" >&2; exit 1')
    path = _path_with(tmp_path, ("python3", "cmake", "make"))
    done = _run(checkout, "run", path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "epdle: missing libc6-dev; install them with: sudo apt-get install -y libc6-dev"
    ]


def test_a_copied_checkout_loses_its_stale_cmake_cache_and_venv(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    build = checkout / "build" / "host"
    build.mkdir(parents=True)
    (build / "CMakeCache.txt").write_text("CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere/epdle\n")
    scripts = checkout / ".venv" / "bin"
    scripts.mkdir(parents=True)
    (scripts / "pip").write_text("#!/elsewhere/epdle/.venv/bin/python\n")
    path = _path_with(tmp_path, ("python3", "cmake", "cc", "make"))
    done = _run(checkout, "run", path)
    assert done.returncode == 0, done.stderr
    assert not build.exists() and not (checkout / ".venv").exists()
    assert "build/host was configured for /elsewhere/epdle: rebuilding it here" in done.stderr
    assert ".venv was made for another checkout" in done.stderr


def test_this_checkout_is_left_alone(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    build = checkout / "build" / "host"
    build.mkdir(parents=True)
    (build / "CMakeCache.txt").write_text(f"CMAKE_HOME_DIRECTORY:INTERNAL={checkout}\n")
    path = _path_with(tmp_path, ("python3", "cmake", "cc", "make"))
    assert _run(checkout, "run", path).returncode == 0
    assert (build / "CMakeCache.txt").exists()


def _fake(bin_dir: Path, name: str, body: str) -> None:
    script = bin_dir / name
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)


@pytest.mark.parametrize("as_root", [True, False], ids=["root", "passwordless-sudo"])
def test_missing_tools_are_installed_with_apt_get_when_that_needs_no_password(
    tmp_path: Path, as_root: bool
) -> None:
    checkout = _checkout(tmp_path)
    tools = ("python3", "cmake", "cc", "make")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    _fake(bin_dir, "apt-get", f'echo "$DEBIAN_FRONTEND $DEBCONF_NOWARNINGS: $*" >> {log}')
    _fake(bin_dir, "id", "echo 0" if as_root else "echo 1000")
    # As sudo does by default (env_reset), the caller's environment is not passed on.
    _fake(bin_dir, "sudo", '[ "$1" = -n ] && shift; exec env -i PATH="$PATH" "$@"')
    path = _path_with(tmp_path, tools)  # `id` is the fake one: it was there first
    done = subprocess.run(
        ["bash", str(checkout / "tools" / "setup" / "bootstrap.sh"), "test"],
        capture_output=True,
        text=True,
        env={"PATH": path, "HOME": str(checkout)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "epdle: installing pkg-config, libcmocka-dev (apt-get)\n"
    assert log.read_text().splitlines() == [
        "noninteractive yes: update -qq",
        "noninteractive yes: install -y -qq --no-install-recommends pkg-config libcmocka-dev",
    ]


def test_make_run_installs_what_epdle_tree_needs() -> None:
    # `epdle tree` and `bench --plot` draw with matplotlib (the plot extra): `make run`
    # installs it, and the error and the reference name one install command.
    import re

    recipe = (ROOT / "Makefile").read_text().split("$(VENV)/.stamp-run:")[1].split("\n\n")[0]
    extras = re.search(r"pip install -q -e '\.\[([a-z,]+)\]'", recipe)
    assert extras is not None and "plot" in extras.group(1).split(",")
    command = "pip install '.[plot]'"
    assert command in (ROOT / "docs" / "reference.md").read_text()
    source = (ROOT / "host" / "epdle" / "solver" / "pictures.py").read_text()
    assert command in source and "epdle[plot]" not in source
