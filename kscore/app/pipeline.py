"""Photo in, kingdoms out: the pipeline the CLI calls for image files.

load (reduced decode, EXIF) -> localise (every kingdom's grid) -> rectify
(100 px squares) -> read_board (recogniser + tile-set decoder) -> a Game whose
kingdoms are named after the photo. Kingdoms cut by the photo's edge are
reported, never scored. Nothing found raises NothingRecognisedError (exit 3)
with what was seen and how to retake the photo.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path

from kscore.errors import KscoreError, NothingRecognisedError
from kscore.filetypes import is_image
from kscore.game.kingdom import Kingdom, Terrain, sides_of
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import write_game

RETAKE_ADVICE = "retake it closer, from above, with the whole kingdom in the frame and less glare"


@dataclass(frozen=True)
class PhotoKingdom:
    """One kingdom read from a photo: corners TL, TR, BR, BL in original photo pixels."""

    kingdom: Kingdom
    corners: tuple[tuple[float, float], ...]
    changes: tuple[str, ...] = ()
    #: (rows, cols) the kingdom occupies, when it was found tile by tile (kscore.vision.find.loose);
    #: it then lies in the top-left of its frame, and corners are that frame's.
    extent: tuple[int, int] | None = None


@dataclass(frozen=True)
class PartialKingdom:
    """A kingdom the photo shows only in part: reported, not scored."""

    corners: tuple[tuple[float, float], ...]
    missing: str
    pitch: float = 0.0  # its squares' side in photo pixels when found tile by tile (0: not measured)


@dataclass(frozen=True)
class PhotoGame(Game):
    """A Game read from a photo, with where each kingdom is and what was left out."""

    found: tuple[PhotoKingdom, ...] = ()
    partial: tuple[PartialKingdom, ...] = ()
    seconds: float = 0.0
    photo_size: tuple[int, int] = (0, 0)
    notes: tuple[str, ...] = ()  # what was seen and left out (stray dominoes), for the player


def rounded_corners(corners) -> tuple[tuple[float, float], ...]:
    """A quad's corners (a numpy array) as plain floats to 0.1 px: what a found or partial kingdom reports."""
    return tuple(map(tuple, corners.round(1).tolist()))


def kingdom_names(stem: str, count: int) -> list[str]:
    """Named after the file; numbered when the photo holds several."""
    stem = "".join(c for c in stem if c not in "[]#\n\r").strip() or "photo"
    return [stem] if count == 1 else [f"{stem}-{i}" for i in range(1, count + 1)]


def _tileset(rules: GameRules):
    from kscore.game.tileset import TILESETS

    return TILESETS.get(rules.tileset) if rules.use_tileset else None


def read_photo(path: Path | str, rules: GameRules | None = None, models=None) -> PhotoGame:
    """Every complete kingdom in the photo, read and named; raises NothingRecognisedError."""
    from kscore.vision.load import PhotoError, check_usable, load_photo

    path = Path(path)
    start = time.perf_counter()
    try:
        photo = load_photo(path)
    except PhotoError as error:
        raise KscoreError(str(error)) from None
    try:
        check_usable(photo)
    except PhotoError as error:  # a photo, but nothing can be read from it
        raise NothingRecognisedError(str(error)) from None
    return read_loaded_photo(photo, rules, models, start)


def read_loaded_photo(photo, rules: GameRules | None = None, models=None, start: float | None = None) -> PhotoGame:
    """read_photo for a decoded kscore.vision.load.Photo (synthetic scenes use this directly)."""
    from kscore.vision.find.localise import localise
    from kscore.vision.find.loose import grid_tables

    rules = rules or GameRules()
    path = photo.path
    start = time.perf_counter() if start is None else start
    found = localise(photo)
    complete = [b for b in found.boards if not b.partial]
    partial = tuple(
        PartialKingdom(rounded_corners(b.corners), b.missing) for b in found.boards if b.partial
    )
    if not complete:
        # No square block of 5x5 or 7x7 squares: a kingdom laid by hand (gaps, shifted rows,
        # smaller than its frame) is looked for tile by tile.
        return _tile_by_tile(photo, rules, models, start, partial, found.seen, working=found.working)
    complete.sort(key=lambda b: _photo_order(b.corners, photo.size))
    names = kingdom_names(path.stem, len(complete))
    tileset = _tileset(rules)
    detailed = photo_for_reading(photo, complete)
    read: list[PhotoKingdom] = []
    loose = None  # found tile by tile, only when a grid's reading is in doubt
    replaced: set[int] = set()  # the tile-by-tile kingdoms that replaced a grid
    unlike_grids: list[str] = []  # what was said of the grids left out as no kingdom's
    to_working = 1.0 if found.working is None else found.working.factor * photo.scale
    tables = grid_tables(found.working, [(board.corners / to_working, board.size) for board in complete])
    for board, name, table in zip(complete, names, tables):
        reading = read_board_in_photo(detailed, board.corners, board.size, tileset, name, models, table=table)
        corners = rounded_corners(board.corners)
        found_here = PhotoKingdom(reading.kingdom, corners, tuple(reading.changes))
        # A grid of 5x5 or 7x7 squares laid over a kingdom that does not fill it (a 4x4 one
        # laid by hand, rows of table taken in): the kingdom found tile by tile inside it
        # replaces it when its reading is the more plausible one.
        # A 5x5 grid with tiles past it on its lattice (localise: FoundBoard.beyond) may frame part of a
        # larger kingdom of a 7x7 game (6x6, laid by hand): the kingdom found tile by tile decides.
        grows = board.size == 5 and board.beyond >= BEYOND_SQUARES
        # However sure its reading, a 5x5 grid with even one tile square past it is checked tile by tile: a
        # kingdom laid by hand lies past the grid mostly off its lattice, so the foreground seldom fills more
        # of the ring (`eval_loose.py --close --seed 623 --holdout` scenes 3 and 84, 7x6 and 5x7 kingdoms on
        # a plain table, were scored as the 5x5 grid inside them), and a grid with an edge row of table and
        # tiles past it is shifted off such a kingdom. Only BEYOND_SQUARES of them let a larger kingdom win
        # on its size alone (one let a 5x5 kingdom on a carpet, its tiles' lattice doubling a row, replace
        # its right grid: `--seed 613 --holdout` scene 67).
        past = board.size == 5 and board.beyond > 0
        if _plausibility(reading) >= SURE_READING and _castle_likely(reading) and not past:
            read.append(_kept_grid(detailed, board, name, tileset, models, reading, table))
            continue
        if loose is None:
            loose = loose_readings(photo, tileset, models, with_partial=True, working=found.working)
        choice = grid_or_tiles(board, reading, loose[0], loose[1], grows, loose[2])
        if isinstance(choice, int):  # the kingdom found tile by tile there stands in for the grid
            corners_l, group, reading_l = loose[0][choice]
            found_here = None if choice in replaced else PhotoKingdom(
                replace(reading_l.kingdom, name=name), rounded_corners(corners_l),
                tuple(reading_l.changes), group.extent)
            replaced.add(choice)
        elif choice is not None:  # no kingdom's grid: nothing to score, said once
            unlike_grids.append(f"{tile_squares(reading.kingdom)} tile square(s) read on a grid {choice}: "
                                "not a kingdom, not scored")
            found_here = None
        else:  # the grid is kept
            found_here = _kept_grid(detailed, board, name, tileset, models, reading, table)
        if found_here is not None:  # None: a second grid over a kingdom already read tile by tile (said once)
            read.append(found_here)
    if not read and unlike_grids:
        # Every grid was laid across tiles of another size or over strays: the photo is read as if no grid showed.
        return _tile_by_tile(photo, rules, models, start, partial, found.seen, loose)
    whole: list[PhotoKingdom] = []
    # Beside the grids kept, another kingdom laid by hand: its frame seen running off the photo though its tiles
    # do not, or tiles no grid frames.
    apart = found.elsewhere >= LEAST_TILES
    if partial or apart:
        if loose is None:
            loose = loose_readings(photo, tileset, models, with_partial=True, working=found.working)
        whole, partial = kingdoms_beside_grids(loose[0], replaced, partial, read if apart else None)
    read, twice = one_kingdom_per_place(read + whole)
    read, notes = not_kingdoms(read)
    notes = unlike_grids + twice + notes
    if whole:  # in photo order, as the names say
        read.sort(key=lambda k: _photo_order(k.corners, photo.size))
    if len(read) != len(complete):  # named again: "photo", not "photo-1" alone
        read = [replace(k, kingdom=replace(k.kingdom, name=n)) for k, n in zip(read, kingdom_names(path.stem, len(read)))]
    return PhotoGame(
        rules,
        tuple(k.kingdom for k in read),
        str(path),
        {},
        found=tuple(read),
        partial=partial,
        seconds=time.perf_counter() - start,
        photo_size=photo.size,
        notes=tuple(notes),
    )


