"""A kingdom photographed close lies within a square of the photo's edge; a blotch of the table joined to it
there does not make it "cut by the photo's edge".

The photo is scene 0 of `benchmarks/eval_loose.py --scenes 100 --seed 604 --close --holdout`
(tests/data/README.md): a whole 5x5 kingdom scoring 6 on the synthetic cloth, its bottom row a third of a
square from the photo's bottom edge, a pale blotch of the cloth joining its tile mask to that edge. Its
tiles come within CUT_REACH (a square) of the edge, so the first reading said cut; found again with the
colour kept near the tiles' detail (loose.tied_to_detail), the same 21 tile squares stand whole, clear of
the edge, and that reading is taken.
"""

from __future__ import annotations

from pathlib import Path

from kscore.app.pipeline import read_photo
from kscore.game.scoring import score_kingdom
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "close_5x5_cloth_blotch.jpg"


def test_the_kingdom_by_the_edge_is_found_whole():
    groups = find_loose(load_photo(PHOTO))
    assert len(groups) == 1
    assert groups[0].extent == (5, 5) and not groups[0].partial
    assert sum(share >= 0.6 for share in groups[0].tile.values()) == 21


def test_it_is_scored_not_refused_as_cut():
    game = read_photo(PHOTO)
    assert len(game.kingdoms) == 1 and not game.partial
    assert score_kingdom(game.kingdoms[0], check=False).total == 6
