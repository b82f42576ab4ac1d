"""Kingdomino Origins: letters, fires, volcanoes, Totem and Tribe modes, with the arithmetic."""

from __future__ import annotations

import pytest

from expansions_grid import grid
from kscore.game.expansions.errors import ExtrasError, GameError
from kscore.game.expansions.origins import origins_lines, parse_extras, warrior_groups
from kscore.game.expansions.territories import find_territories
from kscore.game.kingdom import Terrain

ORIGINS = """
J2 J  Q  Q1 D
J  V  Q  D  D1
G  G  C  L  L
G1 G  V  L  L
J  J  J  L1 V
"""


def kingdom(extras=None):
    return grid(ORIGINS, "origins", extras)


def test_letters_and_fires_as_crowns():
    k = kingdom()
    assert k[(0, 0)].terrain is Terrain.JUNGLE and k[(0, 2)].terrain is Terrain.QUARRY
    assert k[(0, 4)].terrain is Terrain.DESERT and k[(1, 1)].terrain is Terrain.VOLCANO
    scores = {(t.terrain, t.squares[0]): t.score for t in find_territories(k)}
    # jungle top-left: 3 squares x 2 fires = 6; quarry: 3 x 1 = 3; desert: 3 x 1 = 3;
    # grassland 4 x 1 = 4; lake 5 x 1 = 5; jungle bottom 3 x 0 = 0
    assert scores[(Terrain.JUNGLE, (0, 0))] == 6
    assert scores[(Terrain.QUARRY, (0, 2))] == 3
    assert scores[(Terrain.DESERT, (0, 4))] == 3
    assert scores[(Terrain.GRASSLAND, (2, 0))] == 4
    assert scores[(Terrain.LAKE, (2, 3))] == 5
    assert scores[(Terrain.JUNGLE, (4, 0))] == 0
    assert all(t.terrain is not Terrain.VOLCANO for t in find_territories(k))  # volcanoes never score


def test_base_letters_are_not_origins_letters():
    with pytest.raises(GameError, match="'W' is not a origins letter.*wheat in kingdomino"):
        grid("W J J J J\n" * 5, "origins")


def test_totem_mode_worked_example():
    lines = origins_lines(kingdom({"resources": "7", "totems": "mammoth, flint"}))
    # 7 resources x 1 + mammoth 3 + flint 6 = 16
    assert [(l.kind, l.points) for l in lines] == [("resources", 7), ("totem", 3), ("totem", 6)]
    assert sum(l.points for l in lines) == 16


def test_totem_points_per_tile():
    lines = origins_lines(kingdom({"totems": "fish, mushroom"}))
    assert [l.points for l in lines] == [0, 4, 5]  # no resources line value, fish 4, mushroom 5


def test_tribe_mode_hunter_counts_its_eight_neighbours():
    # hunter on the lake at row 4, column 4; rows 3-5, columns 3-5 read
    # C L L / V [L] L / J L1 V: 4 lake neighbours x 1 = 4 (its own square does not count)
    [line] = origins_lines(kingdom({"cavemen": "hunter:lake@4,4"}))
    assert line.points == 4 and line.kind == "caveman"
    # on a corner (row 1, column 1) only 3 neighbours exist: J (1,2), J (2,1), V (2,2) -> 2 jungle
    [corner] = origins_lines(kingdom({"cavemen": "gatherer:jungle@1,1"}))
    assert corner.points == 2


def test_tribe_mode_warriors_score_as_edge_joined_groups():
    lines = origins_lines(kingdom({"cavemen": "warrior:2@1,1; warrior:3@1,2; warrior:1@3,3"}))
    # (1,1)+(1,2) side by side: 2 x (2 + 3) = 10; (3,3) alone: 1 x 1 = 1
    assert [l.points for l in lines] == [10, 1]
    diagonal = origins_lines(kingdom({"cavemen": "warrior:2@1,1; warrior:3@2,2"}))
    # diagonal does not join: 1 x 2 + 1 x 3
    assert [l.points for l in diagonal] == [2, 3]


def test_warrior_groups_follow_chains():
    extras = parse_extras({"cavemen": "warrior:1@1,1; warrior:1@1,2; warrior:1@2,2; warrior:1@5,5"}, 5)
    assert [len(g) for g in warrior_groups(extras.cavemen)] == [3, 1]


def test_no_mode_lines_no_points():
    assert origins_lines(kingdom()) == []


@pytest.mark.parametrize(
    "extras,mode,message",
    [
        ({"resources": "3", "cavemen": "warrior:1@1,1"}, None, "Tribe mode line in a kingdom with Totem"),
        ({"cavemen": "warrior:1@1,1"}, "totem", "the game is in Totem mode"),
        ({"totems": "fish"}, "tribe", "the game is in Tribe mode"),
        ({"totems": "fish, fish"}, None, "named twice"),
        ({"totems": "sabre"}, None, "unknown totem 'sabre'"),
        ({"resources": "x"}, None, "expected a whole number"),
        ({"cavemen": "warrior:1@6,1"}, None, "outside the 5x5 frame"),
        ({"cavemen": "warrior:1@1,1; hunter:lake@1,1"}, None, "two cavemen on row 1, column 1"),
        ({"cavemen": "hunter:wheat@1,1"}, None, "'wheat' is not an Origins terrain"),
        ({"cavemen": "shaman@1,1"}, None, "cannot read 'shaman@1,1'"),
        ({"cavemen": "warrior:0@1,1"}, None, "value is 1 or more"),
    ],
)
def test_extras_errors(extras, mode, message):
    with pytest.raises(ExtrasError, match=message):
        origins_lines(kingdom(extras), mode)


def test_caveman_on_an_empty_square_is_an_error():
    k = grid(ORIGINS.replace("J2", "."), "origins", {"cavemen": "warrior:1@1,1"})
    with pytest.raises(ExtrasError, match="empty square row 1, column 1"):
        origins_lines(k)
