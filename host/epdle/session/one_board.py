"""One board's game, the kind GameSetup chooses for one board: the game, its played
line, its frames, and how it looks in `play`'s terminal, the daemon's log and the page.
Several boards' game is epdle.session.boards, with the same names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from epdle.session.commands import HELP_TEXT, parse_played
from epdle.session.game import GameBase, SolverFor, language_state
from epdle.session.terminal import (
    advice_text,
    board_text,
    candidates_text,
    lost_text,
    mode_text,
    prior_line,
    prior_state,
)
from epdle.solver import Advice, HistoryError, Solver
from epdle.solver.scoring import GAME_GUESSES, is_solved
from epdle.words.named import list_name

if TYPE_CHECKING:
    from rich.console import Console

    from epdle.render.planes import Planes
    from epdle.session.review import Review, TurnReview
    from epdle.session.spec import GameSpec
    from epdle.solver.universe import Universe


class Game(GameBase[Solver, Advice, tuple[str, str]]):
    """One board's game: six guesses."""

    @staticmethod
    def solver_of(
        spec: GameSpec, universe: Universe, progress: Callable[[int, int], None] | None = None
    ) -> Solver:
        """The solver this game plays with under `spec`, over `universe` (GameSetup makes
        and keeps both)."""
        return spec.solver(universe, progress)

    @property
    def boards(self) -> int:
        return 1

    @property
    def solved(self) -> bool:
        return bool(self.history) and is_solved(self.history[-1][1])

    @property
    def max_guesses(self) -> int:
        return GAME_GUESSES

    def _history_error(self) -> type[ValueError]:
        return HistoryError

    def play(self, guess: str, feedback: str) -> Advice | None:
        """Add a played guess; raises GameError (game unchanged) if it cannot be."""
        return self._play(lambda word: (word, feedback), guess)

    def played_line(self, line: str) -> tuple[str, str] | None:
        return None  # a played line is 'crane gybbb', as commands.parse_line reads it

    def move(self, word: str, colours: str) -> tuple[str, Callable[[], object]]:
        played = parse_played(word, colours)
        return played.guess, lambda: self.play(played.guess, played.feedback)

    def candidates_notes(self) -> list[str]:
        if self.solved:
            return [f"solved: {self.history[-1][0].upper()}"]
        return [candidates_text(self.advice)]

    def frames(self) -> list[Planes]:
        from epdle.session.screens import frames_for

        return frames_for(self)

    def help_text(self) -> str:
        return HELP_TEXT

    def show(self, console: Console) -> None:
        show_game(console, self)

    def summary(self) -> str:
        return game_summary(self)

    @staticmethod
    def read_history(text: str, boards: int = 1) -> list[tuple[str, str]]:
        """A game as `suggest` takes it, 'salet:GBYBB,crony:BBGBB' (ValueError: a
        one-line message)."""
        from epdle.solver.scoring import parse_history

        return parse_history(text)

    def review(
        self, history: Sequence[tuple[str, str]], normal: bool = False
    ) -> Review[TurnReview]:
        """The review of this game (`history` its own) in its mode, or of another game in
        the mode its moves show (review_as_played); ReviewError if it cannot be."""
        from epdle.session.review import game_review, review_as_played

        if list(history) == list(self.history):
            return game_review(tuple(history), self.solver, self.solvers)
        return review_as_played(list(history), self.solver, self.solvers, normal)

    @staticmethod
    def review_planes(review: Review[Any]) -> Planes:
        """The device's frame of a review (ValueError: more rows than the panel shows)."""
        from epdle.session.review import review_planes

        return review_planes(review)

    @property
    def strategy_name(self) -> str:
        return self.solver.strategy

    def strategy_refusal(self, strategy: str | None) -> str | None:
        from epdle.solver import STRATEGIES

        if strategy is None or strategy in STRATEGIES:
            return None
        return f"unknown strategy {strategy!r}; one of {', '.join(STRATEGIES)}"

    def switch_settings(
        self, strategy: str, hard: bool, blind: bool, modes: Callable[[str], Any]
    ) -> None:
        self.switch(hard, blind, cast("SolverFor", modes(strategy)))

    def page_state(self) -> dict[str, Any]:
        from epdle.odds import chance_shown, chance_text
        from epdle.solver import STRATEGIES

        advice, solver = self.advice, self.solver
        chances = chance_shown(advice.candidates_left, len(self.history))
        return {
            "history": [{"word": w, "colours": f} for w, f in self.history],
            "solved": self.solved,
            "lost": self.lost,  # every guess played without the answer: the game is over
            "widened": self.widened,  # the feedback left the answer list: every word counts
            "answer_list": list_name(self.lists),  # the shipped list the game started from
            **prior_state(solver.universe),  # the prior and, for history, how old
            "length": solver.universe.length,
            "language": language_state(solver.universe),
            "max_guesses": GAME_GUESSES,
            "candidates_left": advice.candidates_left,
            "candidates": advice.candidates,
            "suggestions": [
                {
                    "word": s.word,
                    "bits": round(s.bits, 3),
                    "expected_left": round(s.expected_left, 2),
                    "could_win": s.is_candidate,
                    # `best`'s expected guesses to finish, that it ranks by
                    # (epdle.solver.ranking.figure), and what gave it
                    "guesses": None if s.guesses is None else round(s.guesses, 2),
                    "guesses_from": s.source,
                    # on the last guesses, its chance to win ("1 in 4"; None: not shown)
                    "chance": (chance_text(s.chance) or None) if chances else None,
                }
                for s in advice.suggestions
            ],
            "settings": {
                "strategy": solver.strategy,
                "hard": solver.hard,
                "blind": solver.blind,
                "top": self.top,
            },
            "strategies": list(STRATEGIES),
        }


def show_game(console: Console, game: Game) -> None:
    """The board so far, then the advice or the game's end (and its review)."""
    if game.history:
        console.print(board_text(game.history, console.color_system is not None))
    if game.solved:
        console.print(f"[green]Solved in {len(game.history)}![/green] 'new' for another game.")
    elif game.lost:
        console.print(f"[red]{lost_text(game)}[/red] 'new' for another game.", highlight=False)
    else:
        console.print(
            advice_text(
                game.advice,
                game.solver.strategy,
                mode_text(game),
                prior_line(game.solver.universe),
                len(game.history),
            ),
            highlight=False,
            markup=False,
        )
    if game.over:
        console.print(review_text(game), highlight=False)


def review_text(game: Game) -> str:
    """The finished game's review in a line (its frame follows the end card on the device)."""
    from epdle.session.review import ReviewError, game_review

    try:
        review = game_review(tuple(game.history), game.solver, game.solvers)
    except ReviewError as error:
        return f"No review: {error}"
    return (
        f"Review: skill {review.skill}/99, luck {review.luck}/99 (press the button for each "
        "guess's; `epdle review` for the details)."
    )


def game_summary(game: Game) -> str:
    """The game in one line, as the daemon logs it."""
    if game.solved:
        return f"solved in {len(game.history)}"
    if game.lost:
        return lost_text(game)
    advice = game.advice
    words = ", ".join(s.word for s in advice.suggestions)
    return f"{advice.candidates_left} candidate(s) left; next: {words}"
