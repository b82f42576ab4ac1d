"""A grid's reading never holds a second castle, even when the decoder finds no legal kingdom near it.

The board is real (board 2 of the labelled boards, tests/data/recognition) with its castle square pasted over
three corners: the recogniser reads four castles, too far from any legal kingdom for the decoder's own repair,
which then keeps the per-square reading (a false grid over a patterned table came out like this, four castles
in one kingdom: `eval_loose.py --seed 636 --close --tilt 25 --holdout` scene 53).
"""

from pathlib import Path

import cv2
import pytest

from kscore.game.kingdom import Terrain
from kscore.game.tileset import KINGDOMINO
from kscore.vision.read.reader import decode_probabilities, default_models, read_board, square_probabilities

BOARD = Path(__file__).parent / "data" / "recognition" / "boards" / "2.jpg"
CASTLE = (2, 2)
PASTED = [(0, 0), (0, 4), (4, 0)]


@pytest.fixture(scope="module")
def four_castles():
    image = cv2.imread(str(BOARD))
    side = image.shape[0] // 5
    castle = image[2 * side:3 * side, 2 * side:3 * side].copy()
    for r, c in PASTED:
        image[r * side:(r + 1) * side, c * side:(c + 1) * side] = castle
    return image


def test_the_decoder_alone_keeps_the_four_castles_read(four_castles):
    terrain, crowns = square_probabilities(four_castles, 5, default_models())
    kingdom = decode_probabilities(terrain, crowns, KINGDOMINO, "k")[0]
    assert sorted(kingdom.castles()) == sorted([CASTLE, *PASTED])


@pytest.mark.parametrize("tileset", [KINGDOMINO, None], ids=["box", "no-tileset"])
def test_the_grid_reads_one_castle_and_says_where_the_others_went(four_castles, tileset):
    reading = read_board(four_castles, 5, tileset, "k", default_models())
    castles = reading.kingdom.castles()
    assert len(castles) == 1 and castles[0] in [CASTLE, *PASTED]
    lost = [p for p in [CASTLE, *PASTED] if p != castles[0]]
    for p in lost:
        assert reading.kingdom[p].terrain is not Terrain.CASTLE and reading.kingdom[p].uncertain
    said = [c for c in reading.changes if "exactly one castle and 4 were read" in c]
    assert len(said) == 3 and all("the square most like it" in c for c in said)
