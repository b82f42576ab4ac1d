"""Where the finder cuts a hand-laid kingdom's squares, and what that costs the reading.

`eval_loose.py` measures finding and reading together, `eval_loose_reading.py`
reading alone at the true quads. This one sits between them: each scene of
kscore.lab.loose_scenes is found by kscore.vision.find.loose, and its group of
tiles (the one matching most of the kingdom's tiles) is read twice through
kscore.vision.read.cells with the same shares of tile and the same frame: once
at the cells the finder fitted, once with each matched cell replaced by its
tile's true quad. The difference in exact scores is what the cells' placement
costs; what the true quads still lose is the reader's (and the tile-or-table
calls').

Printed: how the fitted cells lie against their tiles (side ratio, centre offset
in squares, their median and 90th percentile), exact scores at the fitted cells
and at the true quads, and with --shift S, exact scores at the true quads moved
by a random offset (normal, S squares on each axis): how sensitive the reader
is to where a square is cut. --list names the scenes the two readings score
differently. --split also decodes each kingdom from the crowns counted at the
fitted cells with the terrain read at the true quads, and the other way round:
which of the two readings the cells' placement costs. --scale K reads every
scene as eval_loose.py --scale does (resized by K, saved again as a JPEG), its
true quads scaled alike: what fewer pixels a square cost the reader itself. --close and --tilt DEG draw the
scenes eval_loose.py draws with them (a kingdom photographed close; from a chair). --unmatched counts the
true tiles no tile cell matched, by kind: nearest a cell the finder calls maybe or table (and how many of
those the tile mask calls surely tile at their true quad: the calls its cells' placement costs), nearest a
tile cell matched to another tile (one cell astride two tiles), or more than half a square from every cell
of the group (rows slid past the lattice's reach, the extent cut short), and the tile cells on no tile.

    python benchmarks/eval_loose_cells.py --scenes 100 --seed 7 --holdout --models /tmp/holdout/recognition.npz
    python benchmarks/eval_loose_cells.py --scenes 100 --seed 7 --holdout --models FILE --shift 0.05
    python benchmarks/eval_loose_cells.py --scenes 100 --seed 580 --holdout --models FILE --split --scale 0.6
    python benchmarks/eval_loose_cells.py --scenes 100 --seed 629 --holdout --models FILE --split --close --tilt 25
    python benchmarks/eval_loose_cells.py --scenes 100 --seed 629 --holdout --models FILE --unmatched --close --tilt 25

Measured on 2026-12-04 (main 043e9a9, held-out fit, seed 580, --split), exact of 99: fitted cells 84, true
quads 87, fitted cells for crowns and true quads for terrain 83, the other way round 90. The placement costs
the crowns; terrain reads better at the fitted cells (3.5% larger than their tiles, they take in the seam
as the boards' squares do). With --scale 0.6, of 98: 66, 77, 68, 78: fewer pixels cost the reader ten at
the true quads, and the fitted cells' crowns ten more. eval_wrong_squares, run on the scenes scaled alike,
finds 26 of 27 miscounted squares missing a crown, their best template response a median 0.56 against
0.80 on crowns read right.

Measured on 2026-12-04 (main ffb7d9d, held-out fit): seed 7 at the fitted cells 82, at the true quads 93,
the true quads moved by 0.05 of a square 82, by 0.1 46; seed 566 75 and 78. The cells were 3.6% larger
than their tiles (median; the lattice's pitch is a tile and the gap beside it), their centres 0.034 of a
square off (90th percentile 0.088).

Measured on 2026-12-06 (main 881ddda, held-out fit, seed 629 --close --split): straight down, of 100: fitted
cells 94, true quads 93, fitted crowns with true terrain 93, the other way round 93 (centre offset median
0.033, 90th pct 0.085); with --tilt 25 (from a chair), of the 96 whose group was found: 64, 75, 68, 70
(centre offset median 0.054, 90th pct 0.188; sides 5.3% larger than the tiles, 10th-90th pct 0.986-1.155).
From a chair the cells' placement costs 11 exact scores, and 21 more are lost at the true quads (straight
down 7): to the reader and to the finder's tile-or-table calls, which the true quads keep (scene 46, 35
points, reads 20 there). eval_loose_reading.py --close --tilt 25 splits those: told the truth's tile or
table at the true quads the reader reads 94 of 100 exact, told the photo's tile mask 92, so they are the
calls the finder makes at its own cells (and the tiles left without a cell), not the reader.

Measured on 2026-12-06 (main 19e7df0, held-out fit, --unmatched), tiles no tile cell matched: close 629
straight down 44 of 2194, every one nearest a cell called maybe or table (1 surely tile at its true quad: the
rest the mask's call there too, most of them 0.4, maybe, left to the reader), none far, no tile cell on
table. From a chair (--tilt 25) 187 of 2068: 126 nearest a maybe or table cell (14 surely tile at their true
quad), 3 nearest a tile cell astride them and a neighbour, 58 more than half a square from every cell in 11
scenes, and 17 tile cells on no tile; default 630 from a chair 154 of 2204: 112 (4), 2, 40 far in 9 scenes,
22 on no tile. So from a chair the placement loses whole rows or columns in about a tenth of the scenes
(hand-laid rows slid half a square from their neighbours, past the lattice's quarter-square reach, drawn
and looked at) and few calls: a placement that starts from each tile, not from one lattice, would win them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

from kscore.app.pipeline import _tileset, frame_size  # noqa: E402
from kscore.game.rules import GameRules  # noqa: E402
from kscore.lab.holdout import PHONE_PER_CLASS, add_scene_arguments, scene_bank  # noqa: E402
from kscore.lab.loose_scenes import make_loose_scene  # noqa: E402
from kscore.lab.measures import kingdom_points  # noqa: E402
from kscore.vision.find.loose import TILE_SHARE, find_loose, mask_shares  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402
from kscore.vision.read.cells import (apply_mask, cell_probabilities, decode_cells,  # noqa: E402
                                      read_cells)
from kscore.vision.read.reader import default_models  # noqa: E402
from eval_loose import add_camera_arguments, as_sent, camera_label, scale_factor  # noqa: E402


def side(quad: np.ndarray) -> float:
    """A quad's (TL TR BR BL) mean side: the mean of its top and left sides."""
    return 0.5 * float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[0]))


