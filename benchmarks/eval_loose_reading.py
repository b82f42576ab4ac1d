"""Reading alone on synthetic hand-laid kingdoms: every square cut at its TRUE quad.

`benchmarks/eval_loose.py` measures finding and reading together. Here the
finder is left out: each scene of kscore.lab.loose_scenes is read where its
squares truly lie (`LooseScene.quads`), through kscore.vision.read.cells as the
pipeline reads a kingdom found tile by tile (cut_cells, brightness on the tile
squares, the decoder with the box's tile set). A tile square is given as surely
tile, the rest of the frame as table, so what is measured is the recogniser and
the decoder: what is lost here is reading's share of eval_loose's losses.

Printed: tile squares right (terrain, crowns off the castle, both), terrain
right before the decoder, the extent's squares right as eval_loose counts them
(empty squares included), exact scores, wrong scores showing a '?', and the
same by surface, glare (veils over the tiles), light (colour cast) and frame
(5x5, or 7x7 for Mighty Duel). With --list, each square of a lost scene read
wrong: the truth, the reading, the recogniser's top two terrains and its crown
counts, and what the decoder said when it changed it. The
'?' marks are counted twice: as read (the decoder's and the doubt bars') and
with the decoder's alone (the same probabilities decoded without the bars).

--mask: the reader is told what the photo's tile mask says instead of the
truth. Every square of the extent is read, empty ones too (their quads laid on
the lattice through the tile squares' quads), each told its share of the tile
mask find.loose computes on the photo (find.loose.mask_shares: under 0.2 table,
0.6 or more tile, the reader's call between). Printed too: the tile-or-table
confusion (tile squares read as table, table squares read as tile) by surface
and by the mask's band, and the squares just outside the extent the mask calls
surely tile (where a found kingdom would grow). That is the tile-or-table call
inside the kingdom's frame, apart from finding.

--close and --tilt DEG draw the scenes eval_loose.py draws with them (the same seed, the same scenes: a
kingdom photographed close; from a chair), so its losses there split into reading's and finding's.
Measured on 2026-12-06 (main 11605c6, held-out fit /tmp/ho18, --scenes 100 --seed 629 --close), exact of
100: straight down 94 told the truth, 94 told the tile mask; from a chair (--tilt 25) 94 and 92 (12 tile
squares on the dotted carpet the mask calls table). Neither the reader nor the tile mask loses much from a
chair: at the same true quads told what the finder's own cells called tile or table, 75 of the 96 found
read exact, and 64 at the finder's cells (eval_loose_cells.py --close --tilt 25). From a chair it is the
cells: where they lie, and the tile-or-table calls and extent read at them. Framed wider (--seed 630 --tilt
25, ~70 px a square, 76 exact end to end) the mask loses more: 93 told the truth, 86 told the tile mask (22
tile squares it calls table).

--holdout: the recogniser is fitted (`train.fit_models`, boards + the first
--phone-per-class phone squares of each label) without every 3rd kingdom of the
boards, the split eval_loose --holdout uses, and the scenes are built from
those kingdoms' squares only; flat castles come from phone castles it never saw.
--save-models DIR keeps that fit, --models FILE reads with a saved one.

    python benchmarks/eval_loose_reading.py --scenes 40 --seed 2
    python benchmarks/eval_loose_reading.py --scenes 40 --seed 2 --holdout --save-models /tmp/holdout
    python benchmarks/eval_loose_reading.py --scenes 100 --seed 13 --holdout --models /tmp/ho12/recognition.npz --mask
    python benchmarks/eval_loose_reading.py --scenes 100 --seed 629 --holdout --models FILE --close --tilt 25 --mask
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

from kscore.app.pipeline import frame_size  # noqa: E402
from kscore.game.kingdom import Terrain, square_name  # noqa: E402
from kscore.game.tileset import TILESETS  # noqa: E402
from kscore.lab.evaluate_squares import MarkTally  # noqa: E402
from kscore.lab.holdout import add_scene_arguments, scene_bank  # noqa: E402
from kscore.lab.loose_scenes import GLARES, MORE_SURFACES, SURFACES, make_loose_scene  # noqa: E402
from kscore.lab.measures import kingdom_points  # noqa: E402
from kscore.vision.find.loose import TABLE_SHARE, TILE_SHARE, mask_shares  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402
from kscore.vision.read.cells import CELL_DECODING, read_cells  # noqa: E402
from kscore.vision.read.reader import decode_probabilities  # noqa: E402
from kscore.vision.read.classes import TERRAIN_CLASSES  # noqa: E402
from eval_loose import add_camera_arguments, camera_label  # noqa: E402


class Tally:
    """Counts for one slice of the scenes."""

    def __init__(self) -> None:
        self.scenes = self.exact = self.tiles = self.terrain = self.crowns = self.off_castle = self.both = 0

    def add(self, other: "Tally") -> None:
        for k, v in vars(other).items():
            setattr(self, k, getattr(self, k) + v)

    def line(self) -> str:
        return (f"{self.scenes:>4} {self.tiles:>6} {self.terrain / max(self.tiles, 1):>8.1%}"
                f" {self.crowns / max(self.off_castle, 1):>8.1%} {self.both / max(self.tiles, 1):>8.1%}"
                f" {self.exact:>4}/{self.scenes:<3}")


class Confusion:
    """Tile or table as read against the truth, over the extent's squares."""

    def __init__(self) -> None:
        self.tiles = self.tile_as_table = self.table = self.table_as_tile = 0

    def add(self, tile: bool, read_tile: bool) -> None:
        if tile:
            self.tiles += 1
            self.tile_as_table += not read_tile
        else:
            self.table += 1
            self.table_as_tile += read_tile

    def line(self) -> str:
        return f"tile read as table {self.tile_as_table:>3}/{self.tiles:<5} table read as tile {self.table_as_tile:>3}/{self.table}"


