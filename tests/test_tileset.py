from kscore.lab.dataset import load_boards, load_photo_items
from kscore.game.kingdom import Square, Terrain
from kscore.game.tileset import GIANTS, KINGDOMINO, QUEENDOMINO, TILESETS, split_into_dominoes


def test_box_totals_match_tiles_md():
    # tiles.md's table: squares and crowns per terrain in the 48-domino box.
    totals = KINGDOMINO.terrain_totals()
    assert totals[Terrain.WHEAT] == (26, 5)
    assert totals[Terrain.FOREST] == (22, 6)
    assert totals[Terrain.LAKE] == (18, 6)
    assert totals[Terrain.GRASSLAND] == (14, 6)
    assert totals[Terrain.SWAMP] == (10, 6)
    assert totals[Terrain.MINE] == (6, 10)
    assert sum(n for n, _ in totals.values()) == 96
    assert KINGDOMINO.max_crowns[Terrain.WHEAT] == 1
    assert KINGDOMINO.max_crowns[Terrain.MINE] == 3


def test_other_boxes_have_their_counts():
    assert len(KINGDOMINO.dominoes) == 48
    assert len(GIANTS.dominoes) == 12
    assert len(QUEENDOMINO.dominoes) == 48
    assert TILESETS["kingdomino+giants"].max_crowns[Terrain.WHEAT] == 2


def test_every_labelled_board_splits_into_real_dominoes(kingdomino_data):
    for board in load_boards(kingdomino_data):
        split = split_into_dominoes(board.kingdom)
        assert split.ok, (board.board_id, split.unpaired)
        assert len(split.pairs) * 2 == sum(1 for _, s in board.kingdom.squares() if s.terrain.scores)


def test_labelled_photos_split_including_7x7(photos_data):
    for kingdoms in load_photo_items(photos_data).values():
        for labelled in kingdoms:
            assert split_into_dominoes(labelled.kingdom).ok


def test_impossible_square_is_named(kingdomino_data):
    board = load_boards(kingdomino_data)[0].kingdom
    # A wheat square with 2 crowns exists in no domino of the box.
    position = next(p for p, s in board.squares() if s.terrain is Terrain.WHEAT)
    broken = board.with_square(position, Square(Terrain.WHEAT, 2))
    split = split_into_dominoes(broken)
    assert not split.ok
    assert position in split.unpaired
