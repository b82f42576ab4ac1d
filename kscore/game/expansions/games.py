"""The three games kscore scores, and the one entry point the core calls.

    game: kingdomino   W G F L S M, C castle, . empty (Age of Giants: giants, quests)
    game: queendomino  the same plus V village (Age of Giants works here too)
    game: origins      G J L Q D V (volcano), C start tile, . empty; no giants or quests

A letter that belongs to another game is an error that names that game, e.g.
"V is village in queendomino" in a kingdomino file. Age of Giants is an
expansion of the Kingdomino family; kscore allows its giants and quests with
Queendomino too (same frame and crowns) but not in Origins, whose crowns are
fires.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from kscore.game.kingdom import BASE_LETTERS, Kingdom, Terrain
from kscore.game.scoreline import ScoreLine
from kscore.game.expansions import origins, queendomino
from kscore.game.expansions.errors import ExtrasError, GameError
from kscore.game.expansions.giants import check_giants, giants_lines, total_giants
from kscore.game.expansions.quests import quest_lines


@dataclass(frozen=True)
class Game:
    name: str
    letters: Mapping[str, Terrain]
    extras_keys: tuple[str, ...]
    crown_word: str  # "crown", or "fire" in Origins
    giants: bool  # Age of Giants giants and quests allowed
    tileset: str | None  # the tile set for the domino check, when kscore has one


GAMES: dict[str, Game] = {
    "kingdomino": Game("kingdomino", dict(BASE_LETTERS), (), "crown", True, "kingdomino"),
    "queendomino": Game(
        "queendomino", {**BASE_LETTERS, "V": Terrain.VILLAGE}, queendomino.EXTRAS_KEYS, "crown", True, "queendomino"
    ),
    # No Origins box list in tiles.md: no domino check for Origins.
    "origins": Game("origins", dict(origins.ORIGINS_LETTERS), origins.EXTRAS_KEYS, "fire", False, None),
}
DEFAULT_GAME = "kingdomino"

#: Variants (the `variants:` header, `--variant`) the expansions add: the Origins modes.
VARIANTS = {
    "totem": "Origins Totem mode: resources 1 point each, totem tiles 3/4/5/6",
    "tribe": "Origins Tribe mode: cavemen (hunter-gatherers, warrior groups)",
}

#: Per-kingdom keys the expansions read (textformat's KINGDOM_KEYS), with their meaning.
KINGDOM_KEYS = {
    "coins": "Queendomino: coins left, 1 point per 3",
    "knights": "Queendomino: knights owned, placed or in reserve (for 1x:knight buildings)",
    "towers": "Queendomino: towers in the kingdom (for 1x:tower buildings)",
    "queen": "Queendomino: yes if this player hosts the queen (+1 crown on the largest territory)",
    "buildings": "Queendomino: e.g. 5, 3, 2x:forest, 1x:tower, 1x:knight",
    "resources": "Origins Totem mode: resources left, 1 point each",
    "totems": "Origins Totem mode: totem tiles held, e.g. mammoth, flint",
    "cavemen": "Origins Tribe mode: e.g. hunter:lake@2,3; warrior:2@1,1",
}


def get_game(name: str) -> Game:
    key = name.strip().lower()
    if key not in GAMES:
        raise GameError(f"unknown game {name.strip()!r}: kscore knows {', '.join(GAMES)}")
    return GAMES[key]


def terrain_for_letter(letter: str, game: str) -> Terrain:
    """The terrain a grid letter stands for in this game, or a GameError saying where it belongs."""
    table = get_game(game).letters
    key = letter.upper()
    if key in table:
        return table[key]
    elsewhere = [f"{key} is {g.letters[key].value} in {g.name}" for g in GAMES.values() if key in g.letters]
    known = " ".join(table)
    if elsewhere:
        raise GameError(
            f"{key!r} is not a {game} letter ({'; '.join(elsewhere)}): set the header `game:` "
            f"or use one of {known}"
        )
    raise GameError(f"unknown letter {letter!r}: {game} letters are {known}")


def check_kingdom(kingdom: Kingdom, game: str) -> None:
    """Raise GameError/GiantsError for things the game cannot hold (grid letters are checked by the parser)."""
    spec = get_game(game)
    allowed = set(spec.letters.values())
    for position, square in kingdom.squares():
        if square.terrain not in allowed:
            raise GameError(f"{square.terrain.value} is not a terrain of {game}")
    if total_giants(kingdom):
        if not spec.giants:
            problem = GameError(f"giants belong to Age of Giants, which kscore does not combine with {game}")
            problem.position = next(p for p, s in kingdom.squares() if s.giants)  # the first, in reading order
            raise problem
        check_giants(kingdom)


def expansion_lines(
    kingdom: Kingdom, game: str = DEFAULT_GAME, quests: Iterable[str] = (), mode: str | None = None
) -> list[ScoreLine]:
    """Every non-property line the game adds for this kingdom.

    quests: slugs from the `quests:` header (already validated by
    quests.parse_quests). mode: the Origins mode from the header, if given.
    """
    spec = get_game(game)
    quests = tuple(quests)
    check_kingdom(kingdom, game)
    check_extras(kingdom, game)
    if quests and not spec.giants:
        raise GameError(f"quests belong to Age of Giants, which kscore does not combine with {game}")
    lines: list[ScoreLine] = []
    if spec.giants:
        lines += giants_lines(kingdom)
        lines += quest_lines(kingdom, quests)
    if spec.name == "queendomino":
        lines += queendomino.queendomino_lines(kingdom)
    elif spec.name == "origins":
        lines += origins.origins_lines(kingdom, mode)
    return lines


def check_extras(kingdom: Kingdom, game: str) -> None:
    """A per-kingdom line of another game (coins: in an Origins file...) is an error naming that game.

    Keys no game owns (e.g. the core's `frame:`) are left to the text parser.
    """
    spec = get_game(game)
    for key in kingdom.extras:
        owners = [g.name for g in GAMES.values() if key in g.extras_keys]
        if owners and key not in spec.extras_keys:
            raise ExtrasError(key, f"a {' / '.join(owners)} line, but the game is {spec.name} (set the header `game:`)")


def tiebreak_key(kingdom: Kingdom, game: str) -> tuple[int, ...] | None:
    """Queendomino's tiebreak key (largest territory), or None: use the core's Kingdomino tiebreak."""
    return queendomino.tiebreak_key(kingdom) if get_game(game).name == "queendomino" else None
