"""The README a newcomer reads: short, the two commands, figures that agree with the
docs' tables, links that lead somewhere, and no word of where it was written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Words about the machine, the tools or the work a product's docs have no use for.
ENVIRONMENT = re.compile(
    r"\bissue \d|facts §|facts \d|sandbox|build machine|busy machine|shared, busy|"
    r"not installed here|Fifth pass",
    re.IGNORECASE,
)


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250


def test_quick_start_is_the_two_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make run", "make test"]


def _bench_rows(run: str) -> list[dict[str, str]]:
    """The rows of one run in docs/bench.md's strategies table (the tool writes it)."""
    bench = (ROOT / "docs" / "bench.md").read_text(encoding="utf-8")
    table = bench.split("<!-- bench:strategies -->", 1)[1].split("<!-- /bench:strategies -->")[0]
    lines = [line.strip().strip("|").split("|") for line in table.strip().splitlines()]
    header = [cell.strip() for cell in lines[0]]
    rows = [dict(zip(header, map(str.strip, cells), strict=True)) for cells in lines[2:]]
    return [row for row in rows if row["run"] == run]


def test_the_readme_figures_are_the_bench_tables() -> None:
    quoted = re.findall(r"(normal|hard) mode: \*\*(\d\.\d{4})\*\*.*?\*\*(\d)\*\*", README)
    assert [mode for mode, _, _ in quoted] == ["normal", "hard"]
    for mode, mean, worst in quoted:
        latest = _bench_rows(f"best {mode}")[-1]  # the later code's row comes last
        assert (latest["mean"], latest["max"], latest["over six"]) == (mean, worst, "0")


def test_links_to_the_docs_lead_somewhere() -> None:
    for target in re.findall(r"\]\(((?:docs)/[^)#]+)\)", README):
        assert (ROOT / target).exists(), target


def test_no_word_of_the_environment() -> None:
    texts = {"README.md": README}
    for folder, pattern in (("docs", "*.md"), ("hardware", "**/*.md"), ("firmware", "**/*.md")):
        for doc in sorted((ROOT / folder).glob(pattern)):
            texts[str(doc.relative_to(ROOT))] = doc.read_text(encoding="utf-8")
    found = {name: ENVIRONMENT.findall(text) for name, text in texts.items()}
    assert {name: words for name, words in found.items() if words} == {}
