"""Several photos at once, for the CLI: folders, progress, per-photo failures, files written.

The CLI's score command calls these around its own load/score/print steps, so
text files behave exactly as before and only photos gain the extras: the
reading written beside each photo, the overlay, the CSV, `source` and
`corners` in the JSON.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Sequence

from kscore.app.inputs import (
    emit_json, every_file_failed, failures_json, is_folder, load_game, load_games, one_game, say_failures, score_games,
)
from kscore.errors import KscoreError
from kscore.filetypes import each_once, is_image


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
        except OSError as error:
            raise KscoreError(str(error)) from None
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


def _places_in_score_order(scores: Sequence, ranking: Sequence) -> list:
    """The ranking's Place of each score, in the order of `scores` (one game).

    Matched on name and score, each Place used once: two players may share a name
    (photos named alike in two folders)."""
    left = list(ranking)
    out = []
    for s in scores:
        i = next(i for i, p in enumerate(left) if (p.name, p.score) == (s.kingdom.name, s.total))
        out.append(left.pop(i))
    return out


def write_csv(path: Path, results: Sequence, games: Sequence) -> str:
    """One line per kingdom: source, name, place, score, size, unsure squares, corners. A file replaced is kept as .bak.

    results: (scores, ranking) per game; a place is looked up in its own game's ranking."""
    from kscore.app.pipeline import back_up, write_whole

    sources = _sources(games)
    places = {id(s.kingdom): p.place for scores, ranking in results
              for s, p in zip(scores, _places_in_score_order(scores, ranking))}
    scores = [s for group, _ in results for s in group]
    try:
        kept = back_up(Path(path))
        write_whole(Path(path), lambda part: _write_rows(part, scores, sources, places))
    except OSError as error:
        raise KscoreError(f"cannot write {path}: {error.strerror or error}") from None
    return f"wrote {path} ({len(scores)} kingdom{'s' if len(scores) != 1 else ''}" + (f"; {kept})" if kept else ")")


def _write_rows(path: Path, scores: Sequence, sources: dict, places: dict) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "kingdom", "place", "score", "size", "unsure_squares", "corners"])
        for s in scores:
            source, corners, _ = sources.get(id(s.kingdom), ("", None, []))
            flat = " ".join(f"{x:.0f},{y:.0f}" for x, y in corners) if corners else ""
            writer.writerow([source, s.kingdom.name, places.get(id(s.kingdom), ""), s.total, s.kingdom.size,
                             len(s.kingdom.uncertain()), flat])


def check_outputs(paths: Sequence[Path], overlay: Path | None, csv_path: Path | None,
                  folders: Sequence[Path] = ()) -> None:
    """Refuse, before any photo is read, an --overlay/--csv that cannot be written or would replace an input.

    An input photo, a text file or the reading written beside a photo would be
    replaced (only a .bak left); a folder or a missing folder would fail after
    every photo was read, the scores never shown."""
    from kscore.app.pipeline import reading_path

    def key(path: Path) -> Path:
        return Path(path).expanduser().resolve()

    inputs = {key(reading_path(p)): f"where the reading of {p} is written" for p in paths if is_image(p)}
    inputs.update({key(p): "one of the files to score" for p in paths})
    outputs = [(flag, Path(path)) for flag, path in (("--overlay", overlay), ("--csv", csv_path)) if path]
    for flag, path in outputs:
        if path.is_dir():
            raise KscoreError(f"{flag} {path}: is a folder; name a file in it, like {path / ('results.csv' if flag == '--csv' else 'checked.jpg')}")
        if not path.parent.is_dir():
            raise KscoreError(f"{flag} {path}: the folder {path.parent} does not exist")
        if key(path) in inputs:
            raise KscoreError(f"{flag} {path}: that is {inputs[key(path)]}; it would be replaced: name another file")
    if len(outputs) == 2 and key(outputs[0][1]) == key(outputs[1][1]):
        raise KscoreError(f"--overlay and --csv name the same file {overlay}; give each its own")
    if overlay and any(key(overlay).parent == key(folder) for folder in folders):
        raise KscoreError(f"--overlay {overlay}: inside {overlay.parent}, whose photos are being scored: the next "
                          f"`kscore {overlay.parent}` would score the pictures as photos; write them in another folder")
    if overlay:
        import cv2

        if not cv2.haveImageWriter(str(overlay)):
            raise KscoreError(f"--overlay {overlay}: not an image file type OpenCV can write; use .jpg or .png")


def run_score(files, rules, *, as_json, overlay, csv_path, each, force) -> int:
    """`kscore FILE...` with photos, folders, --each, --csv or --overlay; returns the exit code.

    Kingdoms given together are one game (ranked together) unless `each`.
    A photo that fails is reported (one line on stderr) and the others are
    still scored; the exit code is then the failure's (3: nothing recognised).
    """
    from rich.console import Console

    from kscore.app import report
    from kscore.game.ranking import rank

    early: list[str] = []
    paths = expand_paths(files, early)
    check_outputs(paths, overlay, csv_path, [f for f in files if is_folder(f)])
    games, failures = load_games(paths, lambda path: load_game(path, rules))
    for note in early:
        print(f"kscore: {note}", file=sys.stderr)
    if not games:  # every file failed: each says why; --json still prints its one document
        raise every_file_failed(failures, as_json, {"games": []} if each else {"kingdoms": [], "ranking": []})
    notes = save_readings(games, force) + photo_notes(games)  # first: saved even if the game cannot be ranked
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
    if overlay:
        notes += write_overlays(games, all_scores, overlay)
    if csv_path:
        notes.append(write_csv(csv_path, results, games))
    if as_json:
        documents = [add_photo_fields(report.scores_json(*r), r[0], games) for r in results]
        document = documents[0] if not each else {"games": documents}
        if failures:  # scripts see what was not scored, not only the exit code
            document["failures"] = failures_json(failures)
        emit_json(document)
    else:
        console = Console()
        for (scores, ranking), group in zip(results, groups):
            if each:
                console.rule(", ".join(str(g.source) for g in group))
            report.print_scores(console, scores, ranking)
    code = say_failures(failures)
    for note in notes:
        print(f"kscore: {note}", file=sys.stderr)
    return code
