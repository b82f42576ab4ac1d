"""When the tile finder's first reading finds no group at all, it looks again with the colour tied to detail.

`band_sets_pitch_rug.jpg` is a synthetic hand-laid 7x7 kingdom (12 points) on the dark rug under
broad glare, photographed close. The colour model takes the rug's bands of dots, which run the photo's
height, for tiles joined to the kingdom: the pitch pass, bounded by that piece's long side, took 169 px (the
square is 52 px in the working image), and no piece held a group at that pitch. On main c3775d2 kscore
answered "the only kingdom seen is cut by the photo's top edge" (the block finder's guess, exit 3).
"""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = TEST_DATA / "loose" / "band_sets_pitch_rug.jpg"


def test_the_kingdom_is_found_whole_at_its_own_pitch():
    (group,) = find_loose(load_photo(PHOTO))
    assert group.extent == (7, 7) and not group.partial
    assert 95 <= group.pitch <= 125  # 111 px a square as drawn


def test_it_is_read_as_a_7x7_kingdom_not_said_cut():
    game = read_photo(PHOTO)
    assert not game.partial
    (found,) = game.found
    assert found.extent == (7, 7) and found.kingdom.size == 7
