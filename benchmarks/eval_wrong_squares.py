"""Where the wrong squares of found kingdoms come from, and whether the player is shown them ('?').

For every kingdom found (eval_loose's scenes, or eval_crops_empty's crops with
--crops), each square is matched to the truth at the reading's best turn and
placement, as those benchmarks count squares right. A wrong square is told by

  kind    table->tile (the truth is empty), tile->empty, terrain, crowns
  source  what the reader was given for that cell: "grid" (a whole grid read,
          no tile mask), or the tile mask's share of the cell in a kingdom read
          tile by tile: "forced empty" (under loose.TABLE_SHARE, or no cell),
          "between" (the reader's call), "surely tile" (loose.TILE_SHARE or more)

and whether it is marked '?'. Right squares marked '?' are counted too (a page
of '?' is no help). The scenes and crops are drawn as eval_loose and
eval_crops_empty draw them, so a seed names the same scenes there.

    python benchmarks/eval_wrong_squares.py --scenes 40 --seed 2
    python benchmarks/eval_wrong_squares.py --crops          # eval_crops_empty's crops, seed 1
    python benchmarks/eval_wrong_squares.py --photos ../shared/data/photos-loose
    python benchmarks/eval_wrong_squares.py --scenes 100 --seed 13 --crowns   # where each miscounted crown lies
    python benchmarks/eval_wrong_squares.py --scenes 100 --seed 13 --holdout --models /tmp/holdout/recognition.npz
    python benchmarks/eval_wrong_squares.py --scenes 100 --seed 636 --close --tilt 25 --holdout --models M   # from a chair

--crowns (eval_loose's scenes only: they know where each square's print truly lies) prints, for every
square whose crowns are miscounted, the path that read it (grid or cells), how far the quad read lies
from the print (its centre, in squares), the counter's count and its top probability, and where each
crown of the print lies in the quad read (u, v: 0..1 inside; the crowns are found by the shipped
crown models on the true print). It also prints, by quartiles, the best template response and the best
candidate-classifier P of each square's crown candidates as read, for the squares whose crowns were
missed against plain squares read right: whether the candidate classifier saw anything there.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

import kscore.app.pipeline as pipeline_module  # noqa: E402
import kscore.vision.read.cell_crowns as cell_crowns_module  # noqa: E402
import kscore.vision.read.cells as cells_module  # noqa: E402
import kscore.vision.read.reader as reader_module  # noqa: E402
from kscore.app.pipeline import read_loaded_photo  # noqa: E402
from kscore.errors import NothingRecognisedError  # noqa: E402
from kscore.game.kingdom import Square, Terrain  # noqa: E402
from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.lab.holdout import scene_bank  # noqa: E402
from kscore.lab.loose_scenes import GLARES, MORE_SURFACES, SURFACES, SquareBank  # noqa: E402
from kscore.lab.measures import kingdom_points  # noqa: E402
from kscore.vision.find.loose import TABLE_SHARE, TILE_SHARE  # noqa: E402
from kscore.vision.read.classes import EMPTY, TERRAIN_CLASSES  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402

KINDS = ("table->tile", "tile->empty", "terrain", "crowns")
SOURCES = ("grid", "forced empty", "between", "surely tile")


def _key(kingdom) -> tuple:
    return kingdom.size, tuple((sq.terrain, sq.crowns, sq.uncertain) for _, sq in kingdom.squares())


class TileShares:
    """Records what the tile mask told read_cells for each kingdom it read (the pipeline imports it when it runs)."""

    def __init__(self) -> None:
        self.by_reading: dict[tuple, dict] = {}
        self.recogniser: dict[tuple, np.ndarray] = {}  # the recogniser's own terrain probabilities, before the mask
        self._read_cells = cells_module.read_cells
        self._cell_probabilities = cells_module.cell_probabilities
        self._last = None
        # The quad (decoded-image pixels) each square was read on and the counter's P(0..3 crowns), per reading.
        self.quads: dict[tuple, dict] = {}
        self.crowns: dict[tuple, np.ndarray] = {}
        self.path: dict[tuple, str] = {}
        # The terrain probabilities the doubt bars are held against (cells: the recogniser and the mask), per reading.
        self.seen: dict[tuple, np.ndarray] = {}
        self._read_board_in_photo = pipeline_module.read_board_in_photo
        cells_module.read_cells = self._recording
        cells_module.cell_probabilities = self._keeping
        pipeline_module.read_board_in_photo = self._recording_grid
        self._settled_grid = pipeline_module.settled_grid
        pipeline_module.settled_grid = self._keeping_shifts
        self._shifts = None
        # Each reading's crown candidates by square: (template response, the candidate classifier's P) of each.
        self.candidates: dict[tuple, list[np.ndarray]] = {}
        self._summaries = reader_module.square_summaries
        self._last_candidates = None
        # The reading's own candidates (a tile path's cells: cell_crowns), not counted_again's recount.
        reader_module.square_summaries = cell_crowns_module.square_summaries = self._keeping_candidates

    def _keeping_candidates(self, candidates, p_crown, size):
        from kscore.vision.read.crowns import square_of

        squares = square_of(candidates, size)
        self._last_candidates = [np.stack([candidates.response[squares == sq], p_crown[squares == sq]], axis=1)
                                 for sq in range(size * size)]
        return self._summaries(candidates, p_crown, size)

    def square_candidates(self, kingdom, position) -> np.ndarray | None:
        """(n, 2) template response and candidate P of the candidates in the square as read (None: not recorded)."""
        got = self.candidates.get(_key(kingdom))
        return None if got is None else got[position[0] * kingdom.size + position[1]]

    def _keeping_shifts(self, *args, **kwargs):
        out = self._settled_grid(*args, **kwargs)
        self._shifts = out[1]
        return out

    def _recording_grid(self, photo, corners, size, *args, **kwargs):
        import cv2

        reading = self._read_board_in_photo(photo, corners, size, *args, **kwargs)
        key = _key(reading.kingdom)
        hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [size, 0], [size, size], [0, size]]),
                                          np.float32(np.asarray(corners) / photo.scale))
        # A board cut by settled_grid (passed as image=) was cut with the shifts it gave last.
        settled = kwargs.get("image") is not None and self._shifts is not None
        shifts = self._shifts if settled else np.zeros((size, size, 2))
        # Each square where the grid read it (pipeline.settled_grid: its regular cell, moved to its print).
        self.quads[key] = {(r, c): cv2.perspectiveTransform(np.float32([[[c + x + shifts[r, c, 0], r + y + shifts[r, c, 1]]
                                                                        for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))]]),
                                                            hom)[0] for r in range(size) for c in range(size)}
        self.crowns[key], self.path[key] = reading.crown_probs, "grid"
        self.candidates[key] = self._last_candidates
        self.seen[key] = reading.terrain_probs
        return reading

    def _keeping(self, *args, **kwargs):
        out = self._cell_probabilities(*args, **kwargs)
        self._last = tuple(a.copy() for a in out)  # read_cells changes its copy in place
        return out

    def _recording(self, image, cells, tile, size, *args, **kwargs):
        reading = self._read_cells(image, cells, tile, size, *args, **kwargs)
        key = _key(reading.kingdom)
        self.by_reading[key] = {(r, c): tile.get((r, c), 0.0) if (r, c) in cells else 0.0
                                for r in range(size) for c in range(size)}
        self.recogniser[key] = self._last[0].copy()
        seen, unused_crowns = self._last[0].copy(), self._last[1].copy()
        cells_module.apply_mask(seen, unused_crowns, tile, **{k: v for k, v in kwargs.items() if k.startswith("surely")})
        self.seen[key] = seen
        self.quads[key], self.crowns[key], self.path[key] = dict(cells), reading.crown_probs, "cells"
        self.candidates[key] = self._last_candidates
        return reading

    def recogniser_empty(self, kingdom, position) -> float | None:
        """The recogniser's own P(empty) at the square (a kingdom read tile by tile), before the tile mask."""
        probs = self.recogniser.get(_key(kingdom))
        return None if probs is None else float(probs[position][EMPTY])

    def probabilities(self, kingdom, position, truth: Square) -> str:
        """The classifiers at the square: terrain (top class, its p, the truth's p) and crowns (top count, its p)."""
        key = _key(kingdom)
        terrain, crowns = self.seen.get(key), self.crowns.get(key)
        if terrain is None or crowns is None:
            return "(probabilities not recorded)"
        t, k = terrain[position], crowns[position]
        top = TERRAIN_CLASSES[int(np.argmax(t))].name.lower()
        truth_p = t[TERRAIN_CLASSES.index(truth.terrain)] if truth.terrain in TERRAIN_CLASSES else float("nan")
        return (f"(terrain {top} {t.max():.3f}, truth {truth_p:.3f}; crowns {int(np.argmax(k))} {k.max():.3f},"
                f" truth {k[truth.crowns]:.3f})")

    def source(self, kingdom, position) -> str:
        shares = self.by_reading.get(_key(kingdom))
        if shares is None:
            return "grid"
        share = shares.get(position, 0.0)
        return "forced empty" if share < TABLE_SHARE else "surely tile" if share >= TILE_SHARE else "between"


