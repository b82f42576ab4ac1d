"""Expansions and sister games: Age of Giants, Queendomino, Kingdomino Origins.

Pure rule modules. Each takes a `kscore.game.kingdom.Kingdom` (plus what was read
from the file's header) and returns `kscore.game.scoreline.ScoreLine`s; none of them
reads files. Property (territory) scoring itself stays in the core engine,
which already counts `Square.counted_crowns` (crowns not under a giant) and
never scores volcano squares. What these modules add is every other point:

- giants.py      what the giants cost, per property (information lines, 0 points)
- quests.py      the 17 Age of Giants quests
- queendomino.py coins, buildings, the queen, the Queendomino tiebreak
- origins.py     Totem mode (resources, totems) and Tribe mode (cavemen)
- games.py       the three games: letters, extras keys, one entry point
- rule.py        what the core calls: parse-time checks and the score rule
- territories.py properties with printed and counted crowns (grouping from properties.py)

Errors are ValueError subclasses (errors.py) with a message a player can act
on; ExtrasError also names the offending key so a parser can point at its line.

They plug into the core through kscore.game.registry: importing this package
registers them (kscore/game/__init__.py does so), and the core reads only the
registry, never these modules.
"""

from kscore.game import registry
from kscore.game.expansions import rule
from kscore.game.expansions.errors import ExpansionError, ExtrasError, GameError, GiantsError, QuestError
from kscore.game.expansions.games import GAMES, KINGDOM_KEYS, VARIANTS
from kscore.game.expansions.quests import QUESTS

registry.register(registry.Expansion(
    name="kingdomino family",  # the three games with Age of Giants, as games.py combines them
    games=GAMES,
    variants=VARIANTS,
    quests={slug: f"{q.title}, {q.points} points" for slug, q in QUESTS.items()},
    kingdom_keys=KINGDOM_KEYS,
    check_rules=rule.check_rules,
    check_kingdom=rule.check_kingdom,
    score_rule=rule.score_rule,
))

__all__ = ["ExpansionError", "ExtrasError", "GameError", "GiantsError", "QuestError"]