def matched_cells(group, tiles: list[np.ndarray], pitch: float) -> dict:
    """The group's tile cells matched to the true tiles: {cell key: index of its tile} (centres within half a square)."""
    keys = [k for k in group.cells if group.tile[k] >= TILE_SHARE]
    if not keys:
        return {}
    centres = np.array([np.asarray(group.cells[k]).mean(axis=0) for k in keys])
    out = {}
    for i, tile in enumerate(tiles):
        distance = np.linalg.norm(centres - tile.mean(axis=0), axis=1)
        j = int(np.argmin(distance))
        if distance[j] < 0.5 * pitch:
            out[keys[j]] = i
    return out


def unmatched_tiles(group, tiles: list[np.ndarray], matched: dict,
                    pitch: float) -> tuple[list[int], list[int], list[int]]:
    """The true tiles no tile cell matched (matched_cells), in three kinds: (nearest a cell the finder calls
    maybe or table, within half a square; nearest a tile cell matched to another tile, one cell astride two;
    more than half a square from every cell the group has).

    The first are the finder's tile-or-table calls (or the mask's, where the tile's true quad is no surer);
    the other two its placement: a row or column slid past the lattice's reach, or the extent cut short.
    """
    hit = set(matched.values())
    keys = list(group.cells)
    centres = np.array([np.asarray(group.cells[k]).mean(axis=0) for k in keys]).reshape(-1, 2)
    beside, shared, far = [], [], []
    for i, tile in enumerate(tiles):
        if i in hit:
            continue
        distance = np.linalg.norm(centres - tile.mean(axis=0), axis=1) if len(keys) else np.array([np.inf])
        j = int(np.argmin(distance))
        if distance[j] >= 0.5 * pitch:
            far.append(i)
        else:
            (shared if group.tile[keys[j]] >= TILE_SHARE else beside).append(i)
    return beside, shared, far


def sent_scene(scene, scale: float):
    """The scene as eval_loose.py --scale reads it (as_sent), its true quads and pitch scaled alike."""
    if scale == 1.0:
        return scene
    return replace(scene, image=as_sent(scene.image, scale), pitch=scene.pitch * scale,
                   quads={p: np.asarray(q, float) * scale for p, q in scene.quads.items()})


