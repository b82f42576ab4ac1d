"""Age of Giants quests: each of the 17 met and just missed, with the arithmetic."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expansions_grid import grid
from kscore.game.expansions.errors import QuestError
from kscore.game.expansions.quests import QUESTS, best_starts, lines, max_alignments, parse_quests, quest_line
from kscore.game.kingdom import BASE_TERRAINS, Kingdom, Square, Terrain

LETTER = {"wheat": "W", "grassland": "G", "forest": "F", "lake": "L", "swamp": "S", "mine": "M"}

# A full 5x5 kingdom, castle in the centre, no crowns; tests change a few squares.
PLAIN = """
W G W G W
G W G W G
W G C G W
G W G W G
W G W G W
"""


def points(kingdom: Kingdom, slug: str) -> int:
    return quest_line(kingdom, slug).points


def put(kingdom: Kingdom, changes: dict[tuple[int, int], str]) -> Kingdom:
    for position, token in changes.items():
        kingdom = kingdom.with_square(position, grid(token).rows[0][0])
    return kingdom


def test_all_17_quests_known():
    # 3 single quests + 6 Four Corners + 6 Local Business + Bleak King + Folie des Grandeurs
    assert len(QUESTS) == 17
    assert {"harmony", "middle-kingdom", "lost-corner", "bleak-king", "folie-des-grandeurs"} <= set(QUESTS)
    for t in BASE_TERRAINS:
        assert f"four-corners-{t.value}" in QUESTS and f"local-business-{t.value}" in QUESTS


# ------------------------------------------------------------- castle quests


def test_harmony_met_and_just_missed():
    full = grid(PLAIN)
    assert points(full, "harmony") == 5  # no empty square: 5
    assert points(put(full, {(4, 4): "."}), "harmony") == 0  # one empty square: 0


def test_middle_kingdom_met_and_just_missed():
    full = grid(PLAIN)
    assert points(full, "middle-kingdom") == 10  # castle at row 3, column 3 of 5x5
    moved = put(full, {(2, 2): "W", (2, 1): "C"})  # castle one square left of centre
    assert points(moved, "middle-kingdom") == 0


def test_middle_kingdom_needs_a_known_frame():
    # Castle on the grid's centre but the right column is empty: the frame could
    # sit one column further right, so (like the variant) no points unless given.
    open_edge = put(grid(PLAIN), {(r, 4): "." for r in range(5)})
    line = quest_line(open_edge, "middle-kingdom")
    assert line.points == 0 and "frame" in line.reason
    given_frame = Kingdom(open_edge.name, open_edge.rows, {"frame": "given"})
    assert points(given_frame, "middle-kingdom") == 10


def test_lost_corner_met_and_just_missed():
    full = grid(PLAIN)
    corner = put(full, {(2, 2): "W", (4, 0): "C"})
    assert points(corner, "lost-corner") == 20  # castle at row 5, column 1: a corner
    beside = put(full, {(2, 2): "W", (4, 1): "C"})  # one square from the corner
    assert points(beside, "lost-corner") == 0
    assert points(full, "lost-corner") == 0


def test_castle_quests_without_a_single_castle_score_zero():
    no_castle = put(grid(PLAIN), {(2, 2): "W"})
    for slug in ("middle-kingdom", "lost-corner", "local-business-wheat"):
        line = quest_line(no_castle, slug)
        assert line.points == 0 and "castle" in line.reason


@pytest.mark.parametrize("terrain", [t.value for t in BASE_TERRAINS])
def test_four_corners_each_terrain(terrain):
    letter = LETTER[terrain]
    other = "S" if letter != "S" else "W"
    base = grid("\n".join([" ".join([other] * 5)] * 5)).with_square((2, 2), Square(Terrain.CASTLE))
    corners = {(0, 0): letter, (0, 4): letter, (4, 0): letter, (4, 4): letter}
    slug = f"four-corners-{terrain}"
    assert points(put(base, corners), slug) == 20  # 4 corners x 5
    three = put(base, {**corners, (4, 4): other})
    assert points(three, slug) == 15  # 3 corners x 5
    # Just missed: the terrain sits right next to every corner, on none.
    beside = put(base, {(0, 1): letter, (1, 4): letter, (4, 1): letter, (3, 4): letter})
    assert points(beside, slug) == 0


@pytest.mark.parametrize("terrain", [t.value for t in BASE_TERRAINS])
def test_local_business_each_terrain(terrain):
    letter = LETTER[terrain]
    other = "S" if letter != "S" else "W"
    base = grid("\n".join([" ".join([other] * 5)] * 5)).with_square((2, 2), Square(Terrain.CASTLE))
    slug = f"local-business-{terrain}"
    # Castle at (2,2): its 8 neighbours include the diagonal (1,1) and the edge (2,3).
    met = put(base, {(1, 1): letter, (2, 3): letter, (3, 2): letter})
    assert points(met, slug) == 15  # 3 neighbours x 5
    ring = {(r, c): letter for r in range(1, 4) for c in range(1, 4) if (r, c) != (2, 2)}
    assert points(put(base, ring), slug) == 40  # all 8 neighbours x 5
    # Just missed: two squares away (outside the 3x3 around the castle).
    far = put(base, {(0, 0): letter, (0, 2): letter, (2, 4): letter, (4, 4): letter})
    assert points(far, slug) == 0


def test_local_business_castle_in_a_corner_has_three_neighbours():
    kingdom = put(grid(PLAIN), {(2, 2): "W", (0, 0): "C", (0, 1): "F", (1, 0): "F", (1, 1): "F"})
    assert points(kingdom, "local-business-forest") == 15  # 3 x 5, the most a corner castle can get


# --------------------------------------------------------------- Bleak King

BLEAK = """
{t} {t} {t} S S
{t} {t} S S S
S S C S S
S S S S S
S S S S S
"""


@pytest.mark.parametrize("terrain", ["wheat", "forest", "grassland", "lake"])
def test_bleak_king_each_terrain(terrain):
    letter = LETTER[terrain]
    five = grid(BLEAK.format(t=letter))  # a 5-square property, no crowns
    assert points(five, "bleak-king") == 10  # 1 property x 10
    four = put(five, {(1, 1): "S"})  # 4 squares: just too small
    assert points(four, "bleak-king") == 0
    crowned = put(five, {(0, 0): f"{letter}1"})  # one uncovered crown
    assert points(crowned, "bleak-king") == 0
    covered = put(five, {(0, 0): f"{letter}1g"})  # its crown under a giant: no uncovered crown
    assert points(covered, "bleak-king") == 10


def test_bleak_king_ignores_swamp_and_mine_and_counts_each_property():
    mine = grid(BLEAK.format(t="M"))  # the 5 squares are mine: not a bleak terrain
    assert points(mine, "bleak-king") == 0  # swamp property of 19 has no crown either: not counted
    two = grid(
        """
        W W W L L
        W W S L L
        S S C S L
        S S S S S
        S S S S S
        """
    )
    # wheat 5 squares + lake 5 squares, both without crowns: 2 x 10
    assert points(two, "bleak-king") == 20


# -------------------------------------------------------- Folie des Grandeurs


def crowned_set(size: int, cells) -> Kingdom:
    cells = set(cells)
    rows = [[Square(Terrain.MINE, 1) if (r, c) in cells else Square(Terrain.SWAMP) for c in range(size)] for r in range(size)]
    return Kingdom.from_rows("k", rows)


def brute_force_max(kingdom: Kingdom) -> int:
    """Independent check: every alignment in any direction, conflicts by shared squares,
    exact maximum independent set per connected component of the conflict graph."""
    n = kingdom.size
    crowned = {p for p, s in kingdom.squares() if s.counted_crowns > 0}
    alignments = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = frozenset((r + i * dr, c + i * dc) for i in range(3))
                if cells <= crowned:
                    alignments.append(cells)
    conflict = {i: {j for j in range(len(alignments)) if j != i and len(alignments[i] & alignments[j]) >= 2}
                for i in range(len(alignments))}
    seen, total = set(), 0
    for start in range(len(alignments)):
        if start in seen:
            continue
        component, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            component.append(i)
            for j in conflict[i] - seen:
                seen.add(j)
                todo.append(j)
        assert len(component) <= 16, "component too large for brute force"
        best = 0
        for k in range(len(component), 0, -1):
            if any(all(b not in conflict[a] for a, b in combinations(subset, 2)) for subset in combinations(component, k)):
                best = k
                break
        total += best
    return total


def assert_valid(kingdom: Kingdom, found) -> None:
    for a in found:
        (r0, c0), (r1, c1), (r2, c2) = a
        assert (r1 - r0, c1 - c0) == (r2 - r1, c2 - c1) and max(abs(r1 - r0), abs(c1 - c0)) == 1
        assert all(kingdom[p].counted_crowns > 0 for p in a)
    for a, b in combinations(found, 2):
        assert len(set(a) & set(b)) <= 1


def test_lines_of_a_5x5():
    # 5 rows + 5 columns + 5 diagonals of 3+ squares in each direction
    assert len(lines(5)) == 20
    assert sorted(len(line) for line in lines(5))[:4] == [3, 3, 3, 3]


@pytest.mark.parametrize("length,expected", [(3, 1), (4, 1), (5, 2), (6, 2), (7, 3)])
def test_folie_run_of_length_l_holds_floor_l_minus_1_over_2(length, expected):
    assert expected == (length - 1) // 2
    kingdom = crowned_set(7, [(3, c) for c in range(length)])  # a run along row 4
    assert len(max_alignments(kingdom)) == expected
    assert points(kingdom, "folie-des-grandeurs") == 10 * expected
    column = crowned_set(7, [(r, 6) for r in range(7 - length, 7)])
    assert len(max_alignments(column)) == expected
    diagonal = crowned_set(7, [(i, i) for i in range(length)])
    assert len(max_alignments(diagonal)) == expected


def test_folie_full_5x5_is_32():
    full = crowned_set(5, [(r, c) for r in range(5) for c in range(5)])
    found = max_alignments(full)
    # rows 5 x 2 + columns 5 x 2 + per diagonal direction (5-long: 2, two 4-long: 1+1, two 3-long: 1+1) x 2
    assert len(found) == 10 + 10 + 2 * 6 == 32
    assert brute_force_max(full) == 32
    assert_valid(full, found)
    assert points(full, "folie-des-grandeurs") == 320


def test_folie_3x3_block_is_8():
    block = crowned_set(5, [(r, c) for r in range(1, 4) for c in range(1, 4)])
    # 3 rows + 3 columns + 2 diagonals, each exactly 3 long: 8 alignments, 80 points
    assert len(max_alignments(block)) == 8 == brute_force_max(block)
    assert points(block, "folie-des-grandeurs") == 80


def test_folie_full_7x7_matches_brute_force():
    full = crowned_set(7, [(r, c) for r in range(7) for c in range(7)])
    # rows 7 x 3, columns 7 x 3, per direction 3 + 2*2 + 2*2 + 2*1 + 2*1 = 15 diagonals' worth
    assert len(max_alignments(full)) == 21 + 21 + 2 * 15 == brute_force_max(full)


def test_folie_just_missed():
    gap = crowned_set(5, [(0, 0), (0, 1), (0, 3), (0, 4), (2, 0), (3, 1)])  # no three in a row
    assert points(gap, "folie-des-grandeurs") == 0
    three = crowned_set(5, [(0, 0), (0, 1), (0, 2)])
    assert points(three, "folie-des-grandeurs") == 10
    # A giant on the middle crown uncrowns that square: the alignment is gone.
    covered = three.with_square((0, 1), Square(Terrain.MINE, 1, 1))
    assert points(covered, "folie-des-grandeurs") == 0
    # Two crowns, one giant: the square stays crowned.
    still = three.with_square((0, 1), Square(Terrain.MINE, 2, 1))
    assert points(still, "folie-des-grandeurs") == 10


def test_best_starts_is_exact_on_mixed_lines():
    # runs of 4 and 3 separated by a gap: 1 + 1
    assert best_starts([True, True, True, True, False, True, True, True]) == [0, 5]
    assert best_starts([True, True]) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=25, max_size=25))
def test_folie_equals_brute_force_on_random_kingdoms(bits):
    kingdom = crowned_set(5, [(i // 5, i % 5) for i, bit in enumerate(bits) if bit])
    found = max_alignments(kingdom)
    assert_valid(kingdom, found)
    assert len(found) == brute_force_max(kingdom)


# -------------------------------------------------------------------- parsing


def test_parse_quests():
    assert parse_quests("folie-des-grandeurs, Lost-Corner") == ("folie-des-grandeurs", "lost-corner")
    with pytest.raises(QuestError, match="did you mean lost-corner"):
        parse_quests("lost-corners")
    with pytest.raises(QuestError, match="twice"):
        parse_quests("harmony, harmony")


def test_quest_line_shows_the_arithmetic():
    line = quest_line(grid(PLAIN), "local-business-grassland")
    # Castle at the centre of PLAIN: its 4 edge neighbours are grassland, the 4 diagonal ones wheat.
    assert line.points == 20 and "(4 x 5 = 20)" in line.reason and line.kind == "quest"
