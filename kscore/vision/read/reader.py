"""read_board: a rectified top-down board image -> the kingdom, with per-square probabilities.

The image must be cut to the grid (like the 500x500 boards: size x size squares
filling it exactly). Models load on the first call only, so scoring a text grid
never touches them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from kscore.game.kingdom import Kingdom, Position, Terrain, square_name
from kscore.game.tileset import KINGDOMINO, TileSet
from kscore.vision.read.classes import CASTLE, CROWN_CLASSES, EMPTY, TERRAIN_CLASSES
from kscore.vision.read.counting import square_summaries
from kscore.vision.read.crowns import crown_probability, find_candidates
from kscore.vision.read.decoder import DEFAULT_SETTINGS, DecoderSettings, decode, describe
from kscore.vision.read.doubt import Doubt, mark_doubts, mark_missing_castle
from kscore.vision.read.features import prepare, terrain_features
from kscore.vision.read.model import Models, load_models


@dataclass(frozen=True)
class BoardReading:
    kingdom: Kingdom  # Square.uncertain set where the reading is doubtful
    terrain_probs: np.ndarray  # (size, size, 8), axis order TERRAIN_CLASSES
    crown_probs: np.ndarray  # (size, size, 4), P(0..3 crowns)
    changes: list[str] = field(default_factory=list)  # what the decoder changed, and why
    doubt: Doubt | None = None  # the models' bars for marking `?` (kept for re-reading)
    # The squares `?` only because a classifier was under its bar, because no castle was read, or because a
    # cell's crowns counted again in a smaller cut came out otherwise (cells.counted_again). They ask
    # the player to look, but say little about whether the grid frames a kingdom: the decoder's doubts do
    # (see decoder_doubts).
    marked_by_bars: frozenset[Position] = frozenset()

    def decoder_doubts(self) -> int:
        """How many squares are `?` for the decoder's reasons (legal readings disagree, not seen whole)."""
        return len(self.kingdom.uncertain()) - len(self.marked_by_bars)


@lru_cache(maxsize=1)
def default_models() -> Models:
    """The shipped models, or those in $KSCORE_MODELS (a folder `kscore train --out` wrote)."""
    return load_models(os.environ.get("KSCORE_MODELS") or None)