def kind_of(truth: Square, read: Square) -> str | None:
    if (truth.terrain, truth.crowns) == (read.terrain, read.crowns):
        return None
    if truth.terrain is Terrain.EMPTY:
        return "table->tile"
    if read.terrain is Terrain.EMPTY:
        return "tile->empty"
    return "terrain" if truth.terrain is not read.terrain else "crowns"


def best_alignment(truth_rows, kingdom):
    """(squares right, turned kingdom, dr, dc, turns) matching the most truth squares (as extent_squares_right counts)."""
    rows, cols = len(truth_rows), len(truth_rows[0])
    best, grid = None, kingdom
    for turns in range(4):
        n = grid.size
        for dr in range(n - rows + 1):
            for dc in range(n - cols + 1):
                right = sum((grid[(dr + r, dc + c)].terrain, grid[(dr + r, dc + c)].crowns) == (sq.terrain, sq.crowns)
                            for r, row in enumerate(truth_rows) for c, sq in enumerate(row))
                if best is None or right > best[0]:
                    best = (right, grid, dr, dc, turns)
        grid = grid.rotated()
    return best or (0, kingdom, 0, 0, 0)  # a reading smaller than the truth's extent: nothing matched


def _turn_back(position, turns: int, n: int):
    """The position in the kingdom as read of `position` in its `turns`-times rotated copy."""
    r, c = position
    for _ in range(turns):  # Kingdom.rotated: its (r, c) is the unturned (n-1-c, r)
        r, c = n - 1 - c, r
    return r, c


