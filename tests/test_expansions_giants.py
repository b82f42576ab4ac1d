"""Age of Giants giants: what they cost, and that they never raise a score (Bleak King aside)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expansions_grid import grid
from kscore.game.expansions.errors import GiantsError
from kscore.game.expansions.giants import check_giants, giant_costs, giants_lines
from kscore.game.expansions.quests import QUESTS, quest_line
from kscore.game.expansions.territories import find_territories
from kscore.game.kingdom import BASE_TERRAINS, Kingdom, Square, Terrain
from kscore.game.rules import GameRules
from kscore.game.scoring import score_kingdom


def test_worked_example_cost_per_property():
    kingdom = grid(
        """
        M3g1 M2g1 W  W  W
        M    M    W1 W  W
        S    S    C  F1 F
        S    S    S  F  F
        L    L    L  L  L
        """
    )
    costs = giant_costs(kingdom)
    assert len(costs) == 1  # only the mine property carries giants
    mine = costs[0]
    # 4 mine squares, 5 crowns printed, 2 under giants: 4 x 5 = 20 without, 4 x 3 = 12 with, cost 8
    assert (mine.territory.size, mine.territory.crowns, mine.territory.counted_crowns) == (4, 5, 3)
    assert (mine.without_giants, mine.with_giants, mine.cost) == (20, 12, 8)
    [line] = giants_lines(kingdom)
    assert line.kind == "giants" and line.points == 0  # information: the property line already counts 12
    assert "4 x 5 = 20" in line.reason and "4 x 3 = 12" in line.reason and "cost 8" in line.reason


def test_giant_on_a_lone_crown_cancels_the_property():
    kingdom = grid("W1g W F F F\nW W F F F\nL L C L L\nL L L L L\nL L L L L")
    [cost] = giant_costs(kingdom)
    # wheat: 4 squares x 1 crown = 4 without, 4 x 0 = 0 with: cost 4
    assert (cost.without_giants, cost.with_giants, cost.cost) == (4, 0, 4)


def test_no_giants_no_lines():
    assert giants_lines(grid("W1 W F F F\nW W F F F\nL L C L L\nL L L L L\nL L L L L")) == []


def test_more_giants_than_crowns_is_an_error():
    bad = Kingdom.from_rows("k", [[Square(Terrain.MINE, 1, 2)] * 5] * 5)
    with pytest.raises(GiantsError, match="row 1, column 1 has 2 giants but 1 crown"):
        check_giants(bad)


# A random kingdom: any terrains, crowns 0-3, giants between 0 and the crowns.
square = st.builds(
    lambda terrain, crowns, share: Square(terrain, crowns, round(crowns * share)),
    st.sampled_from(BASE_TERRAINS + (Terrain.CASTLE, Terrain.EMPTY)),
    st.integers(0, 3),
    st.floats(0, 1),
).map(lambda s: s if s.terrain.scores else Square(s.terrain))
kingdoms = st.lists(st.lists(square, min_size=5, max_size=5), min_size=5, max_size=5).map(
    lambda rows: Kingdom.from_rows("k", rows)
)


def without_giants(kingdom: Kingdom) -> Kingdom:
    return Kingdom.from_rows(kingdom.name, [[Square(s.terrain, s.crowns) for s in row] for row in kingdom.rows])


@settings(max_examples=150, deadline=None)
@given(kingdoms)
def test_giants_never_raise_a_score(kingdom):
    bare = without_giants(kingdom)
    property_points = sum(t.score for t in find_territories(kingdom))
    bare_points = sum(t.score for t in find_territories(bare))
    assert property_points <= bare_points
    assert bare_points - property_points == sum(c.cost for c in giant_costs(kingdom))
    for slug in QUESTS:
        if slug == "bleak-king":
            continue  # the documented exception, below
        assert quest_line(kingdom, slug).points <= quest_line(bare, slug).points, slug


@settings(max_examples=80, deadline=None)
@given(kingdoms)
def test_giants_never_raise_the_total_score(kingdom):
    # The whole engine: properties + every quest but Bleak King (+ the 0-point giants lines).
    rules = GameRules(quests=tuple(slug for slug in QUESTS if slug != "bleak-king"), use_tileset=False)
    with_giants = score_kingdom(kingdom, rules, check=False).total
    assert with_giants <= score_kingdom(without_giants(kingdom), rules, check=False).total


def test_bleak_king_is_the_one_quest_giants_can_earn():
    # tiles.md: "no uncovered crown". A giant covering the only crown of a
    # 5-square wheat property makes it bleak: 0 -> 10 points.
    covered = grid("W1g W W S S\nW W S S S\nS S C S S\nS S S S S\nS S S S S")
    assert quest_line(covered, "bleak-king").points == 10
    assert quest_line(without_giants(covered), "bleak-king").points == 0


def test_reasons_count_in_words_a_person_would_write():
    """'1 crown under a giant', never '1 giants'; quests say '1 alignment', never 'alignment(s)'."""
    kingdom = grid(
        """
        M3g1 M2  W  W  W
        M    M    W1 W  W
        S    S    C  F1 F
        S    S    S  F  F
        L    L    L  L  L
        """
    )
    [line] = giants_lines(kingdom)
    assert "with 1 crown under a giant: the giants cost 4" in line.reason
    assert "(s)" not in line.reason and "1 giants" not in line.reason
    folie = quest_line(grid("M1 M1 M1 W W\nW W W W W\nW W C W W\nW W W W W\nW W W W W"), "folie-des-grandeurs")
    assert folie.reason.startswith("Folie des Grandeurs: 1 alignment of three crowned squares")