def _photo_order(corners, photo_size: tuple[int, int]) -> tuple:
    """Where a kingdom comes in the photo's order, which its name follows: top to bottom (by quarters of the
    photo's height), then left to right, so names are stable."""
    import numpy as np

    centre = np.float32(corners).reshape(-1, 2).mean(axis=0)
    return round(float(centre[1]) / (photo_size[1] / 4)), float(centre[0])


def kingdoms_beside_grids(kingdoms, replaced: set[int], partial: tuple,
                          grids: list[PhotoKingdom] | None = None) -> tuple[list[PhotoKingdom], tuple]:
    """The kingdoms found tile by tile beside the grids kept, and the cut kingdoms they do not explain:
    (PhotoKingdoms, PartialKingdoms left).

    A photo of the table shows every player's kingdom; the block finder frames the neat ones. One laid by hand
    and smaller than its frame (2x5 in a game of 5x5) gets a frame that runs off the photo though its tiles
    lie well inside it, and was said to be cut; or no frame at all, and was never looked for. Tile by tile its
    group is whole (loose_readings reads only those) and reads a castle: it is a kingdom, read. Taken:
    - where the block finder saw a kingdom cut: both finders saw one there;
    - with `grids` (the finds kept; given when the block finder saw tiles outside them, tiles_elsewhere), a
      group apart from every one of them that reads its castle without doubt. A group reading a castle in
      doubt beside a kept grid is more often a stray read wrong (a castle read on a draft line's tile).
    kingdoms: loose_readings' kingdoms (frame corners, LooseKingdom, BoardReading); replaced: those already
    standing in for a grid (they explain a cut seen where they lie only when found after the reader refuted a
    cut there: LooseKingdom.cut_refuted; a kingdom found whole inside a block truly cut is a part of it).
    """
    whole, explained = [], set()
    for i, (corners, group, reading) in enumerate(kingdoms):
        cut_here = [j for j, p in enumerate(partial) if _overlap(p.corners, group.corners) >= OVERLAP_SHARE]
        apart = grids is not None and _sure_castle(reading.kingdom) and all(
            _overlap(tiles_outline(k), group.corners) < OVERLAP_SHARE for k in grids)
        if i in replaced:  # read in a grid's place; the block finder's cut there stands unless the reader saw table
            explained.update(cut_here if group.cut_refuted else ())
            continue
        if not (cut_here or apart):
            continue
        whole.append(PhotoKingdom(reading.kingdom, rounded_corners(corners), tuple(reading.changes), group.extent))
        explained.update(cut_here)
    return whole, tuple(p for j, p in enumerate(partial) if j not in explained)


def _sure_castle(kingdom: Kingdom) -> bool:
    """Whether the kingdom reads exactly one castle, not marked `?`."""
    castles = kingdom.castles()
    return len(castles) == 1 and not kingdom[castles[0]].uncertain


def _kept_grid(photo, board, name: str, tileset, models, reading, table=frozenset()) -> PhotoKingdom:
    """A grid kept as a kingdom, each square read where its print lies (settled_reading)."""
    reading = settled_reading(photo, board.corners, board.size, tileset, name, models, reading, table)
    corners = rounded_corners(board.corners)
    return PhotoKingdom(reading.kingdom, corners, tuple(reading.changes))


def settled_reading(photo, corners, size: int, tileset, name: str, models, reading, table=frozenset()):
    """The grid's reading again with each square cut where its print lies (settled_grid): a kingdom laid by
    hand has dominoes 0.1-0.3 of a square off the grid, and a crown by a print's edge was lost or counted in
    the neighbour's square. `reading` (its regular cells') is kept when no square moved or the settled one
    is less plausible (more squares the decoder doubts; not one castle). table: the squares the tile mask
    says are table (loose.grid_tables), read as empty both times.

    Whether a grid frames a kingdom at all is judged on its regular cells (read_loaded_photo): settled,
    a grid laid across tiles of another size read its squares as plausibly as the tiles' own.
    """
    # A square read as table stays: moved, it only takes in the print of the tile beside it.
    read_empty = [p for p, square in reading.kingdom.squares() if square.terrain is Terrain.EMPTY]
    board, shifts, (wide, quads) = settled_grid(photo, corners, size, read_empty)
    if not shifts.any():
        return reading
    from kscore.vision.read.cell_crowns import crown_probabilities_in_place
    from kscore.vision.read.features import prepared_and_gain
    from kscore.vision.read.reader import default_models

    # Crowns counted where each square lies, seen with a margin: a crown by a print's edge a square's cut
    # halves is still whole there (as on the tile path, kscore.vision.read.cell_crowns).
    crowns = crown_probabilities_in_place(wide, quads, size, prepared_and_gain(board, size)[1],
                                          models if models is not None else default_models())
    again = read_board_in_photo(photo, corners, size, tileset, name, models, image=board, table=table, crowns=crowns)
    return again if _plausibility(again) >= _plausibility(reading) else reading


def grid_or_tiles(board, reading, kingdoms, strays, grows: bool = False, cut: tuple = ()) -> int | str | None:
    """What a grid in doubt is, beside the groups found tile by tile: the index of the kingdom (of `kingdoms`)
    that stands in for it, why it frames no kingdom (a str), or None: the grid is kept.

    board: a localise.FoundBoard; reading: its BoardReading; kingdoms, strays: loose_readings' lists of
    (frame corners, LooseKingdom, BoardReading); grows: a 5x5 grid with tiles past it on its lattice;
    cut: loose_readings' PartialKingdoms (groups the photo's edge cuts, with their pitch).
    """
    groups = [g for _, g, _ in (*kingdoms, *strays)]
    # Squares far smaller than the tiles under them (a grid laid over 2x2 tiles of a dotted carpet or over
    # speckled stone and a stray, its squares 0.3-0.5 of theirs) frame no kingdom: every tile in the box is
    # one size. A kingdom found tile by tile there stands in for it. The tiles of a kingdom the photo's edge
    # cuts count too: a grid at half their size laid over its part in the photo was scored (`eval_loose.py
    # --cut --seed 611` scene 16: 5x5 squares of 48 px over a cut kingdom's tiles of 103 px).
    unlike = not squares_of_tiles(board.corners, board.size, groups + [p for p in cut if p.pitch])
    side = grid_side(board.corners, board.size)
    # A grid that reads no castle or several frames no kingdom (a block of table and tiles taken for one):
    # a kingdom found tile by tile overlapping it is measured by its own frame.
    frame = board.size if len(reading.kingdom.castles()) == 1 else None
    for i, (_, group, reading_l) in enumerate(kingdoms):
        if _overlap(board.corners, group.corners) < OVERLAP_SHARE:
            continue
        rows, cols = group.extent
        size = frame or frame_size(group.extent)
        off_grid = squares_on_grid(board.corners, board.size, group) < ON_GRID_SHARE
        # Tiles of the grid's size or larger (a tight crop's groups come out at a third of its squares)
        # that do not lie on its squares: the grid is laid astride their seams, not on their lattice.
        astride = off_grid and group.pitch >= SAME_SQUARE * side
        # Such tiles of another size than its squares: the grid is laid at another scale over them (5 squares
        # across a 3x3 kingdom, 7 across a whole mat around a 5x5 one). Every tile in the box is one size,
        # so it frames none of them, however much of it they cover: the tiles' own squares are read.
        rescaled = astride and abs(group.pitch / side - 1) > ON_GRID_SIZE
        # A kingdom, not a fragment the colours kept of the grid's; or, when the grid frames no
        # kingdom (not one castle), tiles its squares do not lie on (a grid laid over part of a
        # small kingdom in progress, squares astride its seams). A grid with its castle keeps
        # this test: a tight crop's grid on a mat lost a row to a misaligned group without it.
        spans = rows * cols >= COVER_SHARE * size**2
        covers = spans or (frame is None and off_grid)
        # The box's rule: a kingdom wider than 5 squares either way is a 7x7 game's; one with its one castle
        # lying over the grid is the kingdom the grid framed in part, however the doubts compare. So is one
        # reading no castle over a grid that reads none either (or several): the grid's claim is no stronger,
        # and the tiles past it are the larger kingdom's (a 5x5 grid inside a 7x7 kingdom whose castle is misread).
        castled = len(reading_l.kingdom.castles()) == 1 or frame is None
        # One spanning more than 5 squares both ways is a 7x7 game's kingdom whatever it reads (stray dominoes
        # touching a 5x5 kingdom widen it along one side only): `eval_loose.py --holdout --seed 2` scene 59, a
        # 7x7 kingdom whose castle its tiles' reading missed, was scored as the 5x5 grid inside it.
        larger = grows and (min(rows, cols) > 5 or (max(rows, cols) > 5 and castled))
        # A kingdom spanning the grid's frame whose tiles lie astride its squares: the grid read each square
        # across two tiles' halves, so its castle count says nothing; the tiles' own squares are read.
        if unlike or rescaled or (covers and (larger or (spans and astride)
                                  or _plausibility(reading_l, per_tile=True) > _plausibility(reading, per_tile=True))):
            return i
    if unlike:  # over strays alone (no kingdom found tile by tile there): nothing to score
        return "whose squares are under half the size of the tiles found"
    # Over stray groups alone (the draft line, discards: groups not joined to the kingdom found tile by tile
    # elsewhere) holding under half its frame: the grid framed them with the table around them. Groups far
    # finer than its squares (a tight crop's, at a third of them) are not its tiles and say nothing.
    under = [g for g in groups if _overlap(board.corners, g.corners) >= OVERLAP_SHARE and g.pitch >= SAME_SQUARE * side]
    apart = not any(_overlap(board.corners, g.corners) >= OVERLAP_SHARE for g in (*(g for _, g, _ in kingdoms), *cut))
    # The kingdom is elsewhere: found whole with its castle, or found cut by the photo's edge (its castle may be
    # out of the photo; `eval_loose.py --cut --seed 612` scene 31: a grid over a stray domino scored 28).
    anchored = any(len(r.kingdom.castles()) == 1 and tile_squares(r.kingdom) >= LEAST_TILES for _, _, r in kingdoms) or any(
        p.pitch for p in cut)
    # So does one over no tiles at all (a dotted carpet's bands read as squares beside a small kingdom).
    if apart and anchored and sum(g.squares for g in under) < COVER_SHARE * board.size**2:
        return "laid over stray dominoes apart from the kingdom" if under else "laid over table apart from the kingdom"
    return None