def square_probabilities(image_bgr: np.ndarray, size: int, models: Models,
                         with_crowns: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Per-square terrain (size, size, 8) and crown (size, size, 4) probabilities (with_crowns False: None)."""
    prepared = prepare(image_bgr, size)
    terrain = models.terrain.predict_full(terrain_features(prepared, size), len(TERRAIN_CLASSES))
    if not with_crowns:
        return terrain.reshape(size, size, -1), None
    cands = find_candidates(prepared, models.crown_template, size)
    p_crown = crown_probability(models.candidate, cands)
    crowns = models.count.predict_full(square_summaries(cands, p_crown, size), len(CROWN_CLASSES))
    return terrain.reshape(size, size, -1), crowns.reshape(size, size, -1)


def decode_probabilities(terrain_probs: np.ndarray, crown_probs: np.ndarray, tileset: TileSet | None, name: str = "",
                         doubt: Doubt | None = None, seen_terrain: np.ndarray | None = None,
                         settings: DecoderSettings = DEFAULT_SETTINGS) -> tuple[Kingdom, list[str], frozenset[Position]]:
    """The tile-set decoder's reading (tile set None: its plain per-square reading).

    `?` where the decoder doubts, and where a classifier's top probability is under its bar in `doubt`;
    the third item is the squares marked by the bars alone. seen_terrain: the terrain probabilities
    the bar is held against when the decoder is given others (default terrain_probs; see cells.read_cells).
    The bars are held against the classifiers' own probabilities, whatever `settings` temper for the decoder.
    """
    decoding = decode(terrain_probs, crown_probs, tileset, name, settings=settings)
    seen = terrain_probs if seen_terrain is None else seen_terrain
    kingdom = mark_doubts(decoding.kingdom, seen, crown_probs, doubt)
    # A real game's kingdom without a castle: the likeliest square asks to be looked at. Counted with the
    # bars' marks: it asks the player to look, it does not say the grid frames no kingdom.
    kingdom, missing = mark_missing_castle(kingdom, seen) if tileset is not None else (kingdom, [])
    by_bars = frozenset(kingdom.uncertain()) - frozenset(decoding.kingdom.uncertain())
    return kingdom, list(decoding.changes) + missing, by_bars


def one_castle(terrain: np.ndarray) -> None:
    """Keep the castle as an option on the square most like it only (in place): a kingdom has one.

    A glare-washed forest or a tile with a house can look like the castle; when
    the decoder still keeps a reading with several castles (repairing it cost
    too much), this settles it: a second castle must never be invented. Not
    before the decoder: the square most like the castle is not always it.
    """
    flat = terrain.reshape(-1, terrain.shape[-1])
    if flat[:, CASTLE].max() <= 0:
        return
    best = int(np.argmax(flat[:, CASTLE]))
    others = np.arange(len(flat)) != best
    flat[others, CASTLE] = 0.0
    flat[others] /= np.maximum(flat[others].sum(axis=1, keepdims=True), 1e-12)


def decoded_reading(terrain: np.ndarray, crowns: np.ndarray, tileset: TileSet | None, name: str = "",
                    doubt: Doubt | None = None, settings: DecoderSettings = DEFAULT_SETTINGS) -> BoardReading:
    """decode_probabilities' reading as a BoardReading, never with a second castle.

    Only when the decoder keeps a reading with several castles (repairing it cost too much) is the castle
    left on the square most like it (one_castle) and the kingdom decoded again; terrain is then the
    settled probabilities. Measured on the tile path, where it began (cells.decode_cells): held-out
    kingdoms at their true quads (eval_loose_reading, dev seeds 13, 2, 41, 5, 7, 317; the same 600
    scenes' probabilities decoded both ways), one_castle first -> only as the fallback: exact 573 -> 575,
    readings without exactly one castle 15 -> 3, tile squares read right and decoded wrong 3 -> 0 (two
    castles read right and a swamp with two crowns: the castle put on another square), wrong ones decoded
    right 146 -> 158. A grid's reading takes it too (a false grid over a patterned carpet read four
    castles); on four eval_loose runs of 100 scenes (README, Decoder) it changed nothing else.
    """
    kingdom, changes, by_bars = decode_probabilities(terrain, crowns, tileset, name, doubt, settings=settings)
    castles, moved = kingdom.castles(), []
    if len(castles) > 1:
        settled = terrain.copy()
        one_castle(settled)
        # The bars are still held against what the recogniser (and a tile mask) said (seen_terrain).
        kingdom, changes, by_bars = decode_probabilities(settled, crowns, tileset, name, doubt, seen_terrain=terrain,
                                                         settings=settings)
        terrain = settled
        moved = [p for p in castles if kingdom[p].terrain is not Terrain.CASTLE]
        kept = kingdom.castles()
        where = f"kept on {square_name(kept[0])}, the square most like it" if kept else "none kept"
        for p in moved:
            square = describe((kingdom[p].terrain, kingdom[p].crowns))
            changes.append(f"{square_name(p)}: read as castle, changed to {square}: a kingdom has exactly one castle "
                           f"and {len(castles)} were read; {where}")
    # Each square that lost the castle asks the player to look (with the bars' marks: it weighs no find against
    # another in the pipeline's choices).
    return marked(BoardReading(kingdom, terrain, crowns, changes, doubt, by_bars), moved)


def marked(reading: BoardReading, squares: list) -> BoardReading:
    """The reading with `?` on these squares, asking the player to look: counted with the bars' marks
    (BoardReading.marked_by_bars), not as the decoder's doubts, which weigh finds against each other."""
    kingdom = reading.kingdom
    squares = [p for p in squares if not kingdom[p].uncertain]
    if not squares:
        return reading
    for p in squares:
        kingdom = kingdom.with_square(p, replace(kingdom[p], uncertain=True))
    return replace(reading, kingdom=kingdom, marked_by_bars=reading.marked_by_bars | frozenset(squares))


def read_board(
    image_bgr: np.ndarray,
    size: int = 5,
    tileset: TileSet | None = KINGDOMINO,
    name: str = "",
    models: Models | None = None,
    table: frozenset[Position] = frozenset(),
    crowns: np.ndarray | None = None,
) -> BoardReading:
    """Read a rectified board. tileset None = no tile-set decoding (--no-tileset). table: squares a tile mask
    says are table, not tile (loose.grid_tables), read as empty, but for one read as the castle: a grey castle
    on grey stone or wood is coloured like the table, and the kingdom has one. crowns: the squares'
    P(0..3 crowns) when counted elsewhere (kscore.vision.read.cell_crowns), not on this image."""
    models = models if models is not None else default_models()
    terrain_probs, crown_probs = square_probabilities(image_bgr, size, models, with_crowns=crowns is None)
    crown_probs = crowns.copy() if crowns is not None else crown_probs
    as_table(terrain_probs, crown_probs, [p for p in table if int(np.argmax(terrain_probs[p])) != CASTLE])
    return decoded_reading(terrain_probs, crown_probs, tileset, name, Doubt.from_info(models.info))


def as_table(terrain: np.ndarray, crowns: np.ndarray, squares) -> None:
    """In place: the squares (row, col) are table, surely: empty, no crowns."""
    for r, c in squares:
        terrain[r, c] = 0.0
        terrain[r, c, EMPTY] = 1.0
        crowns[r, c] = 0.0
        crowns[r, c, 0] = 1.0


def read_with_unseen(reading: BoardReading, unseen: dict[Position, float], tileset: TileSet | None,
                     name: str = "") -> BoardReading:
    """The reading again, knowing that some squares are partly out of sight (square -> share hidden).

    What the classifiers said about a square counts only for its visible share;
    the rest is what the box holds (tile-set square frequencies). The decoder
    then fills them with what keeps the kingdom legal, and each is marked `?`:
    it was not seen whole.
    """
    terrain_prior, crown_prior = _box_priors(tileset or KINGDOMINO)
    terrain, crowns = reading.terrain_probs.copy(), reading.crown_probs.copy()
    for (r, c), share in unseen.items():
        terrain[r, c] = (1 - share) * terrain[r, c] + share * terrain_prior
        crowns[r, c] = (1 - share) * crowns[r, c] + share * crown_prior
    kingdom, changes, by_bars = decode_probabilities(terrain, crowns, tileset, name, reading.doubt)
    for p in unseen:
        kingdom = kingdom.with_square(p, replace(kingdom[p], uncertain=True))
    if unseen:
        them = "them" if len(unseen) > 1 else "it"
        changes.append(f"{'; '.join(square_name(p) for p in sorted(unseen))}: a standing castle hides {them} from"
                       " where the photo was taken; check by eye")
    return BoardReading(kingdom, terrain, crowns, changes, reading.doubt, by_bars - frozenset(unseen))


@lru_cache(maxsize=4)
def _box_priors(tileset: TileSet) -> tuple[np.ndarray, np.ndarray]:
    """How often each terrain and crown count is printed in the box (no castle: it is never hidden)."""
    counts = tileset.square_counts
    terrain = np.array([sum(n for (t, _), n in counts.items() if t is cls) for cls in TERRAIN_CLASSES], float)
    crowns = np.array([sum(n for (_, k), n in counts.items() if k == j) for j in range(len(CROWN_CLASSES))], float)
    return terrain / terrain.sum(), crowns / crowns.sum()


__all__ = ["BoardReading", "decoded_reading", "marked", "one_castle", "read_board", "read_with_unseen",
           "square_probabilities", "default_models"]
