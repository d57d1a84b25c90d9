"""docs/architecture.md's tree table matches tools/: every script sits in a family folder,
each folder has its row, and each row names the scripts its folder holds."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
ROW = re.compile(r"^\| `tools/(\w+)/` \| (.+) \|$", re.MULTILINE)


def _rows() -> dict[str, str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return {family: job for family, job in ROW.findall(text)}


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
