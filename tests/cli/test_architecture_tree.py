"""docs/architecture.md's tree table matches the tree: each folder of the repository, of
firmware/ and of the package has its row, each row's path exists; in tools/ every script
sits in a family folder, each folder has its row, and each row names its scripts."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
TREE = ARCHITECTURE.split("\n## Tree\n", 1)[1].split("\n## ", 1)[0]
PATHS = re.findall(r"^\| `([^`]+)` \|", TREE, re.MULTILINE)
# What a checkout grows that is not the repository's.
NOT_SOURCE = {"build", "out", "__pycache__"}


def _rows() -> dict[str, str]:
    return dict(re.findall(r"^\| `tools/(\w+)/` \| (.+) \|$", TREE, re.MULTILINE))


def _folders(parent: Path) -> list[str]:
    return sorted(
        f"{path.relative_to(ROOT)}/"
        for path in parent.iterdir()
        if path.is_dir()
        and path.name not in NOT_SOURCE
        and (not path.name.startswith(".") or path.name == ".ci")
        and not path.name.endswith(".egg-info")
    )


def test_each_folder_has_a_row_and_each_row_a_path() -> None:
    folders = [
        *_folders(ROOT),
        *_folders(ROOT / "firmware"),
        *_folders(ROOT / "host" / "epdle"),
    ]
    unlisted = [
        folder
        for folder in folders
        if not any(path == folder or path.startswith(folder) for path in PATHS)
    ]
    assert unlisted == []
    assert [path for path in PATHS if not (ROOT / path.replace("{h,c}", "h")).exists()] == []


def _scripts(folder: Path) -> list[str]:
    return sorted(
        path.name
        for path in folder.iterdir()
        if path.is_file() and path.suffix in {".py", ".sh"} and path.name != "__init__.py"
    )


def test_no_script_lies_loose_in_tools() -> None:
    assert _scripts(TOOLS) == []


def test_each_tools_folder_has_its_row_and_each_row_its_folder() -> None:
    folders = sorted(path.name for path in TOOLS.iterdir() if path.is_dir() and path.name[0] != "_")
    assert sorted(_rows()) == folders


def test_each_row_names_the_scripts_of_its_folder() -> None:
    unnamed = {
        family: [name for name in _scripts(TOOLS / family) if f"`{name}`" not in job]
        for family, job in _rows().items()
    }
    assert {family: names for family, names in unnamed.items() if names} == {}