def mask_band(share: float) -> str:
    """Which of the reader's three cases the mask's share puts a square in."""
    return "table" if share < TABLE_SHARE else "tile" if share >= TILE_SHARE else "reader's call"


def lattice_quads(quads: dict, rows: int, cols: int, ring: bool = False) -> dict:
    """Quads (image pixels) of every square of the rows x cols extent, those not in `quads` (empty squares) laid
    on the lattice through the given ones (a homography from lattice corners to their corners); with `ring`,
    only the squares just outside the extent, one square all round."""
    import cv2

    lattice = np.float32([[c + x, r + y] for (r, c) in quads for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))])
    hom, _ = cv2.findHomography(lattice, np.float32([corner for q in quads.values() for corner in q]))

    def place(r: int, c: int) -> np.ndarray:
        pts = np.float32([[[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]]])
        return cv2.perspectiveTransform(pts, hom)[0].astype(np.float64)

    if ring:
        return {(r, c): place(r, c) for r in range(-1, rows + 1) for c in range(-1, cols + 1)
                if not (0 <= r < rows and 0 <= c < cols)}
    return {(r, c): quads[(r, c)] if (r, c) in quads else place(r, c)
            for r in range(rows) for c in range(cols)}


def wrong_squares(rows, kingdom, reading) -> list[str]:
    """One line per square of the extent read wrong: the truth, what was read (`?` if marked), the
    recogniser's two likeliest terrains and its crown counts (the terrain probabilities the decoder was
    given), and the decoder's sentence when it changed the square."""
    lines = []
    for r, row in enumerate(rows):
        for c, sq in enumerate(row):
            read = kingdom[(r, c)]
            if (read.terrain, read.crowns) == (sq.terrain, sq.crowns):
                continue
            terrain, crowns = reading.terrain_probs[r, c], reading.crown_probs[r, c]
            first, second = np.argsort(terrain)[::-1][:2]
            said = [ch for ch in reading.changes if ch.startswith(square_name((r, c)) + ":")]
            lines.append(f"{square_name((r, c))}: truth {sq.terrain.value} {sq.crowns}, read {read.terrain.value}"
                         f" {read.crowns}{' ?' if read.uncertain else ''}; terrain {TERRAIN_CLASSES[first].value}"
                         f" {terrain[first]:.2f}, {TERRAIN_CLASSES[second].value} {terrain[second]:.2f}; crowns 0-3"
                         f" {' '.join(f'{p:.2f}' for p in crowns)}{'; decoder: ' + said[0].split(': ', 1)[1] if said else ''}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_scene_arguments(ap, seed=2, holdout_help="recogniser fitted without the scenes' kingdoms")
    ap.add_argument("--overlapping", action="store_true", help="the scenes as drawn before 2026-12-02, later "
                    "tiles over earlier ones (figures measured before then were on these)")
    ap.add_argument("--on", choices=SURFACES + MORE_SURFACES, metavar="SURFACE",
                    help="draw every scene on this surface (as eval_loose --on: other scenes than the seed's own)")
    ap.add_argument("--glare", choices=GLARES, help="glare on every scene (as eval_loose --glare); by default half "
                    "the scenes get veils")
    ap.add_argument("--painted-glare", action="store_true", help="glare painted over the print as the scenes drew it "
                    "until 2026-12-02 (main at 3b7cdb0), not light added over it")
    ap.add_argument("--mask", action="store_true", help="tell the reader the photo's tile mask (find.loose), not the "
                    "truth, over every square of the extent; print the tile-or-table confusion")
    ap.add_argument("--list", action="store_true", help="one line per scene not exact, and one per square of it "
                    "read wrong (the recogniser's top two terrains, its crown counts, the decoder's change)")
    add_camera_arguments(ap)
    args = ap.parse_args(argv)
    if not (args.data / "kingdomino").is_dir():
        print(f"no such folder: {args.data / 'kingdomino'}", file=sys.stderr)
        return 2
    models, bank = scene_bank(args.data, args.holdout, args.models, args.save_models, args.phone_per_class)
    tileset = TILESETS["kingdomino"]
    rng = np.random.default_rng(args.seed)
    total = Tally()
    slices: dict = collections.defaultdict(Tally)
    raw_terrain = extent_right = extent_squares = flagged = wrong = 0
    marks = MarkTally()  # over the extent's squares, empty ones too
    decoder_marks = MarkTally()  # the same, marked by the decoder alone (no bars)
    decoder_flagged = 0
    times = []
    confusion: dict = collections.defaultdict(Confusion)  # by surface, by the mask's band, and "all"
    grows = 0  # squares just outside the extent the mask calls surely tile
    for s in range(args.scenes):
        scene = make_loose_scene(bank, rng, surface=args.on, glare=args.glare, overlapping=args.overlapping,
                                 painted_glare=args.painted_glare or None, close=args.close, tilt=args.tilt)
        rows, cols = len(scene.rows), len(scene.rows[0])
        size = frame_size((rows, cols))
        quads, told = scene.quads, {p: 1.0 for p in scene.quads}
        if args.mask:
            quads = lattice_quads(scene.quads, rows, cols)
            ring = lattice_quads(scene.quads, rows, cols, ring=True)
            photo = Photo(Path(f"loose{s}.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
            told = mask_shares(photo, {**quads, **ring}, scene.pitch)
            grows += sum(told.pop(p) >= TILE_SHARE for p in ring)
        start = time.perf_counter()
        reading = read_cells(scene.image, quads, told, size, tileset, models=models)
        times.append(time.perf_counter() - start)
        got = reading.kingdom
        by_decoder = decode_probabilities(reading.terrain_probs, reading.crown_probs, tileset, settings=CELL_DECODING)[0]
        one = Tally()
        one.scenes = 1
        for r, row in enumerate(scene.rows):
            for c, sq in enumerate(row):
                read = got[(r, c)]
                marks.add(sq, read)
                decoder_marks.add(sq, by_decoder[(r, c)])
                extent_squares += 1
                extent_right += (read.terrain, read.crowns) == (sq.terrain, sq.crowns)
                if args.mask:
                    pair = (sq.terrain is not Terrain.EMPTY, read.terrain is not Terrain.EMPTY)
                    for key in ("all", f"surface {scene.surface}", f"mask says {mask_band(told[(r, c)])}"):
                        confusion[key].add(*pair)
                if sq.terrain is Terrain.EMPTY:
                    continue
                terrain_ok = read.terrain is sq.terrain
                crowns_ok = read.crowns == sq.crowns
                one.tiles += 1
                one.terrain += terrain_ok
                raw_terrain += TERRAIN_CLASSES[int(np.argmax(reading.terrain_probs[r, c]))] is sq.terrain
                if sq.terrain is not Terrain.CASTLE:
                    one.off_castle += 1
                    one.crowns += crowns_ok
                one.both += terrain_ok and crowns_ok
        points = kingdom_points(got)
        one.exact = points == scene.score
        if not one.exact:
            wrong += 1
            flagged += bool(got.uncertain())
            decoder_flagged += bool(by_decoder.uncertain())
            if args.list:
                print(f"  scene {s} ({scene.surface}, {scene.light}, glare {scene.glare},"
                      f" {len(scene.rows)}x{len(scene.rows[0])}): truth {scene.score}, read {points},"
                      f" squares {one.both}/{one.tiles}")
                for line in wrong_squares(scene.rows, got, reading):
                    print("    " + line)
        total.add(one)
        for key in (f"surface {scene.surface}", f"glare {'veiled' if scene.glare else 'none'}", f"light {scene.light}",
                    f"frame {size}x{size}"):
            slices[key].add(one)
    n = args.scenes
    kind = "held-out kingdoms" if args.holdout else "shipped models: in-sample squares"
    source = "the photo's tile mask" if args.mask else "the truth"
    print(f"loose scenes read at their true quads: {n} (seed {args.seed}, {kind}{camera_label(args)}), told tile or "
          f"table by {source}")
    print(f"tile squares right:  terrain {total.terrain / total.tiles:.1%} (before the decoder"
          f" {raw_terrain / total.tiles:.1%}), crowns {total.crowns / max(total.off_castle, 1):.1%},"
          f" both {total.both}/{total.tiles} = {total.both / total.tiles:.1%}")
    print(f"extent squares right (as eval_loose counts, empty ones too): {extent_right}/{extent_squares}"
          f" = {extent_right / extent_squares:.1%}")
    print(f"exact scores:        {total.exact}/{n} = {total.exact / n:.1%}")
    print(f"wrong scores with a '?' square: {flagged}/{wrong} (the decoder's marks alone: {decoder_flagged}/{wrong})")
    print(f"extent {marks.line()}")
    print(f"  the decoder's alone: {decoder_marks.line()}")
    print(f"reading time per scene: median {np.median(times) * 1000:.0f} ms")
    print(f"{'':<18}{'scenes':>6} {'tiles':>6} {'terrain':>8} {'crowns':>8} {'both':>8} exact")
    for key in sorted(slices):
        print(f"{key:<20}" + slices[key].line())
    if args.mask:
        print(f"tile or table, the reader told the photo's tile mask ({grows} squares just outside the extent"
              " the mask calls surely tile):")
        for key in ["all"] + sorted(k for k in confusion if k != "all"):
            print(f"  {key:<24}" + confusion[key].line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
