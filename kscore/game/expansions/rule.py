"""Where the expansions plug into the core: parse-time checks and the score rule.

Registered in kscore.game.registry by the package's __init__:
- textformat calls the registry's `check_rules` once the header is read and
  `check_kingdom` on every kingdom, turning the ValueErrors into file:line messages.
- scoring asks the registry's score rules, i.e. `score_rule`, for every expansion line.
"""

from __future__ import annotations

from typing import Iterable

from kscore.game.kingdom import Kingdom
from kscore.game.rules import GameRules
from kscore.game.scoreline import ScoreLine
from kscore.game.expansions import origins, queendomino
from kscore.game.expansions.errors import GameError
from kscore.game.expansions.games import check_extras, expansion_lines, get_game
from kscore.game.expansions.games import check_kingdom as check_grid

def origins_mode(variants: Iterable[str]) -> str | None:
    modes = [m for m in origins.MODES if m in set(variants)]
    return modes[0] if modes else None


def check_rules(rules: GameRules) -> None:
    """Header-level combinations the games do not allow (raises GameError)."""
    spec = get_game(rules.game)
    problem = None
    modes = [m for m in origins.MODES if m in rules.variants]
    twice = sorted({q for q in rules.quests if rules.quests.count(q) > 1})
    if twice:
        problem = GameError(f"quest named twice: {', '.join(twice)} (each quest tile exists once)")
        problem.key = "quests"
    elif rules.quests and not spec.giants:
        problem = GameError(f"quests belong to Age of Giants, which kscore does not combine with {spec.name}")
        problem.key = "quests"
    elif modes and spec.name != "origins":
        problem = GameError(f"{modes[0]} is a Kingdomino Origins mode: set `game: origins`")
        problem.key = "variants"
    elif len(modes) > 1:
        problem = GameError("an Origins game is played in one mode: totem or tribe, not both")
        problem.key = "variants"
    if problem:
        raise problem


def check_kingdom(kingdom: Kingdom, rules: GameRules) -> None:
    """Everything about one kingdom that scoring would reject, raised early (ExpansionError subclasses).

    ExtrasError.key names the line at fault.
    """
    game = get_game(rules.game).name
    check_grid(kingdom, game)
    check_extras(kingdom, game)
    if game == "queendomino":
        queendomino.parse_extras(kingdom.extras)
    elif game == "origins":
        extras = origins.parse_extras(kingdom.extras, kingdom.size, origins_mode(rules.variants))
        if extras.mode == "tribe":
            origins.tribe_lines(kingdom, extras)  # cavemen on empty squares


def score_rule(kingdom: Kingdom, rules: GameRules, properties) -> list[ScoreLine]:
    """The registered score rule: giants, quests, coins, buildings, queen, totems, cavemen."""
    return expansion_lines(kingdom, rules.game, rules.quests, origins_mode(rules.variants))
