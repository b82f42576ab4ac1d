"""Several photos at once, for the CLI: folders, progress, per-photo failures, files written.

The CLI's score command calls these around its own load/score/print steps, so
text files behave exactly as before and only photos gain the extras: the
reading written beside each photo, the overlay, the CSV, `source` and
`corners` in the JSON.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kscore.app.inputs import (
    emit_json, every_file_failed, failures_json, is_folder, load_game, load_games, one_game, say_failures, score_games,
)
from kscore.errors import KscoreError
from kscore.filetypes import each_once, is_image, resolved
from kscore.game.properties import occupied_extent


def expand_paths(paths: Sequence[Path], notes: list[str] | None = None) -> list[Path]:
    """Folders become the photos directly inside them, sorted (a folder without photos stays, to be refused).

    Hidden files (`.x.jpg`, macOS `._IMG_1.jpg` copies) are left out; sub-folders are
    not entered (noted). A file named twice (or also through its folder) is read once."""
    out: list[Path] = []
    for path in paths:
        inside = []
        if is_folder(path):
            entries = sorted(path.iterdir())
            inside = [p for p in entries if p.is_file() and is_image(p) and not p.name.startswith(".")]
            skipped = [p.name for p in entries if p.is_dir() and not p.name.startswith(".")]
            if skipped and notes is not None:
                notes.append(f"{path}: sub-folders not read ({', '.join(skipped)}); name them to score their photos")
        out += inside or [path]
    repeated: list[str] = []
    out = each_once(out, repeated)
    if notes is not None:
        notes += repeated
    return out


def photo_notes(games: Sequence) -> list[str]:
    """What the user should know beyond the score tables: cut kingdoms, decoder corrections."""
    notes = []
    for game in games:
        for part in getattr(game, "partial", ()):
            notes.append(f"{game.source}: a kingdom {part.missing}; it is not scored")
        notes += [f"{game.source}: {note}" for note in getattr(game, "notes", ())]  # stray dominoes (issue 13)
        for found in getattr(game, "found", ()):
            notes += [f"{found.kingdom.name}: {change}" for change in found.changes]
    return notes


def save_readings(games: Sequence, force: bool) -> list[str]:
    """The correction loop: each photo's reading written beside it (never over the player's edits)."""
    from kscore.app.pipeline import save_reading

    return [save_reading(g, Path(g.source), force) for g in games if hasattr(g, "found")]


def write_overlays(games: Sequence, scores: Sequence, out: Path) -> list[str]:
    """Draw each photo's reading; several photos: out-<photo>.jpg each. A file replaced is kept as .bak."""
    from kscore.app.pipeline import back_up, write_whole
    from kscore.app.overlay import write_overlay

    by_kingdom = {id(s.kingdom): s for s in scores}  # names repeat when photos share a file name
    photo_games = [g for g in games if hasattr(g, "found")]
    if not photo_games:
        return [f"--overlay {out}: no photo was read (text files have no picture to draw on): nothing written"]
    messages, targets = [], set()
    for game in photo_games:
        target = out if len(photo_games) == 1 else out.with_name(f"{out.stem}-{Path(game.source).stem}{out.suffix}")
        number = 1
        while target in targets:  # a/x.jpg and b/x.jpg: out-x.jpg, out-x-2.jpg
            number += 1
            target = out.with_name(f"{out.stem}-{Path(game.source).stem}-{number}{out.suffix}")
        targets.add(target)
        try:
            kept = back_up(target)
            drawn = [by_kingdom[id(f.kingdom)] for f in game.found]
            write_whole(target, lambda part: write_overlay(game.source, game, drawn, part))
        except Exception as error:  # OSError, or cv2.error from imwrite on a full disk; the part file is gone
            reason = getattr(error, "strerror", None) or "a full disk or a folder that cannot be written?"
            raise KscoreError(f"cannot write the overlay {target}: {reason}") from None
        messages.append(f"wrote the overlay {target}" + (f" ({kept})" if kept else ""))
    return messages


def _sources(games: Sequence) -> dict[int, tuple[str, list | None, list[str]]]:
    """id(kingdom) -> (source file, corners or None, decoder changes).

    Keyed by the Kingdom object, not its name: photos named alike in two
    folders (a/game.jpg, b/game.jpg) give kingdoms of the same name."""
    out = {}
    for game in games:
        corners = {id(f.kingdom): (f.corners, list(f.changes)) for f in getattr(game, "found", ())}
        for kingdom in game.kingdoms:
            c, changes = corners.get(id(kingdom), (None, []))
            out[id(kingdom)] = (str(game.source), [list(p) for p in c] if c else None, changes)
    return out


