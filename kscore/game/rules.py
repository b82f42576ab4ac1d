"""What game is played: the rules a file or the command line sets for every kingdom in it.

GameRules is the one object the scoring engine, plausibility checks and ranking
read to know which variants, quests and tile box are in play. A Game is what a
kingdom file holds: those rules plus the players' kingdoms.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from kscore.game.kingdom import Kingdom

#: The base game's variants (rules.md section 2), scored by kscore.game.scoring. Mighty
#: Duel needs no flag (7x7 is inferred from the grid) and Dynasty is the `kscore dynasty`
#: command. The expansions add theirs (the Origins modes) in kscore.game.registry.VARIANTS.
BASE_VARIANTS: dict[str, str] = {
    "middle-kingdom": "+10 if the castle is on the centre square of the full frame",
    "harmony": "+5 if the frame is full (no empty square)",
}


@dataclass(frozen=True)
class GameRules:
    game: str = "kingdomino"
    variants: frozenset[str] = frozenset()
    quests: tuple[str, ...] = ()
    tileset: str = "kingdomino"  # a key of kscore.game.tileset.TILESETS
    use_tileset: bool = True  # False: skip the plausibility checks against the box

    def with_variants(self, *names: str) -> "GameRules":
        return replace(self, variants=self.variants | frozenset(names))


@dataclass(frozen=True)
class Game:
    """One game: its rules and its players' kingdoms, as read from one file.

    header keeps the file's header lines as written (key -> value) so a later
    stage can read keys it owns; source names the file for messages.
    """

    rules: GameRules
    kingdoms: tuple[Kingdom, ...]
    source: str = "<text>"
    header: Mapping[str, str] = field(default_factory=dict)
