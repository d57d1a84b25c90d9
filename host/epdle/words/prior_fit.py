"""Fit the blind-mode prior to a known answer list by maximum likelihood.

Each accepted word is a Bernoulli trial "is an answer" with probability
sigmoid((zipf - centre) / width) * plural_factor^plural * past_tense_factor^past_tense.
The four parameters are found by a grid search that zooms in on the best point:
the likelihood is smooth and has one ridge, and a grid needs no gradient code.

When the flags mark only a sample of the answers (half of them, to test the fit on
the other half), the answers left out count as non-answers: `answer_share` scales
the probability by the sampled fraction so the shape is not bent to absorb it
(the sigmoid tops out at 1 and cannot lower its ceiling by itself).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from epdle.words.info import WordInfo
from epdle.words.prior import Prior

PROBABILITY_FLOOR = 1e-9
# Search box: centre in Zipf units, width and the factors on a log scale. A factor whose
# kind has no answers among the flags ends on the floor, 1e-4 (the likelihood wants 0).
CENTRE_RANGE = (0.0, 8.0)
LOG_WIDTH_RANGE = (math.log(0.02), math.log(3.0))
LOG_FACTOR_RANGE = (math.log(1e-4), 0.0)
COARSE_POINTS = (17, 9, 9, 9)  # centre, width, plural factor, past-tense factor
ZOOM_POINTS = 7
ZOOM_ROUNDS = 8
# Grid points scored at once: bounds the (points x word groups) matrix to tens of MB.
CHUNK_POINTS = 2048


def fit_prior(
    infos: Sequence[WordInfo],
    is_answer: Sequence[bool],
    answer_share: float = 1.0,
    pseudo_answers: float = 0.0,
) -> Prior:
    """The Prior under which `is_answer` is most likely, given each word's frequency facts.

    `answer_share`: the fraction of all answers that `is_answer` marks (a random half: 0.5).
    `pseudo_answers`: count this many answers more of each demoted kind (plural, past
    tense), as if seen: a kind with no answer among the flags then keeps the factor at
    which that many would be expected, instead of falling to the grid floor (the maximum
    a posteriori fit under a prior proportional to factor ** pseudo_answers).
    """
    if pseudo_answers < 0:
        raise ValueError(f"pseudo answers must not be negative, not {pseudo_answers}")
    if not 0 < answer_share <= 1:
        raise ValueError(f"answer share must be in (0, 1], not {answer_share}")
    if len(infos) != len(is_answer):
        raise ValueError(f"{len(infos)} word infos but {len(is_answer)} answer flags")
    answers = int(sum(bool(flag) for flag in is_answer))
    if answers == 0 or answers == len(infos):
        raise ValueError(
            "fitting a prior needs both answers and non-answers "
            f"({answers} of {len(infos)} words are answers)"
        )
    if not all(math.isfinite(info.zipf) for info in infos):
        raise ValueError("every word's Zipf frequency must be a finite number")
    groups = _WordGroups(infos, is_answer, answer_share, pseudo_answers)

    axes = [
        np.linspace(*CENTRE_RANGE, COARSE_POINTS[0]),
        np.linspace(*LOG_WIDTH_RANGE, COARSE_POINTS[1]),
        np.linspace(*LOG_FACTOR_RANGE, COARSE_POINTS[2]),
        np.linspace(*LOG_FACTOR_RANGE, COARSE_POINTS[3]),
    ]
    bounds = [CENTRE_RANGE, LOG_WIDTH_RANGE, LOG_FACTOR_RANGE, LOG_FACTOR_RANGE]
    best = groups.best_point(axes)
    steps = [float(axis[1] - axis[0]) for axis in axes]
    for _ in range(ZOOM_ROUNDS):
        # One old step either side of the best point, so the optimum stays inside the grid.
        axes = [
            np.unique(np.clip(np.linspace(centre - step, centre + step, ZOOM_POINTS), *bound))
            for centre, step, bound in zip(best, steps, bounds, strict=True)
        ]
        best = groups.best_point(axes)
        steps = [2 * step / (ZOOM_POINTS - 1) for step in steps]
    centre, log_width, log_plural, log_past = best
    return Prior(
        centre_zipf=round(centre, 3),
        width_zipf=round(math.exp(log_width), 3),
        plural_factor=_round_significant(math.exp(log_plural)),
        past_tense_factor=_round_significant(math.exp(log_past)),
    )


def _round_significant(value: float, digits: int = 3) -> float:
    return float(f"{value:.{digits}g}")


class _WordGroups:
    """Words with equal (zipf, plural, past tense), counted as answers and non-answers.

    Zipf values come rounded to hundredths, so 15,000 words shrink to about 1,100 groups
    and every grid point costs one pass over the groups instead of over the words.
    """

    def __init__(
        self,
        infos: Sequence[WordInfo],
        is_answer: Sequence[bool],
        answer_share: float = 1.0,
        pseudo_answers: float = 0.0,
    ) -> None:
        self.log_share = math.log(answer_share)
        self.pseudo_answers = pseudo_answers
        rows = np.array(
            [(info.zipf, info.plural, info.past_tense) for info in infos], dtype=np.float64
        )
        keys, inverse = np.unique(rows, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        flags = np.asarray(is_answer, dtype=bool)
        self.zipf = keys[:, 0]
        self.plural = keys[:, 1]
        self.past_tense = keys[:, 2]
        self.answers = np.bincount(inverse, weights=flags, minlength=len(keys))
        self.others = np.bincount(inverse, weights=~flags, minlength=len(keys))

    def log_likelihood(self, points: np.ndarray) -> np.ndarray:
        """Log-likelihood at each (centre, log width, log plural factor, log past factor) row."""
        centre, log_width, log_plural, log_past = (points[:, [i]] for i in range(4))
        logit = (self.zipf - centre) / np.exp(log_width)
        log_p = (
            self.log_share
            - np.logaddexp(0.0, -logit)
            + self.plural * log_plural
            + self.past_tense * log_past
        )
        p = np.clip(np.exp(log_p), PROBABILITY_FLOOR, 1 - PROBABILITY_FLOOR)
        return np.log(p) @ self.answers + np.log1p(-p) @ self.others

    def best_point(self, axes: list[np.ndarray]) -> tuple[float, float, float, float]:
        grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 4)
        scores = np.concatenate(
            [
                self.log_likelihood(grid[start : start + CHUNK_POINTS])
                for start in range(0, len(grid), CHUNK_POINTS)
            ]
        )
        scores += self.pseudo_answers * (grid[:, 2] + grid[:, 3])  # log factors
        centre, log_width, log_plural, log_past = grid[int(np.argmax(scores))]
        return float(centre), float(log_width), float(log_plural), float(log_past)
