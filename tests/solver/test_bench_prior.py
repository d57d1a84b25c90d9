"""The test sets of tools/bench/bench_prior.py: answers and words on neither shipped list."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))
import bench_prior

from epdle import words
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec


def test_the_recent_answers_off_both_lists_are_the_two_the_times_added() -> None:
    recent = bench_prior.recent_answers()
    assert len(recent) == 1147 and recent[0] == "mossy"  # 2023-07-02, puzzle 743
    assert set(recent) <= set(words.guesses())
    assert bench_prior.on_neither(sorted(set(recent))) == ["kefir", "loris"]


def test_the_proxy_holds_dictionary_words_off_both_lists_and_no_inflections() -> None:
    proxy = bench_prior.proxy_words()
    listed = set(words.answers("original")) | set(words.answers("nyt2023"))
    table = words.language_table("en")
    infos = dict(zip(proxy, words.word_info(proxy), strict=True))
    assert proxy and not set(proxy) & listed
    assert all(w in table and not infos[w].plural and not infos[w].past_tense for w in proxy)
    assert "loris" in proxy and "kefir" not in proxy  # KEFIR: not in the dictionary list
    assert {"boats", "cards"} <= set(words.guesses()) - listed - set(proxy)  # plurals


def test_a_game_widens_off_the_list_and_finds_the_answer() -> None:
    # LORIS is on neither list: the uniform game must widen to find it, within the limit.
    for spec in (GameSpec(top=1), GameSpec(prior="frequency", top=1)):
        assert 1 <= bench_prior.play(GameSetup(spec), "loris") <= 6


def test_a_hard_game_widens_off_the_list_too() -> None:
    for spec in (
        GameSpec(hard=True, top=1),
        GameSpec(prior="frequency", hard=True, top=1),
    ):
        assert 1 <= bench_prior.play(GameSetup(spec), "loris") <= 6


def test_the_hard_table_goes_to_its_own_section(tmp_path, monkeypatch) -> None:
    document = tmp_path / "bench.md"
    sections = "<!-- bench:prior -->\nnormal\n<!-- /bench:prior -->\n"
    sections += "<!-- bench:prior-hard -->\n<!-- /bench:prior-hard -->\n"
    document.write_text(sections)
    monkeypatch.setattr(bench_prior, "BENCH_MD", document)
    bench_prior.write_hard_section(["| hard row |"], 200, 0)
    text = document.read_text()
    assert "<!-- bench:prior -->\nnormal\n<!-- /bench:prior -->" in text
    hard = text.split("<!-- bench:prior-hard -->")[1]
    assert "### In hard mode" in hard and "| hard row |" in hard
