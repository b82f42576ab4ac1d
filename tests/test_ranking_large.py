"""Ranking thousands of kingdoms (issue 16): the same places and tiebreaks as the definition,
details that name a few of the others, not all of them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kscore.game.ranking import LISTED, POINTS, SHARED, _rank

LEVELS = (POINTS, "largest property", "most crowns")


def by_definition(keys):
    """Places and tiebreaks straight from rules.md, comparing every pair (quadratic)."""
    out = []
    for i, key in enumerate(keys):
        place = 1 + sum(1 for k in keys if k > key)
        tied = [j for j in range(len(keys)) if j != i and keys[j][0] == key[0]]
        tiebreak = POINTS if not tied else SHARED
        for level in range(1, len(LEVELS)):
            if not tied:
                break
            same = [j for j in tied if keys[j][level] == key[level]]
            if not same:
                tiebreak = LEVELS[level]
                break
            tied = same
        out.append((place, f"p{i}", tiebreak))
    return sorted(out, key=lambda p: p[0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=30))
def test_places_and_tiebreaks_follow_the_definition(keys):
    places = _rank([f"p{i}" for i in range(len(keys))], keys, LEVELS)
    assert [(p.place, p.name, p.tiebreak) for p in places] == by_definition(keys)


def test_few_ties_still_name_everyone_and_their_values():
    places = _rank(["A", "B", "C"], [(10, 5, 1), (10, 4, 1), (10, 5, 2)], LEVELS)
    detail = {p.name: p.detail for p in places}
    assert detail["A"] == "tied on 10 points with B, C; largest property 5 vs 4, 5; most crowns 1 vs 2"
    assert detail["B"] == "tied on 10 points with A, C; largest property 4 vs 5, 5"


def test_a_tie_of_thousands_names_a_few_and_a_range():
    keys = [(50, i % 7, i % 3) for i in range(5000)]
    places = _rank([f"player {i}" for i in range(5000)], keys, LEVELS)
    first = next(p for p in places if p.name == "player 6")
    assert first.detail.startswith("tied on 50 points with player 0, player 1, player 2 and 4,996 others; "
                                   "largest property 6 vs 0-6 (4,999 others)")
    assert max(len(p.detail) for p in places) < 250
    assert {p.tiebreak for p in places} == {SHARED}
    assert len({p.place for p in places}) == 21  # 7 x 3 distinct keys
    assert LISTED == 3
