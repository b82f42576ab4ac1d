"""The classifiers' own doubt, with bars chosen on data they did not train on.

The decoder marks a square `?` when the legal readings it found disagree on
it. That misses the misreads the classifiers are wrong about *and* the box
allows (a table square read as a plain meadow, a crown missed under glare): the
decoder then finds one legal kingdom and is sure of it. So a square is also
marked when its classifier's top probability is under a bar, one for terrain,
one for crown counts.

The bars are not guessed: `kscore train` predicts every training square out of
fold (grouped by kingdom, so a kingdom is never read by a model that saw it,
glare and table copies included) and `choose_bar` takes the bar that marks a
target share of the wrong squares while marking at most a small share of the
right ones; a player asked to check ten squares of 25 stops looking.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from kscore.game.kingdom import Kingdom, Terrain, square_name
from kscore.vision.read.classes import CASTLE

#: The share of out-of-fold wrong squares the bar should mark ...
WRONG_MARKED = 0.8
#: ... unless it would mark more than this share of the right ones (then it marks exactly this share).
RIGHT_MARKED_AT_MOST = 0.04
#: A square read castle or empty (no crowns possible) is marked when the crown counter gives "no crowns" less
#: than this: the two classifiers contradict each other, so one of them is wrong whatever their bars say.
NO_CROWNS_BELOW = 0.5


@dataclass(frozen=True)
class Doubt:
    """Bars under which a square's top probability marks it `?` (0: never)."""

    terrain_below: float = 0.0
    crowns_below: float = 0.0

    def to_info(self) -> dict:
        return {"terrain_below": self.terrain_below, "crowns_below": self.crowns_below}

    @classmethod
    def from_info(cls, info: dict) -> "Doubt":
        """From a model's info (models made before the bars existed: no extra marks)."""
        bars = info.get("doubt") or {}
        return cls(float(bars.get("terrain_below", 0.0)), float(bars.get("crowns_below", 0.0)))


def choose_bar(top_p: np.ndarray, right: np.ndarray, wrong_marked: float = WRONG_MARKED,
               right_marked_at_most: float = RIGHT_MARKED_AT_MOST) -> float:
    """The bar on top_p marking `wrong_marked` of the wrong rows, or `right_marked_at_most` of the right ones if fewer.

    A row is marked when top_p < bar. With no wrong rows there is nothing to
    learn from: 0 (mark none).

    >>> p = np.array([0.5, 0.6, 0.99, 0.7, 0.999, 0.999, 0.999, 0.999])
    >>> ok = np.array([False, False, False, True, True, True, True, True])
    >>> round(choose_bar(p, ok, wrong_marked=0.6, right_marked_at_most=0.5), 3)  # 2 of 3 wrong, 0 of 5 right
    0.6
    >>> round(choose_bar(p, ok, wrong_marked=1.0, right_marked_at_most=0.1), 3)  # all 3 wrong would mark a right one
    0.7
    """
    top_p, right = np.asarray(top_p, float), np.asarray(right, bool)
    wrong_p = np.sort(top_p[~right])
    if not len(wrong_p):
        return 0.0
    # Smallest bar marking the target share of the wrong: just above the k-th lowest wrong p.
    k = int(np.ceil(wrong_marked * len(wrong_p)))
    bar = float(np.nextafter(wrong_p[k - 1], np.inf)) if k else 0.0
    right_p = np.sort(top_p[right])
    allowed = int(np.floor(right_marked_at_most * len(right_p)))
    if np.count_nonzero(right_p < bar) > allowed:
        bar = float(right_p[allowed])  # marks the `allowed` lowest right rows (ties: fewer)
    return bar


def mark_doubts(kingdom: Kingdom, terrain_probs: np.ndarray, crown_probs: np.ndarray, doubt: Doubt | None) -> Kingdom:
    """The kingdom with every square whose classifier was under its bar marked `?`.

    Crown doubt counts on squares that can carry crowns only (not empty, not the castle); on those the
    counter seeing crowns at all (NO_CROWNS_BELOW) marks them: a wheat read castle at 0.94 with two crowns
    counted at 0.999 passed both bars.
    """
    if doubt is None:
        return kingdom
    terrain_top = terrain_probs.max(axis=-1)
    crown_top = crown_probs.max(axis=-1)
    for position, square in kingdom.squares():
        crowned = square.terrain not in (Terrain.EMPTY, Terrain.CASTLE)
        crowns_seen = not crowned and crown_probs[position][0] < NO_CROWNS_BELOW and doubt.crowns_below > 0
        if (terrain_top[position] < doubt.terrain_below or (crowned and crown_top[position] < doubt.crowns_below)
                or crowns_seen):
            if not square.uncertain:
                kingdom = kingdom.with_square(position, replace(square, uncertain=True))
    return kingdom


def mark_missing_castle(kingdom: Kingdom, terrain_probs: np.ndarray) -> tuple[Kingdom, list[str]]:
    """A kingdom read without a castle, with the tile square likeliest to be it marked `?`, and a note saying so.

    Every kingdom has one castle (the start tile), finished or not, so a reading without one is wrong
    somewhere, and its score usually with it; the decoder puts it back only on a group of tiles taken as the
    kingdom for want of one, where that makes a legal kingdom at odds the box's rule justifies
    (decoder.CASTLE_PLACED_MARGIN), and otherwise the player should be asked to look where it likeliest is. A reading with a castle, or with no tile, is returned as it is.

    >>> from kscore.game.textformat import parse_square
    >>> from kscore.vision.read.classes import TERRAIN_CLASSES
    >>> rows = ("W0 W0 .", "F1 S0 .", ". . .")
    >>> kingdom = Kingdom.from_rows("Ann", [[parse_square(t) for t in row.split()] for row in rows])
    >>> probs = np.full((3, 3, len(TERRAIN_CLASSES)), 0.01)
    >>> probs[1, 1, CASTLE] = 0.3
    >>> marked, notes = mark_missing_castle(kingdom, probs)
    >>> marked.uncertain(), notes
    ([(1, 1)], ['no castle was read, and every kingdom has one: check row 2, column 2, the square likeliest to be it'])
    """
    if kingdom.castles() or not any(s.terrain is not Terrain.EMPTY for _, s in kingdom.squares()):
        return kingdom, []
    likeness = {p: float(terrain_probs[p][CASTLE])
                for p, s in kingdom.squares() if s.terrain is not Terrain.EMPTY}
    best = max(likeness, key=likeness.get)
    square = kingdom[best]
    note = f"no castle was read, and every kingdom has one: check {square_name(best)}, the square likeliest to be it"
    return kingdom.with_square(best, replace(square, uncertain=True)), [note]


__all__ = ["Doubt", "choose_bar", "mark_doubts", "mark_missing_castle", "WRONG_MARKED", "RIGHT_MARKED_AT_MOST"]
