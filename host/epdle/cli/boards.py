"""--boards N: a game of several boards (Dordle 2, Quordle 4, Octordle 8, up to 32) for
`play`, `daemon`, `demo` and `web`."""

from __future__ import annotations

import argparse

from epdle.cli.errors import int_in
from epdle.cli.options import is_dictionary_game
from epdle.solver.scoring import EXTRA_GUESSES, MAX_BOARDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from epdle.session.multigame import MultiSolverFor
    from epdle.solver.multi import MultiSolver


def add_boards_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--boards",
        type=int_in(1, MAX_BOARDS),
        default=1,
        metavar="N",
        help="boards played at once, each guess on all of them: 2 Dordle, 4 Quordle, "
        f"8 Octordle (up to {MAX_BOARDS}); the game allows N + {EXTRA_GUESSES} guesses "
        "(default: 1, the single game)",
    )


def multi_mode_solvers(args: argparse.Namespace) -> MultiSolverFor:
    """The game's multi-board solvers by (hard, blind), each made on first use from the
    same options (the blind one when a board's feedback leaves the answer list)."""
    from epdle.cli.multi import check_multi_options, multi_solver  # a one-board run skips it

    check_multi_options(args)
    always_blind = is_dictionary_game(args) and not args.answers
    made: dict[tuple[bool, bool], MultiSolver] = {}

    def solver_for(hard: bool, blind: bool) -> MultiSolver:
        key = (hard, blind or always_blind)
        if key not in made:
            made[key] = multi_solver(
                argparse.Namespace(**{**vars(args), "hard": hard, "blind": key[1]})
            )
            made[key].advise([], top=1)  # the opening, worked out once here
        return made[key]

    return solver_for