def add_photo_fields(document: dict, scores: Sequence, games: Sequence) -> dict:
    """JSON: each kingdom (document["kingdoms"] made from `scores`, same order) gains `source` and
    `corners` (null for text); cut kingdoms are listed."""
    sources = _sources(games)
    for entry, score in zip(document.get("kingdoms", []), scores):
        source, corners, changes = sources.get(id(score.kingdom), (None, None, []))
        entry["source"] = source
        entry["corners"] = corners
        if changes:
            entry["changes"] = changes
    partial = [
        {"source": str(g.source), "corners": [list(p) for p in part.corners], "missing": part.missing}
        for g in games for part in getattr(g, "partial", ())
    ]
    if partial:
        document["partial"] = partial
    return document


def write_csv(path: Path, results: Sequence, games: Sequence) -> str:
    """One line per kingdom: source, name, place, score, tiebreak, points per terrain and per line, size, unsure
    squares, corners. `-` writes to standard output. A file replaced is kept as .bak.

    results: (scores, ranking) per game; a place is looked up in its own game's ranking."""
    from kscore.app.pipeline import back_up, write_whole

    table = csv_rows(results, _sources(games))
    count = len(table) - 1
    if str(path) == "-":
        _write_rows(sys.stdout, table)
        return ""
    try:
        kept = back_up(Path(path))
        write_whole(Path(path), lambda part: _write_file(part, table))
    except OSError as error:
        raise KscoreError(f"cannot write {path}: {error.strerror or error}") from None
    return f"wrote {path} ({count} kingdom{'s' if count != 1 else ''}" + (f"; {kept})" if kept else ")")


def csv_rows(results: Sequence, sources: dict) -> list[list]:
    """The CSV as rows, header first: every game's sheet rows become columns (a terrain or line a kingdom
    lacks is left blank, so --each tournaments of mixed variants share one header)."""
    from kscore.app.sheet import build_sheet

    sheets = [(build_sheet(scores, ranking), scores) for scores, ranking in results]
    columns: dict[str, None] = {}
    for sheet, _ in sheets:
        columns.update((row.key, None) for row in sheet.rows if row.kind == "terrain")
    for sheet, _ in sheets:
        columns.update((row.key, None) for row in sheet.rows if row.kind != "terrain")
    header = ["source", "kingdom", "place", "score", "decided_by", *columns, "size", "extent", "unsure_squares", "corners"]
    rows = [header]
    for sheet, scores in sheets:
        for i, s in enumerate(scores):
            source, corners, _ = sources.get(id(s.kingdom), ("", None, []))
            flat = " ".join(f"{x:.0f},{y:.0f}" for x, y in corners) if corners else ""
            values = {row.key: row.values[i] for row in sheet.rows}
            place = sheet.places[i] if sheet.places else None
            rows.append([source, s.kingdom.name, place.place if place else "", s.total,
                         place.tiebreak if place else "",
                         *("" if values.get(key) is None else values[key] for key in columns),
                         s.kingdom.size, "{}x{}".format(*occupied_extent(s.kingdom)), len(s.kingdom.uncertain()), flat])
    return rows


def _write_file(path: Path, table: list[list]) -> None:
    with open(path, "w", newline="") as handle:
        _write_rows(handle, table)


def _write_rows(handle, table: list[list]) -> None:
    csv.writer(handle).writerows(table)


@dataclass(frozen=True)
class Outputs:
    """What `kscore FILE...` shows and writes besides the scores."""

    as_json: bool = False
    overlay: Path | None = None
    csv_path: Path | None = None  # `-`: the CSV alone on standard output
    sheet: Path | None = None  # the score sheet as a picture (.png, .jpg, .svg)
    detail: bool = False
    names: Sequence[str] = ()
    reread: bool = False

    @property
    def csv_to_stdout(self) -> bool:
        return self.csv_path is not None and str(self.csv_path) == "-"

    def files(self) -> list[tuple[str, Path]]:
        """(flag, path) of every file to write."""
        named = (("--overlay", self.overlay), ("--csv", None if self.csv_to_stdout else self.csv_path),
                 ("--sheet", self.sheet))
        return [(flag, Path(path)) for flag, path in named if path]