#: A find whose squares are under this share of the surest kingdom's, or over its inverse, is not a
#: kingdom: every tile in the box is the same size, so kingdoms in one photo show about the same
#: square (a photo from a chair makes the far ones smaller, not by half). Grids laid across strays
#: came out at 0.33-0.46 of the kingdom's square; a real kingdom of eval_synthetic's at 0.59.
SAME_SQUARE = 0.5
#: Fewest tile squares of a kingdom beside another: a castle and one domino (a find of one domino's
#: two squares is a stray, whatever it reads).
LEAST_TILES = 3


def square_side(found: PhotoKingdom) -> float:
    """A found kingdom's square side in photo pixels (its frame's corners span kingdom.size squares)."""
    return grid_side(found.corners, found.kingdom.size)


def grid_side(corners, size: int) -> float:
    """A size x size grid's square side in photo pixels (corners TL, TR, BR, BL)."""
    import cv2
    import numpy as np

    return abs(float(cv2.contourArea(np.float32(corners).reshape(-1, 1, 2))))**0.5 / size


def squares_of_tiles(corners, size: int, groups) -> bool:
    """Whether a grid's squares are not far smaller than the tiles found tile by tile under it (or none lies there).

    groups: kscore.vision.find.loose.LooseKingdom, kingdoms and strays. Every tile in the box is one
    size, so a kingdom's grid shows the squares of the groups it overlaps; a grid whose side is under
    SAME_SQUARE of every such group's pitch is laid across tiles at another scale (a 5x5 grid over 2x2
    tiles of a dotted carpet came out at 0.31-0.45 of them). Only that way: groups found at a fraction
    of the tiles' pitch under a right grid have been seen (tight crops of eval_crops_empty: 34 px
    squares under a 100 px grid), groups at twice it have not.

    With no group under it, the groups anywhere in the photo are its measure: a grid laid over a
    patterned carpet's printed squares beside a kingdom found only in part (`eval_loose.py --close --tilt
    25 --seed 636 --holdout` scene 53: 43 px squares, the kingdom's domino found at 186 px, no castle)
    read one castle there and was scored.
    """
    side = grid_side(corners, size)
    under = [g.pitch for g in groups if _overlap(corners, g.corners) >= OVERLAP_SHARE] or [g.pitch for g in groups]
    return not under or any(side >= SAME_SQUARE * pitch for pitch in under)


def tile_squares(kingdom: Kingdom) -> int:
    return sum(square.terrain is not Terrain.EMPTY for _, square in kingdom.squares())


#: Share of the smaller of two finds' tiles lying inside the other's for the two to be one kingdom read twice.
SAME_PLACE = 0.5


def one_kingdom_per_place(read: list[PhotoKingdom]) -> tuple[list[PhotoKingdom], list[str]]:
    """The finds with each kingdom once, in their order: (kept, what was left out).

    A tile lies in one kingdom, so two finds whose tiles overlap (half the smaller's inside the other's)
    are one kingdom read twice: a grid kept, and the kingdom found tile by tile standing in for a second,
    doubtful grid laid over part of it (a 5x5 grid at half the tiles' size inside the kingdom's own grid).
    The likelier reading is kept (one castle, then the smaller share of its squares marked `?`).
    """
    kept: list[PhotoKingdom] = []
    notes = []
    for found in sorted(read, key=_likelier, reverse=True):
        if any(_overlap(tiles_outline(found), tiles_outline(k)) >= SAME_PLACE for k in kept):
            notes.append(f"{tile_squares(found.kingdom)} tile square(s) read again over a kingdom already read: "
                         "not scored twice")
            continue
        kept.append(found)
    return [k for k in read if any(k is x for x in kept)], notes


def _castle_in_doubt(kingdom: Kingdom) -> bool:
    """Whether the kingdom reads exactly one castle, marked `?`."""
    castles = kingdom.castles()
    return len(castles) == 1 and kingdom[castles[0]].uncertain


def _likelier(found: PhotoKingdom) -> tuple:
    """How likely a find is a kingdom read right: exactly one castle first, then fewest squares marked `?` per tile."""
    kingdom = found.kingdom
    return (len(kingdom.castles()) == 1, -len(kingdom.uncertain()) / max(1, tile_squares(kingdom)))


def tiles_outline(found: PhotoKingdom):
    """Where a find's tiles lie in the photo (TL, TR, BR, BL): its grid, or the extent of a kingdom found tile by
    tile (in the top left of its frame; the rest of the frame is table, where another kingdom may lie)."""
    import numpy as np

    if found.extent is None:
        return np.float32(found.corners)
    size, (rows, cols) = found.kingdom.size, found.extent
    return _block_corners(found.corners, (cols, rows), (size, size))


