"""Where expansions plug into the core: the games, variants, quests and rules they add.

The core (textformat, scoring, the command line) reads only this module; it never
names an expansion. kscore/game/expansions/__init__.py fills it when the
kscore.game package is imported, so every reader sees it full. To add a game or a
variant, register it from its own module in kscore/game/expansions/.

>>> from kscore.game import registry
>>> "harmony" in registry.VARIANTS and "totem" in registry.VARIANTS
True
>>> sorted(registry.GAMES)
['kingdomino', 'origins', 'queendomino']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from kscore.game.kingdom import Kingdom
from kscore.game.properties import Property
from kscore.game.rules import BASE_VARIANTS, GameRules
from kscore.game.scoreline import ScoreLine

#: A score rule: (kingdom, rules, its properties) -> the lines it adds (empty when it does not apply).
ScoreRule = Callable[[Kingdom, GameRules, list[Property]], list[ScoreLine]]


@dataclass(frozen=True)
class Expansion:
    """What one expansion hands the core; every field may be left empty.

    games: game name -> its spec (letters, extras keys, crown word, giants, tile set);
    check_rules / check_kingdom raise an ExpansionError subclass (a ValueError) on
    what scoring would reject, so the parser can point at the line.
    """

    name: str
    games: Mapping[str, Any] = field(default_factory=dict)
    variants: Mapping[str, str] = field(default_factory=dict)
    quests: Mapping[str, str] = field(default_factory=dict)
    kingdom_keys: Mapping[str, str] = field(default_factory=dict)
    check_rules: Callable[[GameRules], None] | None = None
    check_kingdom: Callable[[Kingdom, GameRules], None] | None = None
    score_rule: ScoreRule | None = None


#: Filled by register(); read by the core.
EXPANSIONS: list[Expansion] = []
GAMES: dict[str, Any] = {}
VARIANTS: dict[str, str] = dict(BASE_VARIANTS)  # name -> what it scores
QUESTS: dict[str, str] = {}  # slug -> "title, N points"
KINGDOM_KEYS: dict[str, str] = {}  # per-kingdom `key: value` lines -> meaning


def register(expansion: Expansion) -> None:
    """Add an expansion's games, variants, quests, keys and rules (once per name)."""
    if any(e.name == expansion.name for e in EXPANSIONS):
        return
    EXPANSIONS.append(expansion)
    GAMES.update(expansion.games)
    VARIANTS.update(expansion.variants)
    QUESTS.update(expansion.quests)
    KINGDOM_KEYS.update(expansion.kingdom_keys)


def check_rules(rules: GameRules) -> None:
    """Every expansion's header-level checks (raises its ExpansionError)."""
    for expansion in EXPANSIONS:
        if expansion.check_rules:
            expansion.check_rules(rules)


def check_kingdom(kingdom: Kingdom, rules: GameRules) -> None:
    """Every expansion's per-kingdom checks (raises its ExpansionError)."""
    for expansion in EXPANSIONS:
        if expansion.check_kingdom:
            expansion.check_kingdom(kingdom, rules)


def score_rules() -> list[ScoreRule]:
    """The expansions' score rules, in registration order."""
    return [e.score_rule for e in EXPANSIONS if e.score_rule]
