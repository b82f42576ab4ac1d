"""The scoring engine: pure functions from a Kingdom and GameRules to a KingdomScore.

Properties score `squares x crowns` (rules.md section 1). Every other point is a
ScoreLine produced by one of the functions in SCORE_RULES, the single extension
point: an expansion appends a function `(kingdom, rules, properties) -> list[ScoreLine]`
that returns its lines (empty when it does not apply) and score_kingdom adds them up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .kingdom import Kingdom, Position, Terrain, square_name
from .rules import GameRules
from .expansions.rule import score_rule as expansion_rule
from .scoreline import ScoreLine


@dataclass(frozen=True)
class Property:
    """A maximal edge-connected group of squares of one scoring terrain.

    crowns are the counted crowns (printed crowns minus those under giants).
    """

    terrain: Terrain
    positions: tuple[Position, ...]
    crowns: int

    @property
    def squares(self) -> int:
        return len(self.positions)

    @property
    def points(self) -> int:
        return self.squares * self.crowns


def find_properties(kingdom: Kingdom) -> list[Property]:
    """All properties, in reading order of their first square (castle and empty squares in none)."""
    seen: set[Position] = set()
    found = []
    for start, square in kingdom.squares():
        if start in seen or not square.terrain.scores:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            position = todo.pop()
            group.append(position)
            for n in kingdom.neighbours(position):
                if n not in seen and kingdom[n].terrain is square.terrain:
                    seen.add(n)
                    todo.append(n)
        group.sort()
        found.append(Property(square.terrain, tuple(group), sum(kingdom[p].counted_crowns for p in group)))
    return found


ScoreRule = Callable[[Kingdom, GameRules, list[Property]], list[ScoreLine]]


def is_full(kingdom: Kingdom) -> bool:
    return all(s.terrain is not Terrain.EMPTY for _, s in kingdom.squares())


def empty_edges(kingdom: Kingdom) -> list[str]:
    """Edge rows/columns of the grid that hold no square at all ('top row', ...)."""
    n = kingdom.size
    edges = {
        "top row": [(0, c) for c in range(n)],
        "bottom row": [(n - 1, c) for c in range(n)],
        "left column": [(r, 0) for r in range(n)],
        "right column": [(r, n - 1) for r in range(n)],
    }
    return [name for name, cells in edges.items() if all(kingdom[p].terrain is Terrain.EMPTY for p in cells)]


def frame_given(kingdom: Kingdom) -> bool:
    """The grid is the frame: it spans the frame, or the file says `frame: given`."""
    return kingdom.extras.get("frame", "").strip().lower() == "given" or not empty_edges(kingdom)


def middle_kingdom(kingdom: Kingdom, rules: GameRules, properties: list[Property]) -> list[ScoreLine]:
    """+10 if the castle is on the centre square of the frame.

    rules.md's reading: the squares span the full frame (no empty edge row or
    column, unless the file gives the frame) and the only castle is on its centre.
    """
    if "middle-kingdom" not in rules.variants:
        return []
    centre = (kingdom.size // 2, kingdom.size // 2)
    if kingdom.castles() == [centre] and frame_given(kingdom):
        return [ScoreLine("bonus", "middle-kingdom", 10, f"castle on the centre square ({square_name(centre)})")]
    return []


def harmony(kingdom: Kingdom, rules: GameRules, properties: list[Property]) -> list[ScoreLine]:
    """+5 if no domino was discarded, i.e. the frame holds no empty square."""
    if "harmony" not in rules.variants or not is_full(kingdom):
        return []
    n = kingdom.size
    return [ScoreLine("bonus", "harmony", 5, f"no empty square: the {n}x{n} frame is full")]


#: The extension point: every function here is asked for its score lines.
#: expansion_rule: giants, quests, coins, buildings, queen, totems, cavemen (kscore.expansions).
SCORE_RULES: list[ScoreRule] = [middle_kingdom, harmony, expansion_rule]


@dataclass(frozen=True)
class KingdomScore:
    kingdom: Kingdom
    rules: GameRules
    properties: tuple[Property, ...]
    lines: tuple[ScoreLine, ...]
    warnings: tuple[str, ...] = field(default=())

    @property
    def property_points(self) -> int:
        return sum(p.points for p in self.properties)

    @property
    def total(self) -> int:
        return self.property_points + sum(line.points for line in self.lines)

    @property
    def largest_property(self) -> int:
        """Squares in the largest property, crowned or not (first tiebreak)."""
        return max((p.squares for p in self.properties), default=0)

    @property
    def crowns(self) -> int:
        """Counted crowns in the whole kingdom (second tiebreak)."""
        return sum(p.crowns for p in self.properties)


def score_kingdom(kingdom: Kingdom, rules: GameRules | None = None, check: bool = True) -> KingdomScore:
    """Score one kingdom: properties, then every SCORE_RULES line; warnings from plausibility.

    Warnings never change the score. check=False skips the plausibility checks
    (e.g. in tight loops that only need points).
    """
    rules = rules or GameRules()
    properties = find_properties(kingdom)
    lines = [line for rule in SCORE_RULES for line in rule(kingdom, rules, properties)]
    warnings: tuple[str, ...] = ()
    if check:
        from .plausibility import check_kingdom  # plausibility imports this module

        warnings = tuple(check_kingdom(kingdom, rules))
    return KingdomScore(kingdom, rules, tuple(properties), tuple(lines), warnings)