def not_kingdoms(read: list[PhotoKingdom]) -> tuple[list[PhotoKingdom], list[str]]:
    """The finds the box rules out as kingdoms, when the photo shows a real one: (kept, what was left out).

    A player's kingdom is exactly one castle with dominoes around it, and every
    tile is the same size. So once a find reads exactly one castle (an anchor),
    a find beside it whose squares are far from the anchor's in size (a small
    grid laid across two strays, read as five castles or none), that holds
    fewer tiles than a castle and a domino (a stray read as a castle), that
    holds no more tiles than stray dominoes can (DRAFT_LINE_SQUARES) and reads
    its castle in doubt beside an anchor holding more than twice that (strays
    with a square read as a castle: each round every player lays a domino, so
    one game's kingdoms differ by a few discards, not by half; a castle read
    surely keeps a small kingdom, and beside a smaller anchor, a kingdom of the
    first rounds, strays read as castled may be the larger), or that was found
    tile by tile and reads several castles is not scored, and said so. A grid
    (a neat square block, kscore.vision.find.localise) reading no castle or
    several beside a kingdom is kept: on photos of several kingdoms that is a
    real kingdom whose castle was misread more often than not (eval_synthetic
    --score lost one of 154). With no anchor every find is kept: a lone
    kingdom whose castle was misread is still scored.
    """
    anchors = [k for k in read if len(k.kingdom.castles()) == 1 and tile_squares(k.kingdom) >= LEAST_TILES]
    if not anchors:
        return read, []
    surest = max(anchors, key=lambda k: tile_squares(k.kingdom))
    most, side = tile_squares(surest.kingdom), square_side(surest)
    kept, notes = [], []
    for found in read:
        castles, tiles = len(found.kingdom.castles()), tile_squares(found.kingdom)
        ratio = square_side(found) / side
        if castles != 1 and found.extent is not None:
            why = f"it reads {castles or 'no'} castle{'s' if castles != 1 else ''} (a kingdom has one)"
        elif tiles < LEAST_TILES:
            why = "it is no more than a domino (a kingdom is a castle and dominoes)"
        elif tiles <= DRAFT_LINE_SQUARES < most / 2 and _castle_in_doubt(found.kingdom):
            why = (f"its {tiles} squares are no more than stray dominoes hold, its castle in doubt, beside a kingdom"
                   f" of {most} (each round every player lays a domino: one game's kingdoms differ by a few discards)")
        elif not SAME_SQUARE <= ratio <= 1 / SAME_SQUARE:
            why = f"its squares are {ratio:.1f} times the kingdom's (tiles are all one size)"
        else:
            kept.append(found)
            continue
        notes.append(f"{tiles} tile square(s) beside the kingdom: not a kingdom, {why}; not scored")
    return kept, notes


#: Share of a grid's squares a kingdom found tile by tile inside it must span to replace it (a 4x4 kingdom
#: in a 5x5 grid spans 64%; fragments of a neat kingdom whose colours the tile mask kept only in part, less).
COVER_SHARE = 0.5
#: A grid's reading this plausible (one castle, at most 2 squares in doubt) is kept without looking
#: for the kingdom tile by tile (which costs as much again as finding the grid).
SURE_READING = (True, -2)


#: A grid's castle on a square the recogniser gave under this probability of being one is the decoder's repair,
#: not a sighting, and does not make its reading sure: a 5x5 grid at 0.41 of the tiles' size laid over stray
#: dominoes (tests/test_false_grids.py) had its castle put on a grassland read castle at 1-2%, and was kept
#: without the kingdom beside it ever being looked for. A castle the recogniser missed on a real grid (a
#: standing one seen from a chair) keeps more than this.
SURE_CASTLE = 0.05


#: Tile squares just outside a 5x5 grid from which the kingdom may be larger than it (a 7x7 game's).
BEYOND_SQUARES = 2


#: Share of the smaller of a grid's quad and a kingdom found tile by tile lying in the other, for the one to stand in
#: for the other.
OVERLAP_SHARE = 0.25


#: How far (in squares) a tile's centre may lie from a grid square's, and how far their sizes may differ,
#: for the tile to lie on that square; and the share of a kingdom's tiles that must, for the grid to be
#: its lattice (a loosely laid domino sits up to a quarter square off).
ON_GRID_REACH = 0.3
ON_GRID_SIZE = 0.15
ON_GRID_SHARE = 0.5


def squares_on_grid(grid, size: int, group) -> float:
    """Share of a tile-by-tile kingdom's tiles (kscore.vision.find.loose) that lie on a square of the grid.

    grid: a size x size grid's corners TL, TR, BR, BL (photo pixels). A tile lies on a square
    when its centre is within ON_GRID_REACH of the square's and its side within ON_GRID_SIZE of
    the square's: the same kingdom seen twice lies on the same squares; a grid laid over a few
    dominoes at another pitch or phase (seams through the middle of tiles) does not.
    """
    import cv2
    import numpy as np

    from kscore.vision.find.loose import TILE_SHARE

    quads = [q for p, q in group.cells.items() if group.tile[p] >= TILE_SHARE]
    if not quads:
        return 0.0
    frame = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    to_grid = cv2.getPerspectiveTransform(np.float32(grid), frame)
    on = 0
    for quad in quads:
        q = cv2.perspectiveTransform(np.float32(quad).reshape(-1, 1, 2), to_grid).reshape(4, 2)
        centre = q.mean(axis=0)
        side = 0.5 * (np.linalg.norm(q[1] - q[0] + q[2] - q[3]) + np.linalg.norm(q[3] - q[0] + q[2] - q[1])) / 2
        off = np.abs(centre - (np.floor(centre) + 0.5))
        inside = bool(np.all((centre >= 0) & (centre < size)))
        on += inside and bool(np.all(off <= ON_GRID_REACH)) and abs(side - 1.0) <= ON_GRID_SIZE
    return on / len(quads)


def _overlap(grid, group) -> float:
    """Share of the smaller of the two quads (photo pixels) that lies inside the other."""
    import cv2
    import numpy as np

    a, b = np.float32(grid).reshape(-1, 1, 2), np.float32(group).reshape(-1, 1, 2)
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area) / max(min(float(cv2.contourArea(a)), float(cv2.contourArea(b))), 1e-9)


def _castle_likely(reading) -> bool:
    """The reading's one castle lies on a square the recogniser gave at least SURE_CASTLE of being it."""
    from kscore.vision.read.classes import CASTLE

    castles = reading.kingdom.castles()
    return len(castles) == 1 and float(reading.terrain_probs[castles[0]][CASTLE]) >= SURE_CASTLE


def _plausibility(reading, per_tile: bool = False) -> tuple:
    """How likely a reading is a real kingdom: exactly one castle first, then fewest squares the decoder doubts.

    The squares the doubt bars mark only ask the player to look: counting them would send most
    grids to the tile-by-tile search (tight crops three times slower) for nothing.

    per_tile: the share of its tiles in doubt, for comparing readings of different extents (a count
    favours the smaller: a 7x7 kingdom on a mat lost its last row to a tile-by-tile kingdom of 6x7
    that was as doubtful for its size, 5 squares in doubt of 39 against the grid's 6 of 49).
    """
    kingdom = reading.kingdom
    doubt = reading.decoder_doubts()
    if per_tile:
        doubt /= max(1, tile_squares(kingdom))
    return (len(kingdom.castles()) == 1, -doubt)


def frame_size(extent: tuple[int, int]) -> int:
    """5x5, or 7x7 (Mighty Duel) when the kingdom spans more than 5 squares either way."""
    return 5 if max(extent) <= 5 else 7


def _tile_by_tile(photo, rules: GameRules, models, start: float, partial: tuple, seen: str, readings=None,
                  working=None) -> PhotoGame:
    """The photo read as kingdoms found tile by tile, when no grid frames one; raises NothingRecognisedError.

    partial, seen: what the block finder saw (kingdoms cut by the photo's edge, and its account), for the
    message when no group of tiles reads as a kingdom either. readings: loose_readings(..., with_partial=True)
    when already made; else working: what the block finder made of the photo (Localisation.working).
    """
    readings = readings or loose_readings(photo, _tileset(rules), models, with_partial=True, working=working)
    loose = read_loose_photo(photo, rules, readings, start)
    if loose is not None:
        return loose
    partial = partial or readings[2]  # a kingdom found tile by tile, cut by the photo's edge
    if partial:
        raise NothingRecognisedError(f"{photo.path}: the only kingdom seen is {partial[0].missing}; {RETAKE_ADVICE}")
    raise NothingRecognisedError(f"{photo.path}: no kingdom found ({seen}); {RETAKE_ADVICE}")


def read_loose_photo(photo, rules: GameRules, readings, start: float) -> PhotoGame | None:
    """The kingdoms found tile by tile (kscore.vision.find.loose), read square by square; None when none.

    Every group of tiles not cut by the photo's edge is read; one that reads
    with a castle is a kingdom (smaller than its frame: the rest of the frame
    is empty), one without is a stray (the draft line, discards): said, never
    scored. A group the photo's edge cuts is reported as partial.
    readings: loose_readings(..., with_partial=True) of the photo.
    """
    kingdoms, strays, partial = readings
    notes = [f"{g.squares} tile square(s) apart from the kingdom, with no castle on its tiles: a stray domino "
             "(draft line, discards?), not scored" for _, g, _ in strays]
    if not kingdoms:
        return None
    kingdoms.sort(key=lambda k: _photo_order(k[0], photo.size))
    read = [PhotoKingdom(reading.kingdom, rounded_corners(corners),
                         tuple(reading.changes), group.extent) for corners, group, reading in kingdoms]
    read, left_out = not_kingdoms(read)
    notes += left_out
    names = kingdom_names(Path(photo.path).stem, len(read))
    read = [replace(k, kingdom=replace(k.kingdom, name=name)) for k, name in zip(read, names)]
    return PhotoGame(rules, tuple(k.kingdom for k in read), str(photo.path), {}, found=tuple(read), partial=partial,
                     seconds=time.perf_counter() - start, photo_size=photo.size, notes=tuple(notes))