_EXAMPLE = {"--csv": "results.csv", "--overlay": "checked.jpg", "--sheet": "sheet.png"}


def check_outputs(paths: Sequence[Path], outputs: Outputs, folders: Sequence[Path] = ()) -> None:
    """Refuse, before any photo is read, an --overlay/--csv/--sheet that cannot be written or would replace an input.

    An input photo, a text file or the reading written beside a photo would be
    replaced (only a .bak left); a folder or a missing folder would fail after
    every photo was read, the scores never shown."""
    from kscore.app.pipeline import reading_path

    def key(path: Path) -> Path:
        return resolved(Path(path))

    inputs = {key(reading_path(p)): f"where the reading of {p} is written" for p in paths if is_image(p)}
    inputs.update({key(p): "one of the files to score" for p in paths})
    named = outputs.files()
    for flag, path in named:
        if path.is_dir():
            raise KscoreError(f"{flag} {path}: is a folder; name a file in it, like {path / _EXAMPLE[flag]}")
        if not path.parent.is_dir():
            raise KscoreError(f"{flag} {path}: the folder {path.parent} does not exist")
        if key(path) in inputs:
            raise KscoreError(f"{flag} {path}: that is {inputs[key(path)]}; it would be replaced: name another file")
    for i, (flag, path) in enumerate(named):
        for other, second in named[i + 1:]:
            if key(path) == key(second):
                raise KscoreError(f"{flag} and {other} name the same file {path}; give each its own")
    for flag, path in named:
        if flag != "--csv" and any(key(path).parent == key(folder) for folder in folders):
            raise KscoreError(f"{flag} {path}: inside {path.parent}, whose photos are being scored: the next "
                              f"`kscore {path.parent}` would score the pictures as photos; write them in another folder")
    if outputs.overlay:
        import cv2

        if not cv2.haveImageWriter(str(outputs.overlay)):
            raise KscoreError(f"--overlay {outputs.overlay}: not an image file type OpenCV can write; use .jpg or .png")
    if outputs.sheet:
        from kscore.app.sheet_image import check_sheet_path

        check_sheet_path(outputs.sheet)


def load_all(paths: Sequence[Path], rules, jobs: int, on_read) -> tuple[list, list]:
    """Every path loaded (photos in `jobs` processes when there are several), each game passed
    through on_read as it arrives; games and failures in the order of `paths`."""
    photos = [p for p in paths if is_image(p)]
    if jobs > 1 and len(photos) > 1:
        from kscore.app.parallel import load_in_parallel

        return load_in_parallel(paths, rules, jobs, on_read)
    return load_games(paths, lambda path: on_read(load_game(path, rules)))


def run_score(files, rules, outputs: Outputs, *, each: bool = False, force: bool = False, jobs: int = 1) -> int:
    """`kscore FILE...` with photos, folders, --each, --csv, --sheet, --names or --overlay; returns the exit code.

    Kingdoms given together are one game (ranked together) unless `each`.
    A photo that fails is reported (one line on stderr) and the others are
    still scored; the exit code is then the failure's (3: nothing recognised).
    """
    from rich.console import Console

    from kscore.app import report
    from kscore.app.players import apply_names
    from kscore.game.ranking import rank

    early: list[str] = []
    paths = expand_paths(files, early)
    check_outputs(paths, outputs, [f for f in files if is_folder(f)])
    said = ReadingNotes(paths)
    try:
        games, failures = load_all(paths, rules, jobs, said.on_read(rules, force, outputs))
    except KeyboardInterrupt:  # the readings written so far are kept: say where
        for note in said.ordered():
            print(f"kscore: {note}", file=sys.stderr)
        raise
    for note in early:
        print(f"kscore: {note}", file=sys.stderr)
    if not games:  # every file failed: each says why; --json still prints its one document
        empty = {"games": []} if each else {"kingdoms": [], "ranking": []}
        raise every_file_failed(failures, outputs.as_json, empty)
    notes: list[str] = []
    try:
        games = apply_names(games, outputs.names)
    finally:  # saved first (with --names when they fit), even if the game cannot be ranked
        if outputs.names:  # kept until named: the file says who is who
            notes += save_readings([g for g in games if not said.corrected(g)], force)
        notes += said.ordered() + photo_notes(games)
    groups = [[g] for g in games] if each else [games]
    results = []
    try:
        for group in groups:
            scores = score_games(group)
            results.append((scores, rank(scores, one_game(group))))
    except KscoreError:  # e.g. photos with an Origins file: the readings written are still said
        for note in notes:
            print(f"kscore: {note}", file=sys.stderr)
        raise
    all_scores = [s for scores, _ in results for s in scores]
    if outputs.as_json:
        documents = [add_photo_fields(report.scores_json(*r), r[0], games) for r in results]
        document = documents[0] if not each else {"games": documents}
        if failures:  # scripts see what was not scored, not only the exit code
            document["failures"] = failures_json(failures)
        emit_json(document)
    elif not outputs.csv_to_stdout:
        console = Console(emoji=False)  # a name like a:smile: is shown as written
        for (scores, ranking), group in zip(results, groups):
            title = report.game_title([g.source for g in group], group[0].rules)
            report.print_scores(console, scores, ranking, detail=outputs.detail, title=title)
    code = say_failures(failures)
    # The files asked for are written after the scores are shown: a full disk or a read-only
    # folder then costs the file, never the results (or the readings written beside the photos).
    unwritten = None
    try:
        if outputs.overlay:
            notes += write_overlays(games, all_scores, outputs.overlay)
        if outputs.sheet:
            notes.append(write_sheets(outputs.sheet, results, groups))
        if outputs.csv_path:
            notes.append(write_csv(outputs.csv_path, results, games))
    except KscoreError as error:
        unwritten = error
    for note in notes:
        if note:
            print(f"kscore: {note}", file=sys.stderr)
    if unwritten:
        print(f"kscore: {unwritten}", file=sys.stderr)
        code = max(code, unwritten.exit_code)
    return code


