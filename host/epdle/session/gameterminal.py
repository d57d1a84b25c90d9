"""How one board's game looks in `play`'s terminal and the daemon's log (several
boards': epdle.session.multiterminal)."""

from __future__ import annotations

from rich.console import Console

from epdle.session.game import Game
from epdle.session.review import ReviewError, game_review
from epdle.session.terminal import advice_text, board_text, lost_text, mode_text


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
            advice_text(game.advice, game.solver.strategy, mode_text(game), len(game.history)),
            highlight=False,
            markup=False,
        )
    if game.over:
        console.print(review_text(game), highlight=False)


def review_text(game: Game) -> str:
    """The finished game's review in a line (its frame follows the end card on the device)."""
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
