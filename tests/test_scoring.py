"""The scoring engine against rules.md sections 1-2, hand-worked examples and an independent scorer."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PROJECT, TEST_DATA
from kscore.lab.dataset import load_boards, load_photo_items
from kscore.game.kingdom import Kingdom, Square, Terrain
from kscore.game.rules import GameRules
from kscore.game.scoring import SCORE_RULES, find_properties, score_kingdom
from kscore.game.textformat import parse_game, read_game, write_kingdom

BOTH = GameRules(variants=frozenset({"middle-kingdom", "harmony"}))


def grid(text: str, name: str = "k") -> Kingdom:
    return parse_game(text, name).kingdoms[0]


def points(text: str, rules: GameRules = GameRules()) -> int:
    return score_kingdom(grid(text), rules).total


# ------------------------------------------------------------------ rules.md section 1


def test_issue_example_by_hand():
    # W1 W0 F0 F1 L0
    # G0 G2 C  L0 L1
    # G0 S0 S1 L0 L0
    # M2 S0 W0 W0 .
    # M0 W1 W0 F0 .
    # wheat top-left 2 sq x 1 = 2; forest top 2 x 1 = 2; lake 5 x 1 = 5; grassland 3 x 2 = 6;
    # swamp 3 x 1 = 3; mine 2 x 2 = 4; wheat bottom 4 x 1 = 4; forest bottom 1 x 0 = 0  -> 26
    score = score_kingdom(read_game(TEST_DATA / "alice.kingdom").kingdoms[0])
    assert score.total == 26
    assert sorted((p.terrain.value, p.squares, p.crowns, p.points) for p in score.properties) == [
        ("forest", 1, 0, 0), ("forest", 2, 1, 2), ("grassland", 3, 2, 6), ("lake", 5, 1, 5),
        ("mine", 2, 2, 4), ("swamp", 3, 1, 3), ("wheat", 2, 1, 2), ("wheat", 4, 1, 4),
    ]
    # Castle off centre and two empty squares: neither variant scores.
    assert score_kingdom(score.kingdom, BOTH).total == 26


def test_diagonal_squares_are_not_connected():
    # The two M1 touch only by a corner: two properties of 1 x 1 = 1 each, not one of 2 x 2 = 4.
    text = "M1 L0 L0 L0 L0\nL0 M1 L0 L0 L0\nL0 L0 C  L0 L0\nL0 L0 L0 L0 L0\nL0 L0 L0 L0 L0\n"
    mines = [p for p in find_properties(grid(text)) if p.terrain is Terrain.MINE]
    assert [(p.squares, p.crowns) for p in mines] == [(1, 1), (1, 1)]
    assert points(text) == 2  # the lake has no crown: 0


def test_same_terrain_apart_scores_separately():
    # Two swamp groups split by the castle column: 2 x 1 + 2 x 2 = 6 (together it would be 4 x 3 = 12).
    text = ". . . . .\n. . . . .\nS1 S0 C S2 S0\n. . . . .\n. . . . .\n"
    assert points(text) == 6


def test_castle_and_empty_squares_belong_to_no_property():
    props = find_properties(grid(". . . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n"))
    assert props == []


def test_uncrowned_property_scores_zero_whatever_its_size():
    text = "F0 F0 F0 F0 F0\nF0 F0 F0 F0 F0\nF0 F0 C  F0 F0\nF0 F0 F0 F0 F0\nF0 F0 F0 F0 G1\n"
    score = score_kingdom(grid(text))
    forest = next(p for p in score.properties if p.terrain is Terrain.FOREST)
    assert (forest.squares, forest.points) == (23, 0)
    assert score.total == 1  # the lone G1: 1 x 1


def test_size_times_crowns_of_one_property():
    # 3 mine squares with 2 + 0 + 3 crowns: 3 x 5 = 15.
    assert points("M2 M0 M3 . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n") == 15


def test_giants_cancel_the_crowns_they_stand_on():
    # M3 with two giants and M2: counted crowns 1 + 2 = 3, 2 squares: 2 x 3 = 6 (without giants 2 x 5 = 10).
    text = "M3g2 M2 . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n"
    assert points(text) == 6
    assert score_kingdom(grid(text)).crowns == 3


# ------------------------------------------------------------------ rules.md section 2

FULL_CENTRED = """\
W0 W0 F0 F1 L0
G0 G2 L0 L0 L1
G0 S0 C  L0 L0
M2 S0 W0 W0 W1
M0 W1 W0 F0 F0
"""


def test_middle_kingdom_and_harmony_each_with_a_reason():
    plain = points(FULL_CENTRED)
    score = score_kingdom(grid(FULL_CENTRED), BOTH)
    assert score.total == plain + 10 + 5
    lines = {line.name: line for line in score.lines}
    assert lines["middle-kingdom"].points == 10 and "row 3, column 3" in lines["middle-kingdom"].reason
    assert lines["harmony"].points == 5 and "full" in lines["harmony"].reason
    assert all(line.kind == "bonus" for line in score.lines)


def test_variants_only_count_when_in_play():
    assert score_kingdom(grid(FULL_CENTRED)).lines == ()
    only_harmony = score_kingdom(grid(FULL_CENTRED), GameRules(variants=frozenset({"harmony"})))
    assert [line.name for line in only_harmony.lines] == ["harmony"]


def test_middle_kingdom_needs_the_castle_on_the_centre_square():
    off = FULL_CENTRED.replace("C ", "X").replace("W1\n", "C\n").replace("X", "W1")
    assert grid(off).castles() == [(3, 4)]
    lines = score_kingdom(grid(off), BOTH).lines
    assert [(line.name, line.points) for line in lines] == [("middle-kingdom", 0), ("harmony", 5)]
    assert lines[0].reason == "castle at row 4, column 5, not on the centre square"


def test_one_empty_square_loses_harmony_only():
    text = FULL_CENTRED.replace("F0 F0\n", "F0 .\n")
    lines = score_kingdom(grid(text), BOTH).lines
    assert [(line.name, line.points) for line in lines] == [("middle-kingdom", 10), ("harmony", 0)]
    assert lines[1].reason == "1 empty square, first at row 5, column 5"  # a variant missed says why


def test_empty_edge_row_leaves_the_frame_undetermined():
    # rules.md: the squares must span the full frame; a whole empty edge row means they do not.
    text = ". . . . .\n" + FULL_CENTRED.split("\n", 1)[1]
    score = score_kingdom(grid(text), BOTH)
    assert [(line.name, line.points) for line in score.lines] == [("middle-kingdom", 0), ("harmony", 0)]
    assert "frame is not determined (empty top row)" in score.lines[0].reason
    assert score.lines[1].reason == "5 empty squares, first at row 1, column 1"
    assert any("middle-kingdom not awarded" in w and "top row" in w for w in score.warnings)
    # ... unless the file says the grid is the frame.
    given_frame = score_kingdom(parse_game("[A]\nframe: given\n" + text).kingdoms[0], BOTH)
    assert [(line.name, line.points) for line in given_frame.lines] == [("middle-kingdom", 10), ("harmony", 0)]
    assert not any("middle-kingdom" in w for w in given_frame.warnings)


def test_two_castles_never_make_a_middle_kingdom():
    text = FULL_CENTRED.replace("M0", "C ")
    lines = score_kingdom(grid(text), BOTH).lines
    assert [(line.name, line.points) for line in lines] == [("middle-kingdom", 0), ("harmony", 5)]
    assert lines[0].reason.startswith("2 castles, at ")


def test_mighty_duel_centre_is_row_4_column_4():
    # duel.kingdom: tpacko_game1's labels, whose source gives the plain score 121.
    game = read_game(TEST_DATA / "duel.kingdom")
    score = score_kingdom(game.kingdoms[0], game.rules)
    assert score.property_points == 121
    assert {line.name: line.points for line in score.lines} == {"middle-kingdom": 10, "harmony": 5}
    assert score.total == 136


def test_extension_point_is_a_plain_list_of_functions():
    from kscore.game.scoreline import ScoreLine

    def castle_tax(kingdom, rules, properties):
        return [ScoreLine("test", "castle-tax", -1, "a test rule")]

    SCORE_RULES.append(castle_tax)
    try:
        score = score_kingdom(grid(FULL_CENTRED))
        assert [line.name for line in score.lines] == ["castle-tax"]
        assert score.total == score.property_points - 1
    finally:
        SCORE_RULES.remove(castle_tax)


# ------------------------------------------------------------------ an independent scorer


def independent_score(terrain_rows, crown_rows) -> int:
    """Union-find over label rows, written apart from kscore: sum of size x crowns per group."""
    n = len(terrain_rows)
    parent = list(range(n * n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(n):
        for c in range(n):
            t = terrain_rows[r][c]
            if t in ("castle", "empty"):
                continue
            if c + 1 < n and terrain_rows[r][c + 1] == t:
                parent[find(r * n + c)] = find(r * n + c + 1)
            if r + 1 < n and terrain_rows[r + 1][c] == t:
                parent[find(r * n + c)] = find((r + 1) * n + c)
    size, crowns = {}, {}
    for r in range(n):
        for c in range(n):
            if terrain_rows[r][c] in ("castle", "empty"):
                continue
            root = find(r * n + c)
            size[root] = size.get(root, 0) + 1
            crowns[root] = crowns.get(root, 0) + crown_rows[r][c]
    return sum(size[k] * crowns[k] for k in size)


def test_every_labelled_board_through_the_text_format_scores_as_the_independent_scorer(kingdomino_data):
    labels = json.loads((kingdomino_data / "labels.json").read_text())["boards"]
    boards = load_boards(kingdomino_data)
    assert len(boards) == len(labels)
    for board in boards:
        entry = labels[board.board_id]
        kingdom = parse_game(write_kingdom(board.kingdom)).kingdoms[0]  # via the text format
        assert kingdom == board.kingdom
        score = score_kingdom(kingdom, check=False)
        assert score.total == independent_score(entry["terrain"], entry["crowns"]), board.board_id


def test_hand_checked_boards(kingdomino_data):
    boards = {b.board_id: b.kingdom for b in load_boards(kingdomino_data)}
    # Board 1:
    # G0 L0 F0 F0 F0
    # G0 F0 F0 F1 G0
    # G0 S1 C  F0 G0
    # G0 S2 L0 G2 G1
    # F0 L1 L0 G1 W0
    # forest top 7 sq x 1 = 7; grassland left 4 x 0 = 0; grassland right (1,4)(2,4)(3,4)(3,3)(4,3) 5 x 4 = 20;
    # swamp 2 x 3 = 6; lake bottom (3,2)(4,2)(4,1) 3 x 1 = 3; lone L0, F0, W0: 0  -> 36
    assert score_kingdom(boards["1"]).total == 36
    # Board 2:
    # W0 S0 W0 M2 S0
    # M1 S1 W0 W0 F0
    # M2 S0 C  W0 W0
    # M2 M3 G0 G0 W1
    # W0 W0 S0 S0 G0
    # mines left (1,0)(2,0)(3,0)(3,1) 4 x 8 = 32; swamp (0,1)(1,1)(2,1) 3 x 1 = 3; wheat middle
    # (0,2)(1,2)(1,3)(2,3)(2,4)(3,4) 6 x 1 = 6; lone M2 at (0,3): 1 x 2 = 2; the rest 0  -> 43
    assert score_kingdom(boards["2"]).total == 43


def test_labelled_photos_score_what_their_readme_says(photos_data):
    # ../shared/data/photos/README.md gives plain scores: 121, 49, 16.
    expected = {"tpacko_game1.jpg": 121, "tpacko_game4.jpg": 49, "blarc_test2.jpg": 16}
    for photo, kingdoms in load_photo_items(photos_data).items():
        assert [score_kingdom(k.kingdom).total for k in kingdoms] == [expected[photo.name]]


# ------------------------------------------------------------------ properties (hypothesis)

TILES = [Terrain.WHEAT, Terrain.GRASSLAND, Terrain.FOREST, Terrain.LAKE, Terrain.SWAMP, Terrain.MINE]


@st.composite
def kingdoms(draw) -> Kingdom:
    size = draw(st.sampled_from([5, 7]))
    cells = []
    for _ in range(size * size):
        terrain = draw(st.sampled_from(TILES + [Terrain.EMPTY]))
        crowns = draw(st.integers(0, 3)) if terrain.scores else 0
        cells.append(Square(terrain, crowns))
    cells[draw(st.integers(0, size * size - 1))] = Square(Terrain.CASTLE)
    return Kingdom.from_rows("h", [cells[r * size:(r + 1) * size] for r in range(size)])


def _total(kingdom: Kingdom) -> int:
    return score_kingdom(kingdom, BOTH, check=False).total


@settings(max_examples=150, deadline=None)
@given(kingdoms(), st.integers(0, 3), st.booleans())
def test_rotating_or_mirroring_never_changes_the_score(kingdom, turns, mirror):
    turned = kingdom
    for _ in range(turns):
        turned = turned.rotated()
    if mirror:
        turned = turned.mirrored()
    assert _total(turned) == _total(kingdom)


@settings(max_examples=150, deadline=None)
@given(kingdoms(), st.data())
def test_splitting_a_property_never_raises_the_score(kingdom, data):
    # Recolour one square of a property of 2+ squares to a terrain none of its neighbours has:
    # it leaves the property (which may fall apart) and becomes a property of its own.
    big = [p for p in find_properties(kingdom) if p.squares >= 2]
    if not big:
        return
    prop = data.draw(st.sampled_from(big))
    position = data.draw(st.sampled_from(prop.positions))
    around = {kingdom[n].terrain for n in kingdom.neighbours(position)} | {prop.terrain}
    terrain = next(t for t in TILES if t not in around)
    split = kingdom.with_square(position, Square(terrain, kingdom[position].crowns))
    assert _total(split) <= _total(kingdom)


@settings(max_examples=100, deadline=None)
@given(kingdoms(), st.data())
def test_removing_a_square_never_raises_the_property_points(kingdom, data):
    tiles = [p for p, s in kingdom.squares() if s.terrain.scores]
    if not tiles:
        return
    position = data.draw(st.sampled_from(tiles))
    emptied = kingdom.with_square(position, Square(Terrain.EMPTY))
    assert score_kingdom(emptied, check=False).total <= score_kingdom(kingdom, check=False).total


def test_sample_game_scores_as_its_comment_says():
    game = read_game(PROJECT / "sample_images" / "two-player-game.kingdom")
    assert [score_kingdom(k, game.rules).total for k in game.kingdoms] == [67, 67]
