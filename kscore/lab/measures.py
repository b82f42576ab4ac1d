"""What an evaluation counts on a kingdom read: its plain score and the squares right."""

from __future__ import annotations

from kscore.game.kingdom import Kingdom
from kscore.game.scoring import score_kingdom


def kingdom_points(kingdom: Kingdom) -> int:
    """The plain score (no variants): what 'exact score' compares."""
    return score_kingdom(kingdom, check=False).total


def squares_right(truth: Kingdom, read: Kingdom) -> int:
    """Squares read with both terrain and crowns right (the two grids have the same size)."""
    return sum((read[p].terrain, read[p].crowns) == (truth[p].terrain, truth[p].crowns) for p in truth.positions())
