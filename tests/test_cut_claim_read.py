"""The recogniser checks a claim that the photo's edge cuts the kingdom (app.pipeline.cut_by_table).

`band_cut_claim_rug.jpg` is a synthetic hand-laid 3x3 kingdom (6 tiles and the castle, 3 points) on the dark
rug under broad glare, photographed close, in the middle of the photo. The colour model takes a band of the
rug's dots for tiles and joins it to the kingdom up to the photo's edge, and the tile mask lays squares of
tile on it there. On main f96a447 kscore answered "the only kingdom seen is cut by the photo's top edge"
(exit 3). The recogniser reads those squares as table, so the kingdom found with the table cut back
is read.

`close_6x7_band_rug.jpg` is a synthetic hand-laid 6x7 kingdom of a 7x7 game (8 points) on the same rug,
photographed close: its last row of tiles is most of a square from the bottom edge, a band joins it to the
edge, and those tiles are what the claim rests on. The square past them, in view, reads as table. On main
f96a447: "cut by the photo's bottom edge".

`cut_top_dotted.jpg` is a synthetic 5x5 kingdom on the dotted carpet truly cut by the photo's top edge: the
tile mask loses its dark forests cut in half there, and its blob meets the edge only where a band of dots
joined it. The squares its cut rests on are tiles, and the recogniser says so: it stays cut.
"""

from __future__ import annotations

import pytest

from conftest import TEST_DATA
from kscore.app.pipeline import cut_by_table, loose_readings, read_photo
from kscore.errors import NothingRecognisedError
from kscore.game.scoring import score_kingdom
from kscore.vision.find.loose import find_loose_or_uncut
from kscore.vision.load import load_photo

ON_BAND = TEST_DATA / "loose" / "band_cut_claim_rug.jpg"
CLOSE = TEST_DATA / "loose" / "close_6x7_band_rug.jpg"
CUT = TEST_DATA / "loose" / "cut_top_dotted.jpg"


def test_a_cut_resting_on_table_squares_is_refuted_and_the_kingdom_read():
    photo = load_photo(ON_BAND)
    groups, uncut = find_loose_or_uncut(photo)
    cut = [g for g in groups if g.partial]
    assert cut and all(g.cut_by for g in cut)  # the tile finder alone says cut, on named squares
    assert uncut and cut_by_table(photo, groups, uncut)
    game = read_photo(ON_BAND)
    assert not game.partial
    (found,) = game.found
    assert sorted(found.extent) == [3, 3]
    assert len(found.kingdom.castles()) == 1
    assert score_kingdom(found.kingdom).total == 3


def test_tiles_short_of_the_edge_with_table_past_them_are_not_cut():
    photo = load_photo(CLOSE)
    groups, uncut = find_loose_or_uncut(photo)
    (cut,) = [g for g in groups if g.partial]
    assert cut.missing.startswith("cut by the photo's bottom edge")
    assert cut_by_table(photo, groups, uncut)
    assert not loose_readings(photo, None, with_partial=True)[2]  # no group found tile by tile is cut
    game = read_photo(CLOSE)
    assert not game.partial  # nor the block of squares the grid finder saw cut there: the reader refuted it
    (found,) = game.found
    assert sorted(found.extent) == [6, 7] and found.kingdom.size == 7
    assert score_kingdom(found.kingdom).total == 8


def test_a_cut_resting_on_tiles_stands():
    photo = load_photo(CUT)
    groups, uncut = find_loose_or_uncut(photo)
    assert uncut  # the finder's second reading was made, and offered
    assert not cut_by_table(photo, groups, uncut)
    with pytest.raises(NothingRecognisedError, match="cut by the photo's top edge"):
        read_photo(CUT)