def _frame_corners(group):
    """The corners of the 5x5 or 7x7 frame a group found tile by tile lies in (its extent in the top left)."""
    size = frame_size(group.extent)
    rows, cols = group.extent
    return _block_corners(group.corners, (size, size), (cols, rows)).astype(float)


def _block_corners(corners, wanted: tuple[int, int], known: tuple[int, int]):
    """The photo corners (TL, TR, BR, BL, float32) of a block of `wanted` (columns, rows) squares sharing
    its top left with the `known` block whose photo corners are `corners`: a kingdom's frame from its
    extent, or its extent from its frame."""
    import cv2
    import numpy as np

    def block(cols: int, rows: int):
        return np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])

    hom = cv2.getPerspectiveTransform(block(*known), np.float32(corners))
    return cv2.perspectiveTransform(block(*wanted).reshape(-1, 1, 2), hom).reshape(4, 2)


def loose_readings(photo, tileset, models=None, with_partial: bool = False, working=None):
    """The groups of tiles in the photo (kscore.vision.find.loose), each read where its squares lie.

    Returns (kingdoms, strays) as lists of (frame corners in original pixels,
    LooseKingdom, BoardReading), plus the partial groups as PartialKingdoms
    when with_partial. A group reading with a castle is a kingdom; without,
    a stray, unless no group has one: then the largest with a castle beside it
    (castle_beside), or else the largest, is the kingdom. working: what localise made of the photo
    (Localisation.working), for the tile finder to start from.
    """
    from kscore.vision.find.loose import find_loose_or_uncut

    groups, uncut = find_loose_or_uncut(photo, working)
    if uncut and cut_by_table(photo, groups, uncut, models):
        groups = [replace(g, cut_refuted=True) for g in uncut]
    kingdoms, strays = [], []
    for group in (g for g in groups if not g.partial):
        reading = group_reading(photo, group, tileset, models)
        (kingdoms if reading.kingdom.castles() else strays).append((_frame_corners(group), group, reading))
    kingdoms, strays = castles_on_tiles(kingdoms, strays)
    if not kingdoms and strays and not _cut_kingdom_beside(groups, max(g.squares for _, g, _ in strays)):
        # No group read a castle. A flat castle coloured like the table is missed by the tile mask
        # (a castle and one domino found as the domino): the largest group with a castle beside it
        # is the kingdom. Only then: beside a stray of a photo that shows its kingdom, table would
        # be read as a castle for want of one.
        strays.sort(key=lambda k: -k[1].squares)
        for i, (_, group, reading) in enumerate(may_take_a_castle(strays)):
            # A castle and whole dominoes make an odd count of tiles: a group reading an odd count holds its
            # castle, misread (a flat castle read as wheat), or lost it with another square to the tile mask
            # (a castle and a dark mine on a plain table). Only the second keeps it in its frame: a table
            # square read as castle beside a 5x5 group (stone, a patterned cloth) made a 5x5 game's kingdom 6x5.
            odd = tile_squares(reading.kingdom) % 2 == 1
            grown = castle_beside(photo, group, tileset, models, within_frame=odd)
            if grown is not None:
                strays.pop(i)
                kingdoms.append((_frame_corners(grown[0]), *grown))
                break
        else:
            # None (glare, a castle unlike any the recogniser learnt): the largest is the kingdom, and it has
            # a castle. Read again with it put back where the box's likeliest kingdom needs it, marked `?`
            # (a castle read as swamp from a chair: `eval_loose.py --holdout --close --tilt 25 --on dotted --seed 646`
            # scene 40, a 5x4 kingdom then found); where none is likely enough, missing (the score says so).
            corners, group, _ = strays.pop(0)
            kingdoms.append((corners, group, group_reading(photo, group, tileset, models, put_castle_back=True)))
    kingdoms = [with_lost_tiles(photo, k, tileset, models) for k in kingdoms]
    if not with_partial:
        return kingdoms, strays
    partial = tuple(PartialKingdom(rounded_corners(g.corners), g.missing, float(g.pitch))
                    for g in groups if g.partial)
    return kingdoms, strays, partial


def group_reading(photo, group, tileset, models=None, put_castle_back: bool = False):
    """A group found tile by tile (LooseKingdom) read where its cells lie, in its 5x5 or 7x7 frame
    (read.cells.read_cells; put_castle_back: a kingdom reading no castle has it put back)."""
    from kscore.vision.read.cells import read_cells

    return read_cells(photo.image, _cells_in_image(group, photo), group.tile, frame_size(group.extent), tileset, "",
                      models, put_castle_back=put_castle_back)


def _cells_in_image(group, photo) -> dict:
    """A LooseKingdom's cells (original pixels) in the pixels of the photo's decoded image."""
    return {p: q / photo.scale for p, q in group.cells.items()}


