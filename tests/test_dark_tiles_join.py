"""A row that hangs on dark tiles stays in the kingdom.

`dark_tiles_rug.jpg` is a synthetic hand-laid kingdom (4x5 squares, 7 points, a stray domino beside it)
on the dark striped rug. Its top row (a wheat-forest domino and the flat castle) touches the rest only
through a dark forest and the castle, which the colour and detail masks lose on the dark carpet (the
opening that takes the rug's dots away takes their print too); their outlines stay. On main 5065635 the
top row fell apart from the kingdom and was dropped: found 3x3, read 4x3 with a castle grown onto the
table, 6 points. The outlined squares the mask lacks now join it (loose._groups).
"""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.lab.measures import kingdom_points
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = TEST_DATA / "loose" / "dark_tiles_rug.jpg"


def test_the_row_beyond_the_dark_tiles_is_found_with_the_kingdom():
    groups = [g for g in find_loose(load_photo(PHOTO)) if not g.partial]
    assert groups
    assert sorted(groups[0].extent) == [4, 5]


def test_the_kingdom_is_read_whole_with_its_own_castle():
    game = read_photo(PHOTO)
    (found,) = game.found
    assert sorted(found.extent) == [4, 5]
    assert len(found.kingdom.castles()) == 1
    assert kingdom_points(found.kingdom) == 7
