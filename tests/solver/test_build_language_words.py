"""tools/gen/build_language_words.py's rules (the lists themselves are tested in test_languages)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gen" / "build_language_words.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("build_language_words", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_sharp_s_spellings_are_offered(tool) -> None:
    assert tool.sharp_s_variants("strasse") == ["straße"]
    assert sorted(tool.sharp_s_variants("schlossstrasse")) == sorted(
        ["schloßstrasse", "schlosßtrasse", "schlossstraße", "schloßstraße", "schlosßtraße"]
    )
    assert tool.sharp_s_variants("haus") == []


@pytest.mark.parametrize(
    ("code", "word", "stems", "plural"),
    [
        ("en", "houses", ["house"], True),
        ("en", "news", ["news", "new"], False),
        ("en", "cities", ["city"], True),
        ("fr", "chevaux", ["cheval"], True),
        ("fr", "maison", ["maison"], False),
        ("es", "lápices", ["lápiz"], True),
        ("es", "árboles", ["árbol"], True),
        ("de", "Häuser", ["häuser", "haus", "Haus"], True),
        ("de", "Säule", ["Säule"], False),
        ("de", "gehen", ["gehen"], False),
    ],
)
def test_plurals_come_from_the_stems(tool, code, word, stems, plural) -> None:
    assert tool.is_plural(code, word, stems) is plural


@pytest.mark.skipif(shutil.which("hunspell") is None, reason="hunspell not installed")
def test_hunspell_is_asked_in_utf8(tool) -> None:
    if not Path("/usr/share/hunspell/de_DE.dic").exists():
        pytest.skip("hunspell-de-de not installed")
    assert tool.rejected("de_DE", ["säule", "Säule", "Berlin"]) == {"säule"}