def cut_by_table(photo, groups: list, uncut: list, models=None) -> bool:
    """Whether the groups found with the table cut back (find_loose_or_uncut) are the photo's reading: every
    group of find_loose's that the photo's edge cuts is cut where the recogniser sees table, and a whole group
    found with the table cut back holds as many tile squares as it has that read otherwise.

    "Cut by the photo's edge" is a claim about tiles, and the recogniser knows a tile from a carpet's band of
    dots or wedge: the colour model, taught the table on the photo's border, took such a band for tiles and
    joined it to the kingdom up to the edge, and kscore said "the only kingdom seen is cut by the photo's top
    edge" of a kingdom in the middle (`eval_loose.py --close --on rug --glare broad --dominoes 1-12 --seed 132`,
    three of 40 small kingdoms; the squares that band gave read P(empty) 1.00). The claim rests on the tile
    squares near the edge (LooseKingdom.cut_by) and on what the blob met the edge with (edge_met). It fails
    when every square of the blob at the edge reads as table, and each of those tile squares either reads as
    table or has table past it, toward the edge and mostly in view (a kingdom photographed close, its last
    row most of a square from the edge and a band beside it: `--seed 134` scene 20). A forest cut in half by
    the edge and lost by the blob, or left out of the group, is read where the blob met the edge.
    """
    from kscore.vision.find.loose import TILE_SHARE, square_past, squares_at_edge
    from kscore.vision.read.cells import table_probabilities

    cut = [g for g in groups if g.partial]
    if not cut or not all(g.cut_by and g.edge_met for g in cut):
        return False
    as_tiles = 0
    for group in cut:
        cells = _cells_in_image(group, photo)
        past = {p: square_past(cells, p, photo.image.shape) for p in group.cut_by}
        # Read in a frame a square wider all round, so the squares past the group's extent have a place, and
        # rows more below it for the squares where the blob met the edge.
        at_edge = squares_at_edge(group.edge_met, group.pitch, photo.image.shape, photo.scale)
        base = frame_size(group.extent) + 2
        size = base + next(k for k in range(len(at_edge) + 1) if (base + k) * k >= len(at_edge))
        framed = {(r + 1, c + 1): q for (r, c), q in cells.items()}
        framed.update({(r + 1, c + 1): q for (r, c), q, _ in past.values()})
        edge_keys = [(base + i // size, i % size) for i in range(len(at_edge))]
        framed.update(zip(edge_keys, at_edge))
        tiles = [(r + 1, c + 1) for (r, c), t in group.tile.items() if t >= TILE_SHARE]
        table = table_probabilities(photo.image, framed, size, tiles, models)
        if any(table[k] < TABLE_READ for k in edge_keys):
            return False  # a tile where the blob meets the edge: cut indeed
        for (r, c), ((pr, pc), _, in_view) in past.items():
            if table[r + 1, c + 1] < TABLE_READ and (in_view < PAST_IN_VIEW or table[pr + 1, pc + 1] < TABLE_READ):
                return False  # a tile near the edge with tile, or the edge, right past it
        as_tiles = max(as_tiles, sum(table[p] < TABLE_READ for p in tiles))
    return max((g.squares for g in uncut if not g.partial), default=0) >= as_tiles


#: P(empty) from which the recogniser reads a square the tile mask took for a tile as table (cut_by_table).
TABLE_READ = 0.5
#: P(empty) under which a square beside a kingdom reads as one of its lost tiles (with_lost_tiles). Above
#: the bar that marks a square `?` (cells.SEEN_AS_TILE, 0.01) since CLEARLY_TABLE guards it: on the rug a lost
#: mine read 0.011 (held-out rug close 137 scene 6), a lost domino's half 0.011 (tests/data/loose/lost_row_rug.jpg).
#: Held-out rug close 137 and fresh 143: extents wrong 5 -> 2 of 80 scenes; the other dev sets identical.
LOST_TILE_SEEN = 0.05
#: P(empty) over which every other square beside a kingdom must read for it to take the ones read as tile
#: (with_lost_tiles): where some read between, the table is not told from tile there.
CLEARLY_TABLE = 0.5
#: Share of the square past a tile that must be in the photo for its reading to refute a cut there (cut_by_table).
PAST_IN_VIEW = 0.5


def with_lost_tiles(photo, kingdom, tileset, models=None, provisional: bool = False):
    """A kingdom found tile by tile ((frame corners, LooseKingdom, BoardReading)) with the tiles the tile mask
    lost, read again; as it was when none is seen.

    The box's constraint: a kingdom is its castle and whole dominoes, an odd count of tile squares. A dark
    square (a forest, a mine on a dark rug) falls out of the tile mask. At the kingdom's edge it loses a row
    (`eval_loose.py --close --on rug --glare broad --dominoes 1-12 --seed 134` scene 26: a mine with 3 crowns
    lost, 17 points scored 10); inside its extent it is read as table, the recogniser not asked (`--close
    --tilt 25 --on dotted --seed 641` scene 15: a dark forest at 0.02 of its cell tile, lost with the grass
    past it). So the recogniser alone is shown the squares beside its tiles (LooseKingdom.ring, beside the
    cells the mask called tile, and beside those only the recogniser read as tile: a dark forest beside a
    lake the mask was unsure of, `--tilt 25 --seed 630` scene 14) and, inside its extent, the cells the mask
    called table beside a square read as tile. What it reads as tile is taken, at most a domino outward (two
    squares side by side), when the count comes out odd. When it comes out even, what was taken is part of
    what is lost (the near half of a domino laid outward, `--close --seed 601` scene 60): the squares beside
    it are read and the rest must be seen there, or nothing is taken. Where that fails with cells inside, the
    squares outward are tried alone (a lattice astride dark tiles reads several cells inside as tile; a hole
    reads between tile and table).

    Only where every other square shown reads clearly as table: on wood or a patterned cloth the table itself
    can read as tile (`--seed 613` scene 77: a 3x3 kingdom on wood grew to 5x5 over squares of wood when any
    odd total was taken; `--close --seed 618` scene 81, 4x3, grew to 4x5 by an outward "domino" of wood while
    two other squares beside it read P(empty) 0.011, 0.019). And a cell inside overrules the mask only where
    the table beside the kingdom reads as table (two squares at least, all clearly): on wood the recogniser
    read the hole in a 5x5 kingdom as tile (`--close --tilt 25 --seed 629` scenes 6 and 79).
    """
    from kscore.vision.find.loose import TABLE_SHARE, TILE_SHARE
    from kscore.vision.read.cells import table_probabilities

    _, group, reading = kingdom
    frame = frame_size(group.extent)
    # Beside the tiles the mask saw (group.ring) and beside those only the recogniser saw (a lake the mask
    # was unsure of, a dark forest laid past it).
    read_as_tile = [p for p, square in reading.kingdom.squares()
                    if square.terrain is not Terrain.EMPTY and p in group.cells]
    group = replace(group, ring={**_outside_beside(group, read_as_tile, photo.size), **group.ring})
    outward = {p: q for p, q in group.ring.items() if max(_extent_of({**group.cells, p: q})[0]) <= frame}
    beside_read = {q for p in read_as_tile for q in sides_of(p)}
    inside = {p: group.cells[p] for p, t in group.tile.items() if t < TABLE_SHARE and p in beside_read}
    if not outward and not inside:
        return kingdom
    # The squares beside it past its frame are never taken; read too, they say whether the table reads as table.
    beyond = {p: q for p, q in group.ring.items() if p not in outward}
    cells, (rows, cols), (dr, dc) = _moved_in_image({**group.cells, **outward, **beyond}, photo)
    tiles = [(r + dr, c + dc) for (r, c), t in group.tile.items() if t >= TILE_SHARE]
    table = table_probabilities(photo.image, cells, max(rows, cols), tiles, models)
    empty = {p: float(table[p[0] + dr, p[1] + dc]) for p in {**outward, **inside, **beyond}}
    group = replace(group, ring={**group.ring, **inside})  # where _grown finds the squares it takes
    grown = _with_seen(photo, group, {**outward, **inside}, empty, beyond, tileset, models, provisional)
    if grown is None and inside:
        grown = _with_seen(photo, group, outward, empty, beyond, tileset, models, provisional)
    return kingdom if grown is None else grown


def _with_seen(photo, group, candidates: dict, empty: dict, beyond: dict, tileset, models, provisional: bool):
    """with_lost_tiles for one set of candidate squares (row, col) -> quad, `empty` their P(empty) and that of
    the squares `beyond` its frame; None when none is taken."""
    seen = [p for p in candidates if empty[p] < LOST_TILE_SEEN]
    if not seen or any(empty[p] < CLEARLY_TABLE for p in candidates if p not in seen):
        return None  # nothing seen, or the table is not told from tile here (wood, a patterned cloth)
    outward = [p for p in seen if p not in group.cells]
    if len(outward) > 2 or len(outward) == 2 and not _side_by_side(*outward):
        return None  # more than a domino outward (on a pale table, two squares of it read 0.01 and 0.02)
    around = [empty[p] for p in {**candidates, **beyond} if p not in group.cells and p not in seen]
    if len(outward) < len(seen) and not (len(around) >= 2 and min(around) >= CLEARLY_TABLE):
        return None  # the mask is overruled only where the table beside the kingdom reads as table
    if max(_extent_of({**group.cells, **{p: candidates[p] for p in seen}})[0]) > frame_size(group.extent):
        return None  # two squares that each keep it in its frame, but not both
    grown = _grown(group, seen)
    grown_reading = group_reading(photo, grown, tileset, models, put_castle_back=True)
    if len(grown_reading.kingdom.castles()) > 1:
        return None  # a second castle
    taken = (_frame_corners(grown), grown, grown_reading)
    if tile_squares(grown_reading.kingdom) % 2 == 1:
        return taken
    if provisional or len(seen) > 2:
        return None  # an even count the box forbids
    whole = with_lost_tiles(photo, taken, tileset, models, provisional=True)
    return None if whole is taken else whole


def _side_by_side(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two squares share a side (as a domino's two do)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _cut_kingdom_beside(groups: list, stray_squares: int) -> bool:
    """Whether a group the photo's edge cuts holds more tile squares than the largest group reading no castle.

    That group is the kingdom, partly out of the photo (its castle may be too): the dominoes beside it are
    the draft line or discards, never a kingdom. Without this the largest of them was scored, its castle
    missing (`eval_loose.py --cut`: 14 stray dominoes scored beside 40 cut kingdoms).
    """
    return any(g.partial and g.squares > stray_squares for g in groups)


#: Most tile squares stray dominoes lie in: the draft line, one domino per king (four: four players, or two
#: players with two kings each).
DRAFT_LINE_SQUARES = 8


def may_take_a_castle(groups: list) -> list:
    """Of groups reading no castle, largest first ((frame corners, LooseKingdom, BoardReading)), those whose
    square beside may be their kingdom's castle (castle_beside): all, or the largest alone when it holds more
    sure tile squares than stray dominoes can (a draft line). That one is the kingdom, its castle misread or
    hidden, whether or not a castle is found beside it: beside a stray domino, a square of table read as
    castle made the stray the kingdom (`eval_loose.py --holdout --seed 7` scene 38: a 5x5 kingdom of 15 sure
    tiles left out as strays, a domino and a stone square scored).
    """
    return groups[:1] if groups and groups[0][1].squares > DRAFT_LINE_SQUARES else groups


def castles_on_tiles(kingdoms: list, strays: list) -> tuple[list, list]:
    """Groups read with a castle, less those whose castle is table read as one: (kingdoms, strays).

    A castle is a tile, and the box holds one per kingdom. A group whose castle is read on a square the
    tile mask did not keep (left to the reader: grey stone or a dotted carpet beside stray dominoes) is
    stray dominoes when a larger group's castle lies on a square the mask kept. Alone, or beside no such
    group, it stays a kingdom: a flat castle coloured like the table is missed by the mask too.
    """
    sure = [tile_squares(r.kingdom) for _, g, r in kingdoms if _castle_on_tile(g, r)]
    if not sure:
        return kingdoms, strays
    table_castle = [k for k in kingdoms if not _castle_on_tile(k[1], k[2]) and tile_squares(k[2].kingdom) < max(sure)]
    return [k for k in kingdoms if not any(k is t for t in table_castle)], strays + table_castle


def _castle_on_tile(group, reading) -> bool:
    """Whether every castle the group reads lies on a square the tile mask kept as tile."""
    from kscore.vision.find.loose import TILE_SHARE

    castles = reading.kingdom.castles()
    return bool(castles) and all(group.tile.get(p, 0.0) >= TILE_SHARE for p in castles)


#: Share of tile given to a square beside a group the reader is asked about (between loose.TABLE_SHARE
#: and loose.TILE_SHARE: the reader decides whether it is a tile).
MAYBE_TILE = 0.4


def castle_beside(photo, group, tileset, models=None, within_frame: bool = False):
    """A group that reads no castle with the square beside it that reads as one: (grown group, its reading).

    Each kingdom has exactly one castle, a 1x1 tile; a flat printed one can be coloured like the table,
    and the tile mask then keeps the dominoes alone (a castle and one domino found as the domino).
    The squares beside the group's tiles (group.ring, and those past the squares inside it the mask doubted)
    are read with it, left to the reader; when exactly one of them reads as the castle, the group with that
    square is the kingdom. None when none does (a stray domino). within_frame (a group reading an odd count
    of tiles): the castle only on a square beside it that keeps it in its 5x5 or 7x7 frame.
    """
    from kscore.vision.read.cells import read_cells

    inside = _open_beside_tiles(group)  # a castle the mask missed within the extent (a grey castle on stone)
    # The castle may lie beside a square the mask doubted (a dark forest on a patterned cloth, the castle
    # past it across a gap): the ring holds only the squares beside sure tiles, so theirs are added.
    past_doubted = {p: q for p, q in _outside_beside(group, inside, photo.size).items() if p not in group.ring}
    ring = {**past_doubted, **group.ring}
    ring = ring if max(_extent_of({**group.cells, **ring})[0]) <= 7 else {}  # a 7x7 can't grow
    if within_frame:
        frame = frame_size(group.extent)
        ring = {p: q for p, q in ring.items() if max(_extent_of({**group.cells, p: q})[0]) <= frame}
    if not ring and not inside:
        return None
    cells = {**group.cells, **ring}
    tile = {**group.tile, **{p: MAYBE_TILE for p in (*ring, *inside)}}
    moved, extent, shift = _moved_in_image(cells, photo)
    reading = read_cells(photo.image, moved, {(r + shift[0], c + shift[1]): t for (r, c), t in tile.items()},
                         frame_size(extent), tileset, "", models)
    castles = [(r - shift[0], c - shift[1]) for r, c in reading.kingdom.castles()]
    if not castles:
        # Read as table, the likeliest castle is still the castle when, were it a tile, it would be one:
        # a kingdom has one (a grey castle on grey stone, half outside the tile mask, reads empty). Not past a
        # doubted square: there the table itself, read as table, was taken (rug close 146 scene 24).
        places = [p for p in (*ring, *inside) if p not in past_doubted]
        castles = _castle_if_tile(reading.terrain_probs, [(r + shift[0], c + shift[1]) for r, c in places])
        castles = [(r - shift[0], c - shift[1]) for r, c in castles]
    # An odd group's castle was lost with another tile beside it (read here too), not inside its extent's table.
    if len(castles) != 1 or castles[0] not in (*ring, *([] if within_frame else inside)):
        return None
    if castles[0] in ring:
        grown = _grown(replace(group, ring=ring), castles[:1])
    else:
        grown = replace(group, tile={**group.tile, castles[0]: 1.0})
    reading = group_reading(photo, grown, tileset, models)
    return (grown, reading) if len(reading.kingdom.castles()) == 1 else None


def _castle_if_tile(terrain_probs, places) -> list:
    """The one place (of `places`) likeliest a castle among those a castle outranks every other tile terrain at."""
    from kscore.vision.read.classes import CASTLE, EMPTY, TERRAIN_CLASSES

    tiles = [i for i in range(len(TERRAIN_CLASSES)) if i != EMPTY]
    ranked = [(float(terrain_probs[p][CASTLE]), p) for p in places
              if max(tiles, key=lambda i: terrain_probs[p][i]) == CASTLE]
    return [max(ranked)[1]] if ranked else []


def _open_beside_tiles(group) -> list:
    """The group's squares inside its extent not surely tile that share a side with a tile."""
    from kscore.vision.find.loose import TILE_SHARE

    tiles = {p for p, t in group.tile.items() if t >= TILE_SHARE}
    return [(r, c) for (r, c), t in group.tile.items() if t < TILE_SHARE
            and set(sides_of((r, c))) & tiles]


def _extent_of(cells) -> tuple[tuple[int, int], tuple[int, int]]:
    """(rows, cols) the cells span, and the (row, col) shift that moves their first to 0."""
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return (max(rows) - min(rows) + 1, max(cols) - min(cols) + 1), (-min(rows), -min(cols))


def _moved_in_image(cells: dict, photo) -> tuple[dict, tuple[int, int], tuple[int, int]]:
    """A group's cells with squares beside it (ring coordinates, original pixels), moved so their first row and
    column are 0 and in the decoded image's pixels, for reading in one frame: (cells, extent, shift)."""
    extent, (dr, dc) = _extent_of(cells)
    return {(r + dr, c + dc): q / photo.scale for (r, c), q in cells.items()}, extent, (dr, dc)


def _lattice_in_photo(cells):
    """Lattice points ([column, row] pairs) -> photo pixels, through the cells' own corners (a homography)."""
    import cv2
    import numpy as np

    lattice = np.float32([[c + x, r + y] for (r, c) in cells for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))])
    hom, _ = cv2.findHomography(lattice, np.float32([corner for q in cells.values() for corner in q]))
    return lambda pts: cv2.perspectiveTransform(np.float32([pts]), hom)[0].astype(float)


def _lattice_square(place, r: int, c: int):
    """The corners (TL TR BR BL) of lattice square (row r, column c) in the photo, `place` mapping the lattice."""
    return place([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]])


def _outside_beside(group, squares, size: tuple[int, int]) -> dict:
    """The squares outside the group's extent that share a side with one of `squares` and lie wholly in the
    photo (`size`: its width and height): (row, col) -> quad. Past the photo's edge nothing can be read."""
    rows, cols = group.extent
    place = None
    out = {}
    for r, c in squares:
        for rr, cc in sides_of((r, c)):
            if not (0 <= rr < rows and 0 <= cc < cols):
                place = place or _lattice_in_photo(group.cells)
                quad = _lattice_square(place, rr, cc)
                if (quad >= 0).all() and (quad[:, 0] <= size[0]).all() and (quad[:, 1] <= size[1]).all():
                    out[(rr, cc)] = quad
    return out


def _grown(group, squares):
    """The group with more tiles (squares beside it, in ring coordinates), its extent and outline grown."""
    cells = {**group.cells, **{p: group.ring[p] for p in squares}}
    tile = {**group.tile, **{p: 1.0 for p in squares}}
    extent, (dr, dc) = _extent_of(cells)
    cells = {(r + dr, c + dc): q for (r, c), q in cells.items()}
    tile = {(r + dr, c + dc): t for (r, c), t in tile.items()}
    # The grown outline, and the squares of the grown extent no tile reached (table, where the lattice puts them).
    place = _lattice_in_photo(cells)
    rows, cols = extent
    filled = {(r, c) for r in range(rows) for c in range(cols) if (r, c) not in cells}
    for r, c in filled:
        cells[(r, c)], tile[(r, c)] = _lattice_square(place, r, c), 0.0
    # The squares beside the grown kingdom's tiles: those beside it before and those beside the squares taken,
    # outside the grown extent or filled by it (a domino laid outward along the kingdom's side: its far half
    # is inside now).
    ring = {(r + dr, c + dc): q for (r, c), q in group.ring.items()}
    for r, c in ((r + dr, c + dc) for r, c in squares):
        for rr, cc in sides_of((r, c)):
            if (rr, cc) not in ring:
                ring[(rr, cc)] = _lattice_square(place, rr, cc)
    ring = {(r, c): q for (r, c), q in ring.items() if not (0 <= r < rows and 0 <= c < cols) or (r, c) in filled}
    return replace(group, cells=cells, tile=tile, extent=extent, ring=ring,
                   corners=place([[0, 0], [cols, 0], [cols, rows], [0, rows]]))


def photo_for_reading(photo, boards):
    """The photo to cut kingdoms from: decoded again more finely when a kingdom came out too small to read.

    Finding kingdoms needs few pixels; the recogniser reads squares at
    features.CELL (50) px a side. The reduced decode that serves localisation
    (long side >= 1600 px) can leave a kingdom below that when a photo holds
    many (five or six players in one shot), and the far rows of a tilted
    board have fewer pixels than its mean. So when a kingdom's shortest side
    gives under READ_PX_PER_SQUARE, the file is decoded once more at the
    smallest reduction that gives every kingdom that many (or whole). Photos
    decoded whole, and photos with no file behind them, are returned as they are.
    """
    from kscore.vision.geometry import shortest_side
    from kscore.vision.load import PhotoError, largest_reduction, load_photo

    if photo.scale <= 1 or not boards or not Path(photo.path).is_file():
        return photo
    finest = min(shortest_side(b.corners) / b.size for b in boards)  # px per square in the original photo
    if finest / photo.scale >= READ_PX_PER_SQUARE:
        return photo
    reduction = largest_reduction(finest, READ_PX_PER_SQUARE)
    if reduction >= photo.scale:
        return photo
    try:
        return load_photo(photo.path, reduction=reduction)
    except PhotoError:  # it decoded a moment ago; keep what we have
        return photo


#: features.CELL (50 px per square, the scale squares are read at) and a margin.
READ_PX_PER_SQUARE = 64


def settled_grid(photo, corners, size: int, stay=()):
    """A grid's board image at 100 px a square, each square cut where its print lies near its regular cell
    (kscore.vision.find.settle: a kingdom laid by hand); each square's shift from it (size, size, 2),
    (dx, dy) in squares; and the grid rectified with a margin round it with each square's quad there.
    stay: the squares (row, col) kept in their regular cells."""
    from kscore.vision.find.rectify import SQUARE_PX, rectify
    from kscore.vision.find.settle import MARGIN, cut_squares, square_quads, square_shifts

    wide = rectify(photo, corners, size, margin=MARGIN)
    shifts = square_shifts(wide, size, SQUARE_PX)
    for p in stay:
        shifts[p] = 0.0
    quads = square_quads(wide.shape[:2], size, SQUARE_PX, shifts)
    return cut_squares(wide, size, SQUARE_PX, shifts), shifts / SQUARE_PX, (wide, quads)


def read_board_in_photo(photo, corners, size: int, tileset, name: str, models=None, occlusion: bool = True,
                        image=None, table=frozenset(), crowns=None):
    """One kingdom's grid in the photo -> its BoardReading (rectified, read, decoded).

    occlusion: squares a standing castle hides from this camera are read again
    as unseen (kscore.vision.find.occlusion) and marked `?`. image: the board image
    to read (default: the grid rectified, each square in its regular cell). table: squares read as
    empty whatever they look like (the tile mask's verdict, loose.grid_tables). crowns: the squares'
    P(0..3 crowns) counted elsewhere (settled_reading), instead of on `image`.
    """
    from kscore.vision.find.occlusion import hidden_squares
    from kscore.vision.find.rectify import rectify
    from kscore.vision.read.reader import read_board, read_with_unseen

    image = rectify(photo, corners, size) if image is None else image
    reading = read_board(image, size, tileset, name, table=table, crowns=crowns,
                         **({"models": models} if models is not None else {}))
    if not occlusion:
        return reading
    # A standing castle can read as a second castle on the squares it hides:
    # the real one is the castle whose hidden squares hold all the others.
    castles = reading.kingdom.castles()
    for castle in castles:
        unseen = hidden_squares(corners, size, castle, photo.size)
        if unseen and set(castles) - {castle} <= set(unseen):
            return read_with_unseen(reading, unseen, tileset, name)
    return reading


def reading_path(photo_path: Path | str) -> Path:
    """Where the reading of a photo is written: beside it, `photo.kingdom`.

    `photo.jpg.kingdom` when another photo of the same name is beside it
    (photo.jpg and photo.png): the second reading would find the first's file,
    take it for the player's corrections, and never be written.
    """
    path = Path(photo_path)
    try:
        twins = [p for p in path.parent.iterdir() if p.stem == path.stem and p.name != path.name
                 and is_image(p)]
    except OSError:  # an unlistable folder: the plain name, whose write reports any problem
        twins = []
    return path.with_name(path.name + ".kingdom") if twins else path.with_suffix(".kingdom")


def save_reading(game: Game, photo_path: Path | str, force: bool = False) -> str:
    """Write what was read beside the photo for the player to correct; return what was done.

    Never overwrites an existing file (it may hold the player's corrections)
    unless `force`; then the old one is kept as `<name>.kingdom.bak`.
    """
    target = reading_path(photo_path)
    names = [k.name for k in game.kingdoms]
    shown = Path(photo_path).name.replace("\r", " ").replace("\n", " ")  # a newline in the name would end the comment
    text = ("# read from " + shown + ": fix any square, `?` marks unsure ones, then run kscore on "
            "this file (or on the photo again: this file wins over the photo; --reread scores the photo)\n"
            f"# rename a player: change [{names[0]}] to their name, like [Anna] "
            "(or: kscore PHOTO --names " + ",".join(["Anna", "Ben", "Carla", "Dan", "Eve", "Finn"][: len(names)]) + ")\n")
    text += write_game(Game(game.rules, game.kingdoms, str(target)))
    try:
        if target.exists() and not force:
            if target.read_text(errors="replace").split("\n", 2)[-1] == text.split("\n", 2)[-1]:
                return f"{target} holds this reading already"
            return (f"{target} already exists (it may hold your corrections): not overwritten; --force replaces it. "
                    f"The scores shown are read from the photo again: `kscore {target}` scores that file")
        kept = back_up(target)
        write_whole(target, lambda part: part.write_text(text))
    except OSError as error:  # a read-only folder or file, a name too long: the score is still shown
        return f"cannot write {target}: {error.strerror or error}; the reading is not saved"
    if kept:
        return f"wrote {target} ({kept}); edit it and run `kscore {target}` to rescore"
    return f"wrote {target}: edit it and run `kscore {target}` to rescore"


def write_whole(path: Path, write) -> None:
    """write(part) writes a sibling file, which then replaces `path` in one step: a Ctrl-C or a
    full disk never leaves half a file (a truncated reading would pass for the player's edits).
    The part keeps the suffix (OpenCV picks the image type by it)."""
    import os

    if _special(path):  # --csv /dev/stdout, a pipe: written to, never replaced
        write(path)
        return
    part = path.with_name(f".kscore-part-{os.getpid()}{path.suffix}")  # short: any name that fits, fits
    try:
        write(part)
        os.replace(part, path)
    finally:
        if part.exists():
            part.unlink()


def _special(path: Path) -> bool:
    """Something that exists but is no regular file (a device such as /dev/stdout, a named pipe)."""
    return path.exists() and not path.is_file()


def back_up(path: Path) -> str:
    """Before a file is replaced, keep it as `<name>.bak`; says so ("" when there was nothing to keep).

    A `.bak` already there holding something else (the corrections an earlier
    --force kept) is never replaced: the copy goes to `<name>.2.bak`, `.3.bak`..."""
    if not path.exists() or _special(path):  # /dev/stdout, a pipe: nothing to keep (reading one would block)
        return ""
    data = path.read_bytes()
    backup, number = path.with_name(path.name + ".bak"), 1
    while backup.exists() and backup.read_bytes() != data:
        number += 1
        backup = path.with_name(f"{path.name}.{number}.bak")
    write_whole(backup, lambda part: shutil.copy2(path, part))  # a full disk leaves no 0-byte .bak
    return f"the old one is kept as {backup.name}"


__all__ = ["PhotoGame", "PhotoKingdom", "PartialKingdom", "read_photo", "read_loaded_photo", "save_reading", "back_up",
           "write_whole", "reading_path", "kingdom_names"]