def split_points(image, fitted: dict, true: dict, tile: dict, size: int, tileset, models,
                 surely_tile: float = TILE_SHARE) -> dict[str, int]:
    """Points of the kingdom decoded from one cut's crowns and the other cut's terrain, both ways.

    As read_cells reads (a cell surely tile from loose.TILE_SHARE, its default), less the crowns counted
    again (they only mark `?`). models None: the shipped ones, as read_cells takes them.
    """
    models = models if models is not None else default_models()
    tiles = [p for p, t in tile.items() if t >= surely_tile]
    fitted_terrain, fitted_crowns = cell_probabilities(image, fitted, size, tiles, models)
    true_terrain, true_crowns = cell_probabilities(image, true, size, tiles, models)
    points = {}
    for name, terrain, crowns in (("fitted cells for crowns, true quads for terrain", true_terrain, fitted_crowns),
                                  ("fitted cells for terrain, true quads for crowns", fitted_terrain, true_crowns)):
        terrain, crowns = terrain.copy(), crowns.copy()
        apply_mask(terrain, crowns, tile, surely_tile)
        points[name] = kingdom_points(decode_cells(terrain, crowns, tileset).kingdom)
    return points


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_scene_arguments(ap, seed=1, holdout_help="scenes of the held-out kingdoms, read by a fit without them",
                        phone_per_class=False)
    ap.add_argument("--shift", type=float, default=0.0, help="also read at the true quads moved by this much (squares)")
    ap.add_argument("--list", action="store_true", help="the scenes whose two readings score differently")
    ap.add_argument("--split", action="store_true", help="also decode from one cut's crowns and the other's terrain")
    ap.add_argument("--unmatched", action="store_true", help="also count the tiles no tile cell matched, by kind: "
                    "nearest a cell called maybe or table (and of those, surely tile at their true quad), nearest "
                    "a tile cell matched to another tile, or more than half a square from every cell")
    ap.add_argument("--scale", type=scale_factor, default=1.0, help="read each scene resized by this factor and "
                    "saved again as a JPEG, as eval_loose.py --scale does")
    add_camera_arguments(ap)
    args = ap.parse_args(argv)
    models, bank = scene_bank(args.data, args.holdout, args.models, args.save_models, PHONE_PER_CLASS)
    tileset = _tileset(GameRules())
    rng, jitter = np.random.default_rng(args.seed), np.random.default_rng(0)
    ratios, offsets = [], []
    exact = {"fitted cells": 0, "true quads": 0}
    if args.shift:
        exact[f"true quads moved {args.shift}"] = 0
    read = 0
    unmatched = {"tiles": 0, "beside": 0, "beside, surely tile at the true quad": 0, "shared": 0, "far": 0,
                 "scenes with far": 0, "tile cells on no tile": 0}
    for s in range(args.scenes):
        scene = sent_scene(make_loose_scene(bank, rng, close=args.close, tilt=args.tilt), args.scale)
        photo = Photo(Path(f"loose{s}.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
        tiles = [np.asarray(q, float) for q in scene.quads.values()]
        best = max(((matched_cells(g, tiles, scene.pitch), g) for g in find_loose(photo) if not g.partial),
                    key=lambda m: len(m[0]), default=({}, None))
        matched, group = best
        if not matched:
            continue
        read += 1
        for key, i in matched.items():
            cell = np.asarray(group.cells[key])
            ratios.append(side(cell) / side(tiles[i]))
            offsets.append(float(np.linalg.norm(cell.mean(axis=0) - tiles[i].mean(axis=0))) / scene.pitch)
        if args.unmatched:
            beside, shared, far = unmatched_tiles(group, tiles, matched, scene.pitch)
            at_true = mask_shares(photo, {i: tiles[i] for i in beside}, scene.pitch) if beside else {}
            unmatched["tiles"] += len(tiles)
            unmatched["beside"] += len(beside)
            unmatched["beside, surely tile at the true quad"] += sum(t >= TILE_SHARE for t in at_true.values())
            unmatched["shared"] += len(shared)
            unmatched["far"] += len(far)
            unmatched["scenes with far"] += bool(far)
            unmatched["tile cells on no tile"] += sum(t >= TILE_SHARE for t in group.tile.values()) - len(matched)
        size = frame_size(group.extent)
        cells = {"fitted cells": dict(group.cells),
                 "true quads": {**group.cells, **{k: tiles[i] for k, i in matched.items()}}}
        if args.shift:
            cells[f"true quads moved {args.shift}"] = {
                **group.cells, **{k: tiles[i] + jitter.normal(0, args.shift * scene.pitch, 2) for k, i in matched.items()}}
        points = {}
        for name, at in cells.items():
            points[name] = kingdom_points(read_cells(scene.image, at, group.tile, size, tileset, "", models).kingdom)
            exact[name] += points[name] == scene.score
        if args.split:
            for name, p in split_points(scene.image, cells["fitted cells"], cells["true quads"], group.tile, size,
                                        tileset, models).items():
                points[name] = p
                exact[name] = exact.get(name, 0) + (p == scene.score)
        if args.list and len(set(points.values()) | {scene.score}) > 1:
            print(f"  scene {s} ({scene.surface}): truth {scene.score}, "
                  + ", ".join(f"{name} {p}" for name, p in points.items()))
    if not read:
        print("no scene's kingdom found")
        return 0
    ratios, offsets = np.array(ratios), np.array(offsets)
    drawn = (f", scaled {args.scale}" if args.scale != 1.0 else "") + camera_label(args)
    print(f"loose scenes: {args.scenes} (seed {args.seed}{', held-out kingdoms' if args.holdout else ''}{drawn}), "
          f"a group matching the kingdom's tiles in {read}")
    print(f"cells against their tiles ({len(ratios)}): side ratio median {np.median(ratios):.3f} "
          f"(10th-90th pct {np.percentile(ratios, 10):.3f}-{np.percentile(ratios, 90):.3f}), "
          f"centre offset median {np.median(offsets):.3f} of a square (90th pct {np.percentile(offsets, 90):.3f})")
    for name, count in exact.items():
        print(f"exact scores read at the {name}: {count}/{read}")
    if args.unmatched:
        u = unmatched
        surely, astray = u["beside, surely tile at the true quad"], u["tile cells on no tile"]
        print(f"tiles no tile cell matched: {u['beside'] + u['shared'] + u['far']} of {u['tiles']}; {u['beside']} "
              f"nearest a cell called maybe or table ({surely} surely tile at their true quad), {u['shared']} nearest "
              f"a tile cell matched to another tile, {u['far']} more than half a square from every cell (in "
              f"{u['scenes with far']} scenes); tile cells on no tile: {astray}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