def crowns_of_print(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(n, 2) image points (x, y) of the crowns the shipped crown models find on the print at `quad` (TL TR BR BL).

    The print is read with a square's margin around it (a 3x3 board centred on it), so a crown at its
    edge is seen whole; candidates over 0.5 whose centre lies on the middle square are its crowns.
    """
    import cv2

    from kscore.vision.read.crowns import crown_probability, find_candidates
    from kscore.vision.read.features import CELL, SQUARE_PX, prepare
    from kscore.vision.read.reader import default_models

    models = default_models()
    unit = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.float32(quad))
    side = 3 * SQUARE_PX
    board_to_image = unit @ np.array([[1 / SQUARE_PX, 0, -1], [0, 1 / SQUARE_PX, -1], [0, 0, 1]])
    board = cv2.warpPerspective(image, np.linalg.inv(board_to_image), (side, side), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE)
    prepared = prepare(board, 3)
    candidates = find_candidates(prepared, models.crown_template, 3)
    p = crown_probability(models.candidate, candidates)
    keep = (p > 0.5) & (candidates.ys // CELL == 1) & (candidates.xs // CELL == 1)
    points = np.stack([candidates.xs[keep], candidates.ys[keep]], axis=1).astype(np.float32) * (SQUARE_PX / CELL)
    if not len(points):
        return np.zeros((0, 2), np.float32)
    return cv2.perspectiveTransform(points[None], board_to_image)[0]


def in_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """(n, 2) image points -> their (u, v) in the quad's unit square (0..1 inside)."""
    import cv2

    if not len(points):
        return np.zeros((0, 2), np.float32)
    hom = cv2.getPerspectiveTransform(np.float32(quad), np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
    return cv2.perspectiveTransform(np.float32(points)[None], hom)[0]


class Table:
    def __init__(self) -> None:
        self.wrong: collections.Counter = collections.Counter()
        self.marked: collections.Counter = collections.Counter()
        self.right = self.right_marked = 0
        self.wrong_scores = self.wrong_scores_marked = 0
        self.right_by: collections.Counter = collections.Counter()
        # Cells the mask called table (under TABLE_SHARE): (truly a tile?, the recogniser's own P(empty)).
        self.masked_table: list[tuple[bool, float]] = []
        self.details: list[str] = []
        self.crown_lines: list[str] = []  # --crowns: one line per miscounted square
        # Squares of a crowned terrain read right: (truth crowns, read crowns, best response, best P, marked).
        self.crown_squares: list[tuple[int, int, float, float, bool]] = []
        self.probs = False  # --list: each wrong square's probabilities too
        self.show_candidates = False  # --crowns: the candidate classifier on missed crowns and plain squares

    def add_kingdom(self, truth_rows, kingdom, shares: TileShares, truth_points: int, scene=None) -> None:
        """truth_rows: the truth's extent (a whole 5x5 for crops); every square of the reading is judged.

        scene: the LooseScene (with --crowns): where each miscounted square's print and crowns lie is told.
        """
        _, grid, dr, dc, turns = best_alignment(truth_rows, kingdom)
        n = grid.size
        for r in range(n):
            for c in range(n):
                inside = 0 <= r - dr < len(truth_rows) and 0 <= c - dc < len(truth_rows[0])
                truth = truth_rows[r - dr][c - dc] if inside else Square(Terrain.EMPTY)
                read = grid[(r, c)]
                kind = kind_of(truth, read)
                at = _turn_back((r, c), turns, n)
                seen = shares.square_candidates(kingdom, at)
                if seen is not None and truth.terrain is read.terrain and truth.terrain not in (Terrain.EMPTY, Terrain.CASTLE):
                    best = seen.max(axis=0) if len(seen) else np.zeros(2)
                    self.crown_squares.append((truth.crowns, read.crowns, float(best[0]), float(best[1]), read.uncertain))
                source = shares.source(kingdom, at)
                if source == "forced empty" and shares.recogniser_empty(kingdom, at) is not None:
                    self.masked_table.append((truth.terrain is not Terrain.EMPTY, shares.recogniser_empty(kingdom, at)))
                if kind is None:
                    self.right += 1
                    self.right_marked += read.uncertain
                    self.right_by[source] += 1
                    continue
                self.wrong[kind, source] += 1
                self.marked[kind, source] += read.uncertain
                self.details.append(f"{kind} {source}{' ?' if read.uncertain else ''}"
                                    + (f" {shares.probabilities(kingdom, at, truth)}" if self.probs else ""))
                if kind == "crowns" and scene is not None:
                    self.crown_lines.append(self.crown_line(scene, kingdom, shares, at, (r - dr, c - dc), truth, read))
        if kingdom_points(kingdom) != truth_points:
            self.wrong_scores += 1
            self.wrong_scores_marked += bool(kingdom.uncertain())

    @staticmethod
    def crown_line(scene, kingdom, shares: TileShares, at, truth_at, truth: Square, read: Square) -> str:
        key = _key(kingdom)
        quad = shares.quads.get(key, {}).get(at)
        probs = shares.crowns.get(key)
        said = (f"counted {read.crowns} (counter {int(np.argmax(probs[at]))} at {probs[at].max():.3f})"
                if probs is not None else f"counted {read.crowns}")
        head = f"{shares.path.get(key, '?')} {truth.terrain.name.lower()} {truth.crowns}->{read.crowns}{' ?' if read.uncertain else ''}: {said}"
        true_quad = scene.quads.get(truth_at)
        if quad is None or true_quad is None:
            return head + "; quad not recorded"
        off = (np.mean(quad, axis=0) - np.mean(true_quad, axis=0)) / scene.pitch
        places = in_quad(crowns_of_print(scene.image, true_quad), quad)
        where = " ".join(f"({u:.2f},{v:.2f})" for u, v in places)
        inside = int(np.sum(np.all((places >= 0) & (places <= 1), axis=1))) if len(places) else 0
        return (head + f"; quad off the print by ({off[0]:+.2f},{off[1]:+.2f}) sq; print's crowns found {len(places)},"
                f" inside the quad {inside}: {where}")

    def candidate_lines(self) -> list[str]:
        """What the candidate classifier saw on squares of a crowned terrain: missed crowns against plain squares."""
        rows = np.array(self.crown_squares, float).reshape(-1, 5)
        groups = {"crowns missed (truth > read)": rows[:, 0] > rows[:, 1],
                  "plain squares read 0, right": (rows[:, 0] == 0) & (rows[:, 1] == 0),
                  "crowned squares read right": (rows[:, 0] > 0) & (rows[:, 0] == rows[:, 1])}
        out = ["  the square's best candidate (template response; the candidate classifier's P), quartiles:"]
        for name, g in groups.items():
            if not g.any():
                continue
            resp, p = np.percentile(rows[g, 2], [25, 50, 75]), np.percentile(rows[g, 3], [25, 50, 75])
            out.append(f"    {name:30} n={int(g.sum()):4} marked {int(rows[g, 4].sum()):3}  response "
                       + "/".join(f"{v:.2f}" for v in resp) + "  P " + "/".join(f"{v:.3f}" for v in p))
        missed = rows[groups["crowns missed (truth > read)"]]
        if len(missed):
            out.append("    crowns missed, each (response, P, marked): "
                       + " ".join(f"({r:.2f},{q:.3f}{',?' if m else ''})" for r, q, m in missed[:, 2:5]))
        return out

    def lines(self) -> list[str]:
        out = [f"  {'wrong squares (marked/all)':28}" + "".join(f"{s:>14}" for s in SOURCES) + f"{'all':>10}"]
        for kind in KINDS:
            cells = [f"{self.marked[kind, s]}/{self.wrong[kind, s]}" for s in SOURCES]
            total = f"{sum(self.marked[kind, s] for s in SOURCES)}/{sum(self.wrong[kind, s] for s in SOURCES)}"
            out.append(f"  {kind:28}" + "".join(f"{x:>14}" for x in cells) + f"{total:>10}")
        wrong, marked = sum(self.wrong.values()), sum(self.marked.values())
        out.append(f"  all wrong squares marked: {marked}/{wrong}; right squares marked: {self.right_marked}/{self.right}"
                   f" = {self.right_marked / max(self.right, 1):.1%}")
        out.append("  right squares by source: " + ", ".join(f"{s} {self.right_by[s]}" for s in SOURCES))
        out.append(f"  wrong scores with a '?': {self.wrong_scores_marked}/{self.wrong_scores}")
        if self.crown_lines:
            out.append("  miscounted crowns (path, truth->read; the counter; the quad read against the print):")
            out += [f"    {line}" for line in self.crown_lines]
        if self.show_candidates and self.crown_squares:
            out += self.candidate_lines()
        if self.masked_table:
            out.append("  cells the mask called table, by the recogniser's own P(empty): truly tile / all")
            edges = [0, 0.01, 0.1, 0.5, 0.9, 0.99, 1.0001]
            for lo, hi in zip(edges, edges[1:]):
                inside = [tile for tile, p in self.masked_table if lo <= p < hi]
                out.append(f"    P(empty) {lo:<5} - {min(hi, 1):<5}: {sum(inside)}/{len(inside)}")
        return out


def loose_kingdoms(args, boards):
    """(truth rows, truth score, photo) for eval_loose's scenes of this seed (--holdout: its held-out scenes)."""
    from eval_loose import drawn_scene

    bank = args.bank or SquareBank.from_boards(boards, args.data / "tiles-phone" / "castle", whole_crowns=True)
    rng = np.random.default_rng(args.seed)
    for s in range(args.scenes):
        scene = drawn_scene(args, bank, rng)
        yield f"scene {s} ({scene.surface})", scene.rows, scene.score, Photo(
            Path(f"loose{s}.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0])), scene


def crop_kingdoms(args, boards):
    """(truth rows, truth score, photo) for eval_crops_empty's crops (its seed 1 by default)."""
    from eval_crops_empty import crops

    for board, change, surface, image, truth in crops(boards, np.random.default_rng(args.seed)):
        rows = tuple(tuple(truth[(r, c)] for c in range(5)) for r in range(5))
        yield f"board {board.board_id} ({change}, {surface})", rows, kingdom_points(truth), Photo(
            Path(f"{board.board_id}.png"), image, image.shape[:2]), None


def photo_kingdoms(args, boards):
    """(truth rows, truth score, photo) for extent-labelled photos (../shared/data/photos-loose's format)."""
    from kscore.lab.dataset import load_extent_items
    from kscore.vision.load import load_photo

    for path, labelled in load_extent_items(args.photos).items():
        yield path.name, labelled[0].rows, labelled[0].score, load_photo(path), None


def main(argv=None) -> int:
    from eval_loose import _count_range, add_camera_arguments, camera_label
    from kscore.lab.dataset import is_extent_format

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data")
    ap.add_argument("--crops", action="store_true", help="eval_crops_empty's crops instead of eval_loose's scenes")
    ap.add_argument("--photos", type=Path, help="extent-labelled photos (e.g. ../shared/data/photos-loose) instead")
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--seed", type=int, help="default: 1 for --crops (eval_crops_empty's), else 2")
    ap.add_argument("--dominoes", type=_count_range, metavar="LO-HI")
    ap.add_argument("--size", type=int, choices=(5, 7))
    ap.add_argument("--on", choices=SURFACES + MORE_SURFACES, metavar="SURFACE")
    ap.add_argument("--glare", choices=GLARES)
    add_camera_arguments(ap)  # --close, --tilt
    ap.add_argument("--overlapping", action="store_true", help="the scenes as drawn before 2026-12-02, later "
                    "tiles over earlier ones (figures measured before then were on these)")
    ap.add_argument("--list", action="store_true", help="one line per wrong square")
    ap.add_argument("--holdout", action="store_true", help="eval_loose --holdout's scenes, read by a fit without "
                    "their kingdoms (--models: a saved one; else fitted now, minutes)")
    ap.add_argument("--models", type=Path, help="read with this model file (with --holdout: a saved holdout fit)")
    ap.add_argument("--crowns", action="store_true", help="where each miscounted crown lies against the quad read "
                    "(eval_loose's scenes only)")
    ap.set_defaults(painted_glare=False)  # eval_loose's drawn_scene asks; these scenes are drawn as today
    args = ap.parse_args(argv)
    args.seed = args.seed if args.seed is not None else (1 if args.crops else 2)
    if args.photos and not (args.photos / "labels.json").is_file():
        ap.error(f"--photos {args.photos}: no labels.json there")
    if args.photos and not is_extent_format(args.photos):
        ap.error(f"--photos {args.photos}: its photos are labelled by corners, not by their extent (`rows`, `score`, "
                 "as ../shared/data/photos-loose); `kscore eval` reads both")
    boards = load_boards(args.data / "kingdomino")
    models, args.bank = None, None
    if args.holdout or args.models:
        if args.photos or args.crops:
            ap.error("--holdout and --models read eval_loose's scenes only")
        models, args.bank = scene_bank(args.data, args.holdout, args.models)
    shares = TileShares()
    table = Table()
    table.probs = args.list
    table.show_candidates = args.crowns
    found = 0
    source = photo_kingdoms if args.photos else crop_kingdoms if args.crops else loose_kingdoms
    for name, rows, points, photo, scene in source(args, boards):
        try:
            read = [k.kingdom for k in read_loaded_photo(photo, models=models).found]
        except NothingRecognisedError:
            read = []
        squares = sum(len(row) for row in rows)
        scored = [(best_alignment(rows, k)[0], i) for i, k in enumerate(read)]
        if not scored or max(scored)[0] < squares / 2:
            continue
        found += 1
        kingdom = read[max(scored)[1]]
        before, crowns_before = len(table.details), len(table.crown_lines)
        table.add_kingdom(rows, kingdom, shares, points, scene if args.crowns else None)
        if args.crowns and len(table.crown_lines) > crowns_before:
            table.crown_lines[crowns_before:] = [f"{name}: {line}" for line in table.crown_lines[crowns_before:]]
        if args.list and len(table.details) > before:
            print(f"  {name}: score {kingdom_points(kingdom)} vs {points}, {len(kingdom.uncertain())} '?';"
                  f" wrong: {', '.join(table.details[before:])}")
    scenes = f"eval_loose scenes: {args.scenes} (seed {args.seed}{camera_label(args)})"
    what = f"photos in {args.photos}" if args.photos else f"eval_crops_empty's crops (seed {args.seed})" if args.crops else scenes
    print(f"{what}; kingdoms found {found}, exact {found - table.wrong_scores}")
    print("\n".join(table.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
