"""Expansions and sister games: Age of Giants, Queendomino, Kingdomino Origins.

Pure rule modules. Each takes a `kscore.kingdom.Kingdom` (plus what was read
from the file's header) and returns `kscore.scoreline.ScoreLine`s; none of them
reads files. Property (territory) scoring itself stays in the core engine,
which already counts `Square.counted_crowns` (crowns not under a giant) and
never scores volcano squares. What these modules add is every other point:

- giants.py      what the giants cost, per property (information lines, 0 points)
- quests.py      the 17 Age of Giants quests
- queendomino.py coins, buildings, the queen, the Queendomino tiebreak
- origins.py     Totem mode (resources, totems) and Tribe mode (cavemen)
- games.py       the three games: letters, extras keys, one entry point
- rule.py        what the core calls: parse-time checks and scoring's SCORE_RULES entry
- territories.py properties with printed and counted crowns (grouping from scoring.py)

Errors are ValueError subclasses (errors.py) with a message a player can act
on; ExtrasError also names the offending key so a parser can point at its line.
"""

from .errors import ExpansionError, ExtrasError, GameError, GiantsError, QuestError

__all__ = ["ExpansionError", "ExtrasError", "GameError", "GiantsError", "QuestError"]
