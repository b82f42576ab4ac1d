"""Files in, games out: the one per-file loop every command uses.

A file that fails (missing, a parse error, a photo with nothing in it) is
recorded as a Failure and the others go on; what to do with the failures (print
them, list them in the JSON, pick the exit code) is said here once for all.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from kscore.errors import KscoreError
from kscore.filetypes import IMAGE_SUFFIXES, is_image
from kscore.game import registry
from kscore.game.kingdom import BASE_LETTERS, Kingdom
from kscore.game.rules import Game, GameRules
from kscore.game.scoring import KingdomScore, score_kingdom
from kscore.game.textformat import read_game


@dataclass(frozen=True)
class Failure:
    path: Path
    error: KscoreError


def is_folder(path: Path) -> bool:
    """path.is_dir(), False when the name cannot even be looked up (too long...): load_game reports that file."""
    try:
        return path.is_dir()
    except OSError:
        return False


def load_game(path: Path, rules: GameRules) -> Game:
    """A text file or, by its extension, a photo (recognition imported only then)."""
    try:
        return _load_game(path, rules)
    except OSError as error:  # a name too long, a folder we may not list...: this file fails, the others go on
        raise KscoreError(f"{path}: {error.strerror or error}") from None


def _load_game(path: Path, rules: GameRules) -> Game:
    if path.is_dir():  # `kscore FOLDER` expanded folders with photos before; dynasty does not
        if any(p.is_file() and is_image(p) and not p.name.startswith(".") for p in path.iterdir()):
            raise KscoreError(f"{path}: a folder; kscore dynasty takes one file per game: name them")
        texts = sorted(p.name for p in path.glob("*.kingdom"))
        hint = f"; for its {len(texts)} kingdom files: kscore {path / '*.kingdom'}" if texts else ""
        raise KscoreError(f"{path}: a folder with no photos in it ({' '.join(sorted(IMAGE_SUFFIXES))}){hint}")
    if is_image(path):
        if not path.exists():
            raise KscoreError(f"{path}: no such file")
        if not set(BASE_LETTERS.values()) <= set(registry.GAMES[rules.game].letters.values()):
            raise KscoreError(f"{path}: photos are read as Kingdomino tiles, not {rules.game}; "
                              f"score {rules.game} kingdoms from text (game: {rules.game})")
        try:
            from kscore.app.pipeline import read_photo  # here: text never loads OpenCV
        except ImportError:
            raise KscoreError(f"{path}: photo recognition not available in this build") from None
        found: Any = read_photo(path, rules)
        if isinstance(found, Kingdom):
            return Game(rules, (found,), str(path))
        if isinstance(found, Game):
            return found
        return Game(rules, tuple(found), str(path))
    return read_game(path, rules)


def load_games(paths: Sequence[Path], load_one: Callable[[Path], Game]) -> tuple[list[Game], list[Failure]]:
    """Load every path; a file that fails (a photo, or a text file missing or with an error) is
    recorded and the others go on: a typo in one .kingdom never throws away the photos read.
    A progress bar shows on the terminal (stderr) when there are several photos.
    """
    games, failures = [], []
    photos = [p for p in paths if is_image(p)]
    with photo_progress(len(photos)) as progress:
        task = progress.add_task("reading photos", total=len(photos)) if progress else None
        for path in paths:
            photo = progress and is_image(path)
            if photo:
                progress.update(task, description=f"reading {path.name}")
            try:
                games.append(load_one(path))
            except KscoreError as error:  # reported once all are done
                failures.append(Failure(path, error))
            if photo:
                progress.advance(task)
    return games, failures


def photo_progress(photos: int):
    """A transient bar on a terminal's stderr for two photos or more; else a context that gives None
    (rich.progress is not even imported for text files)."""
    if photos < 2:
        return nullcontext()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    )


def one_game(games: Sequence[Game]) -> str:
    """The game all the files play; players of different games cannot be ranked together."""
    names = sorted({g.rules.game for g in games})
    if len(names) > 1:
        raise KscoreError(f"these files are of different games ({', '.join(names)}): score them separately")
    seen: dict[str, str] = {}
    for g in games:  # alice.kingdom in two folders, a/game.jpg and b/game.jpg: the ranking cannot tell them apart
        for k in g.kingdoms:
            if k.name in seen and seen[k.name] != str(g.source):
                print(f"kscore: two players named '{k.name}' ({seen[k.name]}, {g.source}): "
                      "rename one file (or its [Name] line) to tell them apart in the ranking", file=sys.stderr)
            seen.setdefault(k.name, str(g.source))
    return games[0].rules.game


def score_games(games: Sequence[Game]) -> list[KingdomScore]:
    return [score_kingdom(k, g.rules) for g in games for k in g.kingdoms]


def failures_json(failures: Sequence[Failure]) -> list[dict]:
    """--json: the files not scored, why, and the exit code each gives."""
    return [{"source": str(f.path), "error": str(f.error), "exit_code": f.error.exit_code} for f in failures]


def failure_exit_code(failures: Sequence[Failure]) -> int:
    """Exit code after the others were scored: the worst failure's (3 nothing recognised), 0 with none."""
    return max((f.error.exit_code for f in failures), default=0)


def say_failures(failures: Sequence[Failure]) -> int:
    """Each failure on stderr, one line each; returns failure_exit_code."""
    for failure in failures:
        print(f"kscore: {failure.error}", file=sys.stderr)
    return failure_exit_code(failures)


def emit_json(document: dict) -> None:
    """The one JSON document on stdout."""
    from kscore.app.report import dumps

    sys.stdout.write(dumps(document) + "\n")


def every_file_failed(failures: Sequence[Failure], as_json: bool, empty: dict) -> KscoreError:
    """Nothing loaded: --json still prints its one document naming the failures; every
    failure but the last is said on stderr, and the last is returned for the caller to raise."""
    if as_json:
        emit_json({**empty, "failures": failures_json(failures)})
    say_failures(failures[:-1])
    return failures[-1].error
