"""The scoring engine: pure functions from a Kingdom and GameRules to a KingdomScore.

Properties score `squares x crowns` (rules.md section 1, kscore.game.properties).
Every other point is a ScoreLine from a score rule: the base game's in SCORE_RULES,
then each registered expansion's (kscore.game.registry), a function
`(kingdom, rules, properties) -> list[ScoreLine]` that returns its lines (empty
when it does not apply); score_kingdom adds them up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kscore.game import registry
from kscore.game.kingdom import Kingdom, Terrain, square_name
from kscore.game.plausibility import check_kingdom
from kscore.game.properties import Property, empty_edges, find_properties, frame_given, is_full
from kscore.game.registry import ScoreRule
from kscore.game.rules import GameRules
from kscore.game.scoreline import ScoreLine, count

__all__ = ["KingdomScore", "Property", "empty_edges", "find_properties", "frame_given", "is_full", "score_kingdom"]


def middle_kingdom(kingdom: Kingdom, rules: GameRules, properties: list[Property]) -> list[ScoreLine]:
    """+10 if the castle is on the centre square of the frame; +0 with the reason when in play and missed.

    rules.md's reading: the squares span the full frame (no empty edge row or
    column, unless the file gives the frame) and the only castle is on its centre.
    """
    if "middle-kingdom" not in rules.variants:
        return []
    centre = (kingdom.size // 2, kingdom.size // 2)
    castles = kingdom.castles()
    if castles == [centre] and frame_given(kingdom):
        return [ScoreLine("bonus", "middle-kingdom", 10, f"castle on the centre square ({square_name(centre)})")]
    if not castles:
        why = "no castle in the kingdom"
    elif len(castles) > 1:
        why = f"{len(castles)} castles, at " + "; ".join(square_name(p) for p in castles)
    elif castles != [centre]:
        why = f"castle at {square_name(castles[0])}, not on the centre square"
    else:
        why = (f"the frame is not determined (empty {', '.join(empty_edges(kingdom))}); "
               "write `frame: given` in the kingdom's section if this grid is its frame")
    return [ScoreLine("bonus", "middle-kingdom", 0, why)]


def harmony(kingdom: Kingdom, rules: GameRules, properties: list[Property]) -> list[ScoreLine]:
    """+5 if no domino was discarded, i.e. the frame holds no empty square; +0 with the reason when missed."""
    if "harmony" not in rules.variants:
        return []
    n = kingdom.size
    if is_full(kingdom):
        return [ScoreLine("bonus", "harmony", 5, f"no empty square: the {n}x{n} frame is full")]
    empty = [p for p, s in kingdom.squares() if s.terrain is Terrain.EMPTY]
    return [ScoreLine("bonus", "harmony", 0, f"{count(len(empty), 'empty square')}, first at {square_name(empty[0])}")]


#: The base game's rules; the expansions' (giants, quests, coins, buildings, queen,
#: totems, cavemen) come after them from kscore.game.registry.
SCORE_RULES: list[ScoreRule] = [middle_kingdom, harmony]


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
    lines = [line for rule in (*SCORE_RULES, *registry.score_rules()) for line in rule(kingdom, rules, properties)]
    warnings = tuple(check_kingdom(kingdom, rules)) if check else ()
    return KingdomScore(kingdom, rules, tuple(properties), tuple(lines), warnings)