class ReadingNotes:
    """Each photo as it is read: the player's corrected file taken instead (player_files), or its reading
    written beside it at once (not with --names: those wait to be named), so Ctrl-C halfway through a
    folder keeps every reading finished. What was done is said in the order of the paths, however the
    photos finished (--jobs)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.order = {str(p): i for i, p in enumerate(paths)}
        self.saved: dict[str, str] = {}
        self.corrections: dict[str, str] = {}
        self.taken: set[int] = set()  # id() of games replaced by the player's file

    def on_read(self, rules, force: bool, outputs: Outputs):
        def take(game):
            if not hasattr(game, "found"):
                return game
            source = str(game.source)
            (game,), (correction,) = player_files([game], rules, force, outputs.reread)
            if correction:
                self.corrections[source] = correction
                self.taken.add(id(game))
            elif not outputs.names:
                self.saved[source] = save_readings([game], force)[0]
            return game

        return take

    def corrected(self, game) -> bool:
        return id(game) in self.taken

    def ordered(self) -> list[str]:
        def by_path(notes: dict[str, str]) -> list[str]:
            return [notes[s] for s in sorted(notes, key=lambda s: self.order.get(s, len(self.order)))]

        return by_path(self.saved) + by_path(self.corrections)


def player_files(games: Sequence, rules, force: bool, reread: bool) -> tuple[list, list[str]]:
    """Photos whose reading file the player corrected are scored from that file (unless --reread, or --force,
    which replaces it). Returns the games to score and, per game, the line saying it came from the file ("")."""
    from kscore.app.pipeline import reading_path
    from kscore.app.players import player_corrections

    out, said = [], []
    for game in games:
        found = None
        if hasattr(game, "found") and not (reread or force):
            found = player_corrections(game, reading_path(game.source), rules)
        out.append(found[0] if found else game)
        said.append(found[1] if found else "")
    return out, said


def write_sheets(out: Path, results: Sequence, groups: Sequence) -> str:
    """The score sheet as a picture; with --each, one per game (out-<source>.png)."""
    from kscore.app.pipeline import back_up, write_whole
    from kscore.app.sheet import build_sheet
    from kscore.app.sheet_image import write_sheet_image
    from kscore.app import report

    written = []
    for i, ((scores, ranking), group) in enumerate(zip(results, groups)):
        target = out if len(results) == 1 else out.with_name(f"{out.stem}-{i + 1}{out.suffix}")
        sheet = build_sheet(scores, ranking, report.game_title([g.source for g in group], group[0].rules))
        try:
            kept = back_up(target)
            write_whole(target, lambda part: write_sheet_image(part, sheet, scores, group))
        except OSError as error:
            raise KscoreError(f"cannot write {target}: {error.strerror or error}") from None
        written.append(str(target) + (f" ({kept})" if kept else ""))
    return "wrote the score sheet " + ", ".join(written)
