"""The game folder `kscore serve` keeps: every photo, every kingdom view and the game as text.

    FOLDER/game.kingdom        the game as the page shows it (rules header, one [Name] per kingdom):
                               `kscore FOLDER/game.kingdom` scores the same game on the command line
    FOLDER/game.json           per kingdom, in the file's order: the photo it was read from, its
                               corners in that photo and its view (null for a kingdom typed in)
    FOLDER/photos/photo-001.jpg  the uploads, named by the server (the client's name is never used)
    FOLDER/views/photo-001-1.jpg each kingdom rectified, as the page draws its grid over it

Every file is written whole (a part file renamed), so a reload or a crash finds
the last game saved. Nothing outside FOLDER is read or written: the only names
taken from a request are views', matched against a strict pattern first.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from kscore.app.pipeline import write_whole
from kscore.errors import KscoreError
from kscore.game.kingdom import Kingdom
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import parse_game, write_game

GAME_FILE = "game.kingdom"
PLACES_FILE = "game.json"
VIEW_NAME = re.compile(r"photo-\d{3,}-\d+\.jpg")
_PHOTO_NUMBER = re.compile(r"photo-(\d+)\.")


class GameFolder:
    """One game's files. Not thread-safe by itself: the app serialises writes with a lock."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.photos = self.root / "photos"
        self.views = self.root / "views"
        self.game_path = self.root / GAME_FILE
        self.places_path = self.root / PLACES_FILE

    def create(self) -> None:
        for folder in (self.root, self.photos, self.views):
            folder.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------ reading

    def game(self) -> Game:
        """The saved game; an empty Kingdomino game before the first photo or text."""
        if not self.game_path.exists():
            return Game(GameRules(), (), str(self.game_path))
        try:
            text = self.game_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise KscoreError(f"cannot read {self.game_path}: {getattr(error, 'strerror', None) or error}") from None
        return parse_game(text, str(self.game_path))

    def places(self) -> list[dict | None]:
        """Per kingdom of game.kingdom, in order: {"photo", "corners", "view"} or None (typed in)."""
        try:
            places = json.loads(self.places_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # missing or damaged: the kingdoms are still scored, drawn without a photo
            return []
        return [p if isinstance(p, dict) else None for p in places] if isinstance(places, list) else []

    def view(self, name: str) -> Path | None:
        """The view file of that name, only if the name is one the server gives and the file exists."""
        if not VIEW_NAME.fullmatch(name):
            return None
        path = self.views / name
        return path if path.is_file() else None

    # ------------------------------------------------------------ writing

    def new_photo(self, data: bytes, suffix: str) -> Path:
        """Store an upload as photos/photo-NNN<suffix>, the next free number (never replacing one)."""
        try:
            return self._new_photo(data, suffix)
        except OSError as error:  # a full disk, a folder made read-only
            raise KscoreError(f"cannot keep the photo in {self.photos}: {error.strerror or error}") from None

    def _new_photo(self, data: bytes, suffix: str) -> Path:
        self.create()
        number = 1 + max((int(m[1]) for p in self.photos.iterdir() if (m := _PHOTO_NUMBER.match(p.name))), default=0)
        while True:
            path = self.photos / f"photo-{number:03d}{suffix}"
            try:
                with open(path, "xb") as handle:  # exclusive: two uploads at once never share a name
                    handle.write(data)
                return path
            except FileExistsError:
                number += 1

    def save(self, game: Game, places: Sequence[dict | None]) -> None:
        """Write game.kingdom and game.json (places aligned with game.kingdoms, by position)."""
        try:
            self._save(game, places)
        except OSError as error:
            raise KscoreError(f"cannot save {self.game_path}: {error.strerror or error}") from None

    def _save(self, game: Game, places: Sequence[dict | None]) -> None:
        self.create()
        text = ("# kscore serve: this game as the page shows it; `kscore " + str(self.game_path) +
                "` scores it here too\n" + write_game(game))
        write_whole(self.game_path, lambda part: part.write_text(text, encoding="utf-8"))
        # Places past the last kingdom are kept: an undo that drops a photo's kingdoms, then a redo, finds them.
        listed = list(places) + [None] * (len(game.kingdoms) - len(places))
        write_whole(self.places_path, lambda part: part.write_text(json.dumps(listed), encoding="utf-8"))

    def add_kingdoms(self, kingdoms: Sequence[Kingdom], places: Sequence[dict]) -> Game:
        """The saved game with `kingdoms` appended (named Player N, never a name already taken); saved."""
        game, old_places = self.game(), self.places()
        old_places = old_places[: len(game.kingdoms)] + [None] * (len(game.kingdoms) - len(old_places))
        taken = {k.name for k in game.kingdoms}
        named = []
        for kingdom in kingdoms:
            number = len(taken) + 1
            while f"Player {number}" in taken:
                number += 1
            taken.add(f"Player {number}")
            named.append(replace(kingdom, name=f"Player {number}"))
        game = Game(game.rules, game.kingdoms + tuple(named), game.source, game.header)
        self.save(game, old_places + list(places))
        return game

    def replace_game(self, text: str) -> Game:
        """The game typed or edited on the page: parsed (a KingdomFormatError names line and column), then saved.

        The photos stay with the kingdoms in the same places (the page never reorders them)."""
        game = parse_game(text, str(self.game_path))
        self.save(game, self.places())
        return game


def default_folder(now: str) -> Path:
    """A new game folder under the user's data folder ($XDG_DATA_HOME or ~/.local/share)."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kscore" / "games" / now


def check_folder(root: Path) -> GameFolder:
    """The folder to serve, created if missing; raises KscoreError when it cannot hold a game."""
    folder = GameFolder(root)
    if root.exists() and not root.is_dir():
        raise KscoreError(f"{root}: a file, not a folder; name a folder to keep the game's photos in")
    try:
        folder.create()
    except OSError as error:
        raise KscoreError(f"cannot create {root}: {error.strerror or error}") from None
    folder.game()  # a game.kingdom that does not parse is said now, not on the first request
    return folder
