"""Who the photo's kingdoms belong to, and the player's corrections to what a photo read.

- `--names Anna,Ben` names a photo's kingdoms in photo order (top to bottom, left to right).
- The correction loop: `kscore photo.jpg` writes `photo.kingdom`; the player fixes a
  square (or renames a `[section]`) and runs `kscore photo.jpg` again. Their file then
  wins over the photo (said in one line, with the squares that differ) unless
  `--reread`. A file that cannot be read is said and the photo's reading is scored.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from kscore.errors import KscoreError
from kscore.game.kingdom import Kingdom, square_name
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import letters_for_game, read_game, square_token


def photo_games(games: Sequence[Game]) -> list[Game]:
    return [g for g in games if hasattr(g, "found")]


def with_kingdoms(game: Game, kingdoms: Sequence[Kingdom]) -> Game:
    """The same photo game with other kingdoms (renamed, or the player's), kept beside their corners."""
    found = tuple(replace(f, kingdom=k) for f, k in zip(game.found, kingdoms))
    return replace(game, kingdoms=tuple(kingdoms), found=found)


def apply_names(games: Sequence[Game], names: Sequence[str]) -> list[Game]:
    """Name the photos' kingdoms in photo order; refused when the counts differ (the reading is kept as read)."""
    if not names:
        return list(games)
    photos = photo_games(games)
    if not photos:
        raise KscoreError("--names names the kingdoms read from photos; a text file names its players in its "
                          "[Name] lines")
    count = sum(len(g.kingdoms) for g in photos)
    if count != len(names):
        raise KscoreError(f"--names gives {len(names)} name{'s' if len(names) != 1 else ''} but the photos hold "
                          f"{count} kingdom{'s' if count != 1 else ''} (photo order: top to bottom, left to right)")
    left = iter(names)
    renamed = {id(g): with_kingdoms(g, [replace(k, name=next(left)) for k in g.kingdoms]) for g in photos}
    return [renamed.get(id(g), g) for g in games]


def _same_square(a, b) -> bool:
    return (a.terrain, a.crowns, a.giants) == (b.terrain, b.crowns, b.giants)


def differences(read: Sequence[Kingdom], fixed: Sequence[Kingdom], game: str = "kingdomino") -> list[str]:
    """What the player's file changes in the photo's reading: squares (`table row 4, column 4: G2 -> G1`),
    names, the number or size of kingdoms. `?` marks removed alone count too (the player checked them)."""
    if len(read) != len(fixed):
        return [f"the file holds {len(fixed)} kingdoms, the photo {len(read)}"]
    letters = letters_for_game(game)

    def token(square) -> str:
        try:
            return square_token(replace(square, uncertain=False), letters)
        except ValueError:
            return square.terrain.value

    out = []
    for a, b in zip(read, fixed):
        if a.name != b.name:
            out.append(f"[{a.name}] renamed [{b.name}]")
        if a.size != b.size:
            out.append(f"{b.name}: {b.size}x{b.size} in the file, {a.size}x{a.size} in the photo")
            continue
        for (position, x), (_, y) in zip(a.squares(), b.squares()):
            if not _same_square(x, y):
                out.append(f"{b.name} {square_name(position)}: {token(x)} -> {token(y)}")
        checked = sum(1 for (_, x), (_, y) in zip(a.squares(), b.squares()) if x.uncertain and not y.uncertain)
        if checked and not out:
            out.append(f"{b.name}: {checked} '?' mark{'s' if checked != 1 else ''} removed")
    return out


def player_corrections(game: Game, path: Path, rules: GameRules) -> tuple[Game, str] | None:
    """If the reading file beside the photo differs from what the photo reads: the game to score and the line
    to say. None when there is no file or it holds exactly the reading (the photo is scored)."""
    try:
        if not path.is_file():
            return None
    except OSError:  # a name too long to exist: nothing the player could have corrected
        return None
    try:
        fixed = read_game(path, rules)
    except KscoreError as error:
        return game, f"{path} has an error ({error}); scored the photo's reading instead: fix the file"
    changes = differences(game.kingdoms, fixed.kingdoms, fixed.rules.game)
    if not changes:
        return None
    shown = "; ".join(changes[:6]) + (f"; and {len(changes) - 6} more" if len(changes) > 6 else "")
    line = f"scored {path} (your corrections), not the photo's reading ({shown}); --reread scores the photo"
    if fixed.rules != game.rules or [k.size for k in fixed.kingdoms] != [k.size for k in game.kingdoms]:
        return fixed, line  # scored as a text file: the overlay cannot place its kingdoms
    return with_kingdoms(game, fixed.kingdoms), line
