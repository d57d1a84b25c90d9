"""`epdle history`: the answers the history prior reads, and the player's own additions.

epdle history [--last N] [--json]      the last answers, counts by kind, how old it is
epdle history add DATE WORD            a day's answer, in your history
epdle history import FILE              a history file's answers, in your history
"""

from __future__ import annotations

import argparse
import json

from epdle.cli.errors import CommandError, UsageError, examples, int_in

TYPE_CHECKING = False
if TYPE_CHECKING:
    from epdle.words.history import Played


def register(commands: argparse._SubParsersAction) -> None:
    history = commands.add_parser(
        "history",
        help="the Times' answers the history prior reads, and yours",
        description="The answers `--prior history` reads: the Times' answers shipped with "
        "epdle and yours (every game of today you finish under --prior history in play, the "
        "page or the daemon is recorded with its date), in $EPDLE_DATA_DIR, else "
        "$XDG_DATA_HOME/epdle, else ~/.local/share/epdle (history.tsv).",
        epilog=examples("epdle history --last 5", "epdle history add 2026-08-22 quake"),
    )
    history.add_argument("--last", type=int_in(0, 10_000), default=10, metavar="N",
                         help="how many of the newest answers to show (default 10)")  # fmt: skip
    history.add_argument("--json", action="store_true", help="print JSON")
    actions = history.add_subparsers(dest="history_command", metavar="ACTION")
    add = actions.add_parser("add", help="record a day's answer in your history")
    add.add_argument("date", help="the day, YYYY-MM-DD (not after today)")
    add.add_argument("word", help="its answer")
    add.add_argument("--json", action="store_true", help="print JSON")
    imported = actions.add_parser(
        "import", help="record a history file's answers (date<TAB>puzzle<TAB>word a line)"
    )
    imported.add_argument("file", help="the history file")
    imported.add_argument("--json", action="store_true", help="print JSON")
    history.set_defaults(func=run_history)


def run_history(args: argparse.Namespace) -> int:
    from epdle.session import history
    from epdle.words.history import HistoryFileError

    try:
        if args.history_command == "add":
            return _added(args, [_entry(args.date, args.word)])
        if args.history_command == "import":
            from epdle.cli.paths import input_file

            path = input_file(args.file, "history file")
            entries = history.read_history_file(path, "history file")
            for played in entries:
                if played.date > history.today():
                    raise CommandError(f"{path}: {played.date} is in the future")
            return _added(args, entries)
        return _show(args, history.known_history())
    except (HistoryFileError, history.DuplicateEntry) as error:
        raise CommandError(str(error)) from None


def _entry(date: str, word: str) -> Played:
    from epdle.session import history
    from epdle.words.history import parse_date

    try:
        return history.entry(parse_date(date, history.today()), word)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _added(args: argparse.Namespace, entries: list[Played]) -> int:
    from epdle.session import history

    already = history.add_entries(entries)
    added = len(entries) - len(already)
    path = history.player_history_path()
    if args.json:
        print(json.dumps({"added": added, "already": len(already), "file": str(path)}))
        return 0
    print(f"{added} added to {path}" + (f", {len(already)} already known" if already else ""))
    return 0


def _show(args: argparse.Namespace, known: list[Played]) -> int:
    from epdle.session import history
    from epdle.solver.history_prior import answer_kinds, stale_note
    from epdle.words.history import puzzle_number

    today = history.today()
    kinds = answer_kinds(known)
    counts = {kind: kinds.count(kind) for kind in dict.fromkeys(kinds)}
    last = known[-args.last :] if args.last else []
    note = stale_note(puzzle_number(today), known[-1] if known else None)
    if args.json:
        report = {
            "today": {"date": today.isoformat(), "puzzle": puzzle_number(today)},
            "answers": len(known),
            "counts": counts,
            "last": [
                {"date": p.date.isoformat(), "puzzle": p.puzzle, "word": p.word, "kind": kind}
                for p, kind in zip(last, kinds[len(known) - len(last) :], strict=True)
            ],
            "stale": note,
            "file": str(history.player_history_path()),
        }
        print(json.dumps(report))
        return 0
    print(f"today: puzzle {puzzle_number(today)} ({today})")
    print(f"{len(known):,} answers: " + ", ".join(f"{n:,} {k}" for k, n in counts.items()))
    for played, kind in zip(last, kinds[len(known) - len(last) :], strict=True):
        print(f"{played.date}  {played.puzzle:>5}  {played.word.upper()}  {kind}")
    if note:
        print(note)
    return 0
