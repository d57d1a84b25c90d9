"""Other languages and lengths: the shipped dictionary lists, alphabets and folding."""

from __future__ import annotations

import numpy as np
import pytest

from epdle import words
from epdle.solver import HistoryError, Solver
from epdle.solver.patterns import ALPHABET_SIZE, compute_patterns, encode_words, letter_index
from epdle.solver.scoring import parse_history, pattern_code, score
from epdle.solver.universe import Universe
from epdle.words.languages import LANGUAGES, LENGTHS, LETTERS, display_word, language


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("length", list(LENGTHS))
def test_every_language_ships_every_length(code: str, length: int) -> None:
    shipped = words.language_list(code, length)
    lang = language(code)
    assert len(shipped.candidates) >= 500 and set(shipped.candidates) <= set(shipped.guesses)
    assert all(len(word) == length and lang.is_word(word) for word in shipped.guesses)
    table = words.language_table(code)
    assert not any(table[word].plural for word in shipped.candidates)
    kept = words.language_list(code, length, keep_plurals=True)
    assert len(kept.candidates) > len(shipped.candidates)


@pytest.mark.parametrize(
    ("code", "names", "kept"),
    [
        ("en", ["darien", "lanier", "larsen", "nasa", "paris"], ["satire", "crane", "zombie"]),
        (
            "de",
            ["peter", "anna", "assisi", "paris"],
            ["säule", "tisch", "pizza", "küche", "straße", "fußball"],
        ),
        ("fr", ["london", "france", "dupont"], ["maison", "pierre", "table"]),
        ("es", ["madrid", "carlos"], ["árbol", "niño", "casa"]),
    ],
)
def test_lists_leave_out_names_and_keep_words(code, names, kept) -> None:
    lang = language(code)
    table = words.language_table(code)
    assert not [name for name in names if name in table]
    assert all(lang.fold(word) in table for word in kept)


@pytest.mark.parametrize(
    ("code", "word", "plural"),
    [("en", "houses", True), ("en", "glass", False), ("de", "häuser", True),
     ("de", "säule", False), ("fr", "maisons", True), ("es", "libros", True)],
)  # fmt: skip
def test_plurals_are_flagged_from_the_dictionary_stems(code, word, plural) -> None:
    assert words.language_table(code)[word].plural is plural


def test_folding_follows_each_languages_wordle() -> None:
    assert language("fr").spell("Élève") == "eleve"
    assert language("fr").spell("cœur") == "coeur"
    assert language("es").spell("ÁRBOL") == "arbol"
    assert language("es").spell("año") == "año"
    assert language("de").spell("SÄULE") == "säule"
    with pytest.raises(ValueError, match="'ä' is not a letter of English"):
        language("en").spell("säule")
    with pytest.raises(ValueError, match="'é' is not a letter of German"):
        language("de").spell("café")
    with pytest.raises(ValueError, match="no word lists for language 'xx'"):
        language("xx")


def test_capitals_keep_one_letter_each() -> None:
    assert display_word("straße") == "STRAẞE" and len(display_word("straße")) == 6
    assert display_word("säule") == "SÄULE"


def test_non_ascii_letters_are_scored_and_encoded_like_any_other() -> None:
    assert score("säule", "läuse") == "YGGYG"
    assert score("ñañas", "añoso") == "YYBBY"
    encoded = encode_words(["säule", "läuse", "crane"])
    assert encoded.max() < ALPHABET_SIZE and encoded[0, 1] == letter_index("ä")
    assert list(encoded[2]) == [ord(c) - ord("a") for c in "crane"]
    guesses, answers = ["säule", "läuse", "haßen", "crane"], ["läuse", "säule", "haßen"]
    matrix = compute_patterns(guesses, answers)
    for row, answer in enumerate(answers):
        for column, guess in enumerate(guesses):
            assert matrix[row, column] == pattern_code(score(guess, answer))
    with pytest.raises(ValueError, match="letters"):
        encode_words(["caf\u00e9s"])
    assert set(LETTERS) >= {letter for lang in LANGUAGES.values() for letter in lang.alphabet}


def test_a_german_game_takes_umlauts_end_to_end() -> None:
    shipped = words.language_list("de", 5)
    universe = Universe(shipped.guesses, shipped.candidates, language="de", blind=True)
    solver = Solver("entropy", universe=universe)
    history = parse_history("säule:bbbbb")
    advice = solver.advise(history, top=3)
    left = solver.state_after(history).candidates
    assert 0 < advice.candidates_left == len(left) < len(shipped.candidates)
    for index in left:
        assert not set(universe.answers[index]) & set("säule")
    hard = Solver("entropy", hard=True, universe=universe)
    assert hard.advise(parse_history("säule:gbbbb"), top=1).suggestions[0].word[0] == "s"
    with pytest.raises(HistoryError, match="'é' is not a letter of German"):
        solver.advise([("écrit", "BBBBB")])


def test_a_french_guess_is_folded_before_it_is_played() -> None:
    shipped = words.language_list("fr", 5)
    universe = Universe(shipped.guesses, shipped.candidates, language="fr", blind=True)
    solver = Solver("entropy", universe=universe)
    accented = solver.advise([("élève", "BBBBB")])
    plain = solver.advise([("eleve", "BBBBB")])
    assert accented == plain


def test_prior_weights_the_shipped_candidates() -> None:
    shipped = words.language_list("es", 6)
    universe = Universe(shipped.guesses, shipped.candidates, language="es", blind=True)
    assert universe.blind and len(universe.answers) == len(shipped.candidates)
    assert np.isclose(universe.weights.sum(), 1.0)
    common = universe.answers.index("tiempo")
    assert universe.weights[common] > np.median(universe.weights)
