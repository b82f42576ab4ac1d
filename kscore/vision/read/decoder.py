"""Tile-set decoder: per-square probabilities -> the most probable LEGAL kingdom.

The recogniser reads each square alone; a real kingdom is not any grid. It has
exactly one castle, only the square types the box prints (wheat never carries 2
crowns in the base box), and its squares split into distinct real dominoes
(tileset.py). A one-square misread usually breaks the split, so searching the
nearby readings for a legal one turns most single errors into corrections.

The search is best-first over changes to the least confident squares: every
reading is scored by the sum of log-probability drops of its changed squares,
and subsets of changes are enumerated in order of that cost (a heap over a
sorted list of (square, alternative) drops, each subset produced once). The
first legal reading found is the most probable legal kingdom among those the
caps allowed. The search goes on a little past it (`window`) to estimate how
sure each square is once legality is assumed (the "posterior-ish" confidence).

When no legal kingdom is close enough and several squares read as castle (no
box or variant has two), each keeps it in turn while the others take their
next reading, and the search runs again (_with_one_castle). A group of tiles
taken as the kingdom though it reads no castle at all has it put, in turn, on
the squares likeliest it, within CASTLE_PLACED_MARGIN (_with_castle_placed;
DecoderSettings.place_castle).

Never silent: every square that differs from the per-square best reading is
listed in `Decoding.changes` with the reason. When the cheapest legal kingdom
costs more than `margin` the decoder keeps the per-square best reading, says it
is not legal and marks the doubtful squares uncertain.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from kscore.game.kingdom import Kingdom, Square, Terrain, square_name
from kscore.game.tileset import TileSet, split_into_dominoes
from kscore.vision.read.classes import CASTLE, CROWN_CLASSES, EMPTY, TERRAIN_CLASSES

#: Probabilities are clipped here before the log: a classifier's hard 0 must
#: stay a (very expensive) option, not an impossibility.
_P_FLOOR = 1e-9

SquareType = tuple[Terrain, int]


@dataclass(frozen=True)
class DecoderSettings:
    """Knobs of the decoder; the defaults are what `decode` uses.

    margin: the most log-probability (nats) the legal kingdom may cost below the
      per-square best reading and still replace it. ln(1000) ~ 6.9: a correction
      is taken when the classifier gave it at least 1/1000 of the odds of what it
      read. Real kingdoms are legal (every labelled board is), so an illegal
      reading almost surely holds a misread; with calibrated probabilities a
      1-in-1000 alternative is still the likelier truth once the reading is known
      to be impossible. Beyond that, the reading is kept (a house rule or an
      expansion box is then as likely as the repair) and flagged instead.
      benchmarks/sim_decoder.py: close-second misreads are repaired alike for
      margins ln 10 .. ln 10^4; confident misreads (p 0.99-0.999) need ln 1000
      (0% -> 78% repaired at the sim's cleaner noise), and ln 10^4 adds little
      (80%) while rewriting more real but unusual kingdoms.
    window: after the first legal kingdom, the search goes on this many nats to
      find rival legal kingdoms for the confidence. ln(100): rivals 100 times
      less likely move a confidence by under 1%, and single-square alternatives
      beyond it still count against the square (see _posterior).
    uncertain_below: a square whose confidence is below this is marked `?`
      (in the simulation squares at 0.8-0.9 were right 90-95% of the time).
    flag_change_above: a changed square whose drop exceeds this (nats) is marked
      `?` even when the decoder is sure: the classifier was confident there (odds
      above 10:1), so a person should look at it.
    max_alternatives / max_pops / max_checks / max_work: hard caps on the
      search for the first legal kingdom (sorted alternatives kept, subsets
      popped, full split checks run, work done), so a hopeless board still
      reads in about 10 ms. split_budget: steps of one split search; every
      labelled kingdom (5x5 and 7x7) splits within 50, so 2,000 only cuts off
      hopeless grids. flag_split_budget: the same for naming unpaired squares.
    crown_temperature: with a tile set, the crown counter's log-probabilities
      are divided by this before they are weighed against the box (1: as
      they are; a kingdom read tile by tile takes cells.CELL_CROWN_TEMPERATURE).
    place_castle: when no square reads as castle and nothing legal lies within
      the margin, put the castle on the square where it makes the likeliest legal
      kingdom, within CASTLE_PLACED_MARGIN (_with_castle_placed). Only for a group
      of tiles taken as the kingdom though it reads no castle (cells.CASTLE_PUT_BACK):
      on every reading, a grid laid over part of a kingdom found tile by tile won
      by the castle put on it (held-out `eval_loose.py --close --tilt 25 --seed 644`
      scene 3), and stray dominoes took a kingdom's place (`--seed 633` scene 19).
    posterior_pops / posterior_work: caps on the search for rivals after it;
      when they cut it short, what was not explored counts against confidence.
    Work is counted, not timed, so the same probabilities decode the same on
    any machine and under any load (CPU-time caps shifted a reading by a square
    between runs on a busy machine). A pop costs `pop_work` units and a step of
    a split search one: a pop took about twice a step's CPU time (4.6 and 2.2
    us on the busy 2-core machine, about half that on a quiet one), so 9,000
    and 2,700 units are about the 10 ms and 3 ms the time caps were on a quiet
    machine. The work caps only apply after `min_pops` candidates.
    """

    margin: float = math.log(1000.0)
    window: float = math.log(100.0)
    crown_temperature: float = 1.0
    uncertain_below: float = 0.9
    flag_change_above: float = math.log(10.0)
    max_alternatives: int = 64
    max_pops: int = 20_000
    max_checks: int = 200
    split_budget: int = 2_000
    flag_split_budget: int = 1_000
    max_work: int = 9_000
    place_castle: bool = False
    posterior_pops: int = 2_000
    posterior_work: int = 2_700
    pop_work: int = 2
    min_pops: int = 300


DEFAULT_SETTINGS = DecoderSettings()


@dataclass
class Decoding:
    """The decoder's answer.

    kingdom: the chosen kingdom (Square.uncertain set on doubtful squares).
    changes: one sentence per square that differs from the per-square best
      reading, naming the square and saying why.
    legal: the kingdom is a real one of the tile set (with no tile set: only
      "exactly one castle" is checked).
    confidence: (n, n) probability that each chosen square is right; with a tile
      set, assuming the kingdom is legal (normalised over the legal kingdoms
      the search found, counting unexplored alternatives against it).
    cost: nats the chosen kingdom lies below the per-square best reading.
    runner_up: nats between the chosen legal kingdom and the next legal one the
      search found (inf when none was found within the window).
    problems: why the kept reading is not legal (empty when legal).
    checks: full legality checks the search ran; work: the units the search
      spent (see DecoderSettings); exhaustive: it ended by its own bounds
      (margin/window), not by a cap.
    """

    kingdom: Kingdom
    changes: list[str]
    legal: bool
    confidence: np.ndarray
    cost: float = 0.0
    runner_up: float = math.inf
    problems: list[str] = field(default_factory=list)
    checks: int = 0
    exhaustive: bool = True
    work: int = 0


# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class _Box:
    """A tile set compiled to integer square types for the search."""

    types: tuple[SquareType, ...]  # tile types first, then castle, then empty
    n_tiles: int
    counts: tuple[int, ...]  # squares of each tile type in the box
    stock: tuple[int, ...]  # flat T*T: copies of domino (a, b), a <= b
    compat: tuple[frozenset[int], ...]  # per tile type: types it forms a domino with
    name: str
    castle: int  # index of the castle type (== n_tiles); empty is castle + 1


@lru_cache(maxsize=8)
def _compile(tileset: TileSet) -> _Box:
    known = set(TERRAIN_CLASSES)
    # Types the recogniser cannot see (Queendomino villages) cannot be decoded.
    tiles = sorted(
        (t for t in tileset.square_counts if t[0] in known and t[1] in CROWN_CLASSES),
        key=lambda t: (TERRAIN_CLASSES.index(t[0]), t[1]),
    )
    index = {t: i for i, t in enumerate(tiles)}
    n_tiles = len(tiles)
    stock = [0] * (n_tiles * n_tiles)
    for (a, b), copies in tileset.domino_counts.items():
        if a in index and b in index:
            i, j = sorted((index[a], index[b]))
            stock[i * n_tiles + j] += copies
    compat = tuple(
        frozenset(j for j in range(n_tiles) if stock[min(i, j) * n_tiles + max(i, j)] > 0) for i in range(n_tiles)
    )
    types = tuple(tiles) + ((Terrain.CASTLE, 0), (Terrain.EMPTY, 0))
    counts = tuple(tileset.square_counts[t] for t in tiles)
    return _Box(types, n_tiles, counts, tuple(stock), compat, tileset.name, n_tiles)


#: How often a castle square shows what reads as crowns. The castle's crowns
#: are not a reading, but crowns seen clearly still speak against "castle":
#: on the 54 labelled boards every castle square read P(0 crowns) >= 0.95,
#: while on synthetic photos swamps with two clear crowns were taken for the
#: castle when the real castle was hard to see. At most ln(1/0.05) ~ 3 nats.
_CASTLE_CROWN_SLACK = 0.05


def _raw_logp(terrain_probs: np.ndarray, crown_probs: np.ndarray) -> np.ndarray:
    """(n, n, 8, 4) log P(terrain) + log P(crowns); castle/empty take crowns 0.

    The castle's and empty squares' crowns are not a reading (crowns on the
    castle art must not count), so their crown axis is marginalised away: all
    their probability sits on crowns 0, the rest are impossible. The castle
    still pays for crowns seen clearly on its square (_CASTLE_CROWN_SLACK).
    """
    lt = np.log(np.clip(terrain_probs, _P_FLOOR, None))
    lc = np.log(np.clip(crown_probs, _P_FLOOR, None))
    joint = lt[..., :, None] + lc[..., None, :]
    for k in (CASTLE, EMPTY):
        joint[..., k, :] = -np.inf
        joint[..., k, 0] = lt[..., k]
    no_crown = crown_probs[..., 0]
    joint[..., CASTLE, 0] += np.log(no_crown + (1 - no_crown) * _CASTLE_CROWN_SLACK)
    return joint


def _type_logp(joint: np.ndarray, types: tuple[SquareType, ...]) -> np.ndarray:
    """(n*n, len(types)) log-probability of each square type on each square."""
    n = joint.shape[0]
    cols = [joint[:, :, TERRAIN_CLASSES.index(t), c] for t, c in types]
    return np.stack(cols, axis=-1).reshape(n * n, len(types))


def describe(square_type: SquareType) -> str:
    """A square type in a player's words: "forest, 1 crown", "lake, no crown", "castle"."""
    terrain, crowns = square_type
    if terrain in (Terrain.CASTLE, Terrain.EMPTY):
        return terrain.value
    return f"{terrain.value}, {crowns} crown{'s' if crowns != 1 else ''}" if crowns else f"{terrain.value}, no crown"


# -------------------------------------------------------------------------- legality


def _splits(types: list[int], n: int, box: _Box, budget: int) -> tuple[bool, int]:
    """(True when the tile squares pair into distinct dominoes of the box, steps taken).

    Row-major: the first free cell can only pair right or down. Early exit on the
    first perfect split; the budget bounds pathological grids (then False).
    """
    nt = box.n_tiles
    cells = [i for i, t in enumerate(types) if t < nt]
    if len(cells) % 2:
        return False, 0
    stock = list(box.stock)
    taken = [False] * len(types)
    steps = 0

    def search(k: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        while k < len(cells) and taken[cells[k]]:
            k += 1
        if k == len(cells):
            return True
        i = cells[k]
        a = types[i]
        taken[i] = True
        for j in (i + 1 if (i + 1) % n else -1, i + n if i + n < len(types) else -1):
            if j < 0 or taken[j] or types[j] >= nt:
                continue
            b = types[j]
            key = a * nt + b if a <= b else b * nt + a
            if stock[key]:
                stock[key] -= 1
                taken[j] = True
                if search(k + 1):
                    return True
                taken[j] = False
                stock[key] += 1
        taken[i] = False
        return False

    return search(0), min(steps, budget)


class _Checker:
    """Legality of readings that differ from a base reading in a few squares.

    Cheap necessary tests first (one castle, box counts, every tile square has a
    neighbour it can form a domino with), re-examined only around the changed
    squares; the full split search only for the survivors.
    """

    def __init__(self, base: list[int], n: int, box: _Box, budget: int):
        self.base, self.n, self.box, self.budget = base, n, box, budget
        self.neigh = [
            [j for j in ((i - n) if i >= n else -1, (i + n) if i + n < n * n else -1,
                         (i - 1) if i % n else -1, (i + 1) if (i + 1) % n else -1) if j >= 0]
            for i in range(n * n)
        ]
        self.castles = sum(1 for t in base if t == box.castle)
        self.counts = [0] * box.n_tiles
        for t in base:
            if t < box.n_tiles:
                self.counts[t] += 1
        self.lonely = frozenset(i for i in range(n * n) if not self._has_partner(base, i))
        self.full_checks = 0
        self.split_steps = 0

    def _has_partner(self, types: list[int], i: int) -> bool:
        t = types[i]
        if t >= self.box.n_tiles:
            return True
        compat = self.box.compat[t]
        return any(types[j] in compat for j in self.neigh[i])

    def legal(self, changes: dict[int, int]) -> bool:
        box = self.box
        castles = self.castles
        for i, t in changes.items():
            castles += (t == box.castle) - (self.base[i] == box.castle)
        if castles != 1:
            return False
        # Box counts: only the types a change adds can overflow.
        nt = box.n_tiles
        added = [t for t in changes.values() if t < nt]
        if added:
            counts = {}
            for t in added:
                counts[t] = counts.get(t, self.counts[t]) + 1
            for i in changes:
                old = self.base[i]
                if old in counts:
                    counts[old] -= 1
            if any(c > box.counts[t] for t, c in counts.items()):
                return False
        affected = set(changes)
        for i in changes:
            affected.update(self.neigh[i])
        if not self.lonely <= affected:
            return False
        types = list(self.base)
        for i, t in changes.items():
            types[i] = t
        if any(not self._has_partner(types, i) for i in affected):
            return False
        self.full_checks += 1
        ok, steps = _splits(types, self.n, box, self.budget)
        self.split_steps += steps
        return ok


# ---------------------------------------------------------------------------- decode


def decode(
    terrain_probs: np.ndarray,
    crown_probs: np.ndarray,
    tileset: TileSet | None,
    name: str = "",
    *,
    settings: DecoderSettings = DEFAULT_SETTINGS,
) -> Decoding:
    """The most probable legal kingdom given per-square probabilities.

    terrain_probs: (n, n, 8) in TERRAIN_CLASSES order; crown_probs: (n, n, 4),
    P(0..3 crowns). tileset None (--no-tileset): the per-square best reading.
    """
    terrain_probs = np.asarray(terrain_probs, dtype=float)
    crown_probs = np.asarray(crown_probs, dtype=float)
    n = terrain_probs.shape[0]
    if terrain_probs.shape != (n, n, len(TERRAIN_CLASSES)) or crown_probs.shape != (n, n, len(CROWN_CLASSES)):
        raise ValueError(f"expected (n, n, 8) and (n, n, 4) probabilities, got {terrain_probs.shape}, {crown_probs.shape}")

    if tileset is None:
        raw_types, raw_lp = _best_readings(_raw_logp(terrain_probs, crown_probs))
        return _per_square(raw_types, np.exp(raw_lp), n, name, settings)
    joint = _raw_logp(terrain_probs, tempered(crown_probs, settings.crown_temperature))
    box = _compile(tileset)
    decoding = _with_tileset(joint, *_best_readings(joint), n, name, box, tileset, settings)
    if decoding.legal:
        return decoding
    return (_with_one_castle(joint, n, name, box, tileset, settings)
            or (settings.place_castle and _with_castle_placed(joint, n, name, box, tileset, settings)) or decoding)


def tempered(probs: np.ndarray, temperature: float) -> np.ndarray:
    """Probabilities (last axis) with their log-probabilities divided by `temperature`, renormalised.

    >>> tempered(np.array([0.99, 0.01]), 2.0).round(3).tolist()
    [0.909, 0.091]
    """
    if temperature == 1.0:
        return probs
    logp = np.log(np.clip(probs, _P_FLOOR, None)) / temperature
    e = np.exp(logp - logp.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


#: At most this many squares read as castle are tried as the one kept (surest first).
_CASTLE_TRIES = 4


def _castle_odds(joint: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The joint log-probabilities per square (n*n, terrains, crowns), each square's log P(castle) and its best
    log-probability as anything else."""
    by_square = joint.reshape(n * n, len(TERRAIN_CLASSES), len(CROWN_CLASSES))
    return by_square, by_square[:, CASTLE, 0], np.delete(by_square, CASTLE, axis=1).reshape(n * n, -1).max(axis=1)


def _with_one_castle(joint, n, name, box: _Box, tileset: TileSet, settings: DecoderSettings) -> Decoding | None:
    """The cheapest legal kingdom keeping one of several squares read as castle; None if none is legal.

    Every box and variant has exactly one castle, so a second one is never a
    house rule to keep (unlike a square type the box lacks). When the search
    found nothing legal within its margin and several squares read castle,
    each in turn keeps it while the others take their next reading, and the
    search runs again; the cheapest legal answer, demotions included, wins.
    Only then: the search, when it succeeds, already places the castle by the
    whole kingdom (sim_decoder: 2-3 fewer of 540 boards corrected when the
    surest castle was kept before the search).
    """
    by_square, castle, other = _castle_odds(joint, n)
    read_castle = [int(i) for i in np.nonzero(castle > other)[0]]
    if len(read_castle) < 2:
        return None
    best: tuple[float, Decoding, list[int]] | None = None
    for keep in sorted(read_castle, key=lambda i: other[i] - castle[i])[:_CASTLE_TRIES]:
        demoted = [i for i in read_castle if i != keep]
        one_castle = by_square.copy()
        one_castle[demoted, CASTLE, :] = -np.inf
        one_castle = one_castle.reshape(joint.shape)
        retry = _with_tileset(one_castle, *_best_readings(one_castle), n, name, box, tileset, settings)
        cost = float(np.sum(castle[demoted] - other[demoted])) + retry.cost
        if retry.legal and (best is None or cost < best[0]):
            best = (cost, retry, demoted)
    return None if best is None else _said_demoted(best[1], joint, best[2], best[0])


#: The most a castle put on a kingdom that reads none may cost (nats), the changes the rest then needs
#: included: ln(10^5). The box's rule is a hard one (every kingdom has one castle) and a flat castle seen
#: from a chair reads as swamp at odds of 1000-2000 to 1 (held-out `eval_loose.py --close --tilt 25 --on
#: dotted --seed 646` scenes 3 and 16: 7.0 and 7.8 nats, with the rest 9.7 and 7.8), while a domino's
#: square read as castle instead must make the rest legal too.
CASTLE_PLACED_MARGIN = math.log(1e5)


def _with_castle_placed(joint, n, name, box: _Box, tileset: TileSet, settings: DecoderSettings) -> Decoding | None:
    """The cheapest legal kingdom with the castle put on one of the squares likeliest it, when no square reads
    as castle and nothing legal lay within the margin; None when none costs under CASTLE_PLACED_MARGIN.

    Every kingdom has its castle, so a reading without one is wrong somewhere; each of the _CASTLE_TRIES
    squares likeliest the castle takes it in turn and the search runs again for the rest (within its own
    margin). The square that takes it is marked `?` and the change said.
    """
    by_square, castle, other = _castle_odds(joint, n)
    if np.any(castle > other):
        return None
    best: tuple[float, Decoding, int] | None = None
    for placed in sorted(range(n * n), key=lambda i: other[i] - castle[i])[:_CASTLE_TRIES]:
        with_castle = by_square.copy()
        with_castle[placed] = -np.inf
        with_castle[placed, CASTLE, 0] = castle[placed]
        with_castle = with_castle.reshape(joint.shape)
        retry = _with_tileset(with_castle, *_best_readings(with_castle), n, name, box, tileset, settings)
        cost = float(other[placed] - castle[placed]) + retry.cost
        if retry.legal and cost <= CASTLE_PLACED_MARGIN and (best is None or cost < best[0]):
            best = (cost, retry, placed)
    if best is None:
        return None
    cost, decoding, placed = best
    position = divmod(placed, n)
    was = describe(_best_readings(joint)[0][placed])
    p_castle = float(np.exp(castle[placed]))
    kingdom = decoding.kingdom.with_square(position, replace(decoding.kingdom[position], uncertain=True))
    change = (f"{square_name(position)}: read as {was}, changed to castle ({p_castle:.1%} sure): no castle was "
              "read, every kingdom has one, and here it gives the likeliest kingdom the box allows")
    return replace(decoding, kingdom=kingdom, changes=[*decoding.changes, change], cost=cost)


def _best_readings(joint: np.ndarray) -> tuple[list[SquareType], np.ndarray]:
    """Each square's most probable (terrain, crowns) and its log-probability, in reading order."""
    flat = joint.reshape(joint.shape[0] ** 2, -1)
    index = flat.argmax(axis=1)
    types = [(TERRAIN_CLASSES[k // len(CROWN_CLASSES)], int(k % len(CROWN_CLASSES))) for k in index]
    return types, flat[np.arange(len(index)), index]


def _said_demoted(decoding: Decoding, joint: np.ndarray, demoted: list[int], cost: float) -> Decoding:
    """The decoding with each demoted castle square marked `?` and its change said; cost counts the demotions."""
    n = decoding.kingdom.size
    kingdom, changes = decoding.kingdom, list(decoding.changes)
    p_castle = np.exp(joint[:, :, CASTLE, 0]).reshape(-1)  # as the other changes say it: crowns seen count against
    kept = [square_name(p) for p, square in kingdom.squares() if square.terrain is Terrain.CASTLE]
    # Said as the decoder's other changes are, in a player's words. The castle kept is the one that gives the
    # likeliest kingdom the box allows, not always the square read likeliest a castle: say which it is.
    where = f"keeping it on {kept[0]} gives the likeliest kingdom the box allows" if kept else (
        "another square looks more like it")
    for i in demoted:
        position = divmod(i, n)
        square = kingdom[position]
        kingdom = kingdom.with_square(position, replace(square, uncertain=True))
        changes.append(
            f"{square_name(position)}: read as castle ({p_castle[i]:.0%} sure), changed to "
            f"{describe((square.terrain, square.crowns))}: a kingdom has exactly one castle and "
            f"{len(demoted) + 1} were read; {where}"
        )
    return replace(decoding, kingdom=kingdom, changes=changes, cost=cost)


def _kingdom(name: str, n: int, types: list[SquareType], uncertain: np.ndarray) -> Kingdom:
    rows = [
        [Square(types[r * n + c][0], types[r * n + c][1], uncertain=bool(uncertain[r * n + c])) for c in range(n)]
        for r in range(n)
    ]
    return Kingdom.from_rows(name, rows)


def _per_square(raw_types, raw_p, n, name, settings) -> Decoding:
    uncertain = raw_p < settings.uncertain_below
    castles = sum(1 for t, _ in raw_types if t is Terrain.CASTLE)
    return Decoding(
        kingdom=_kingdom(name, n, raw_types, uncertain),
        changes=[],
        legal=castles == 1,
        confidence=raw_p.reshape(n, n),
    )


def _with_tileset(joint, raw_types, raw_lp, n, name, box: _Box, tileset: TileSet, settings: DecoderSettings):
    lp = _type_logp(joint, box.types)  # (n*n, T)
    base = [int(k) for k in lp.argmax(axis=1)]  # best legal-type reading
    # Squares whose best reading is a type the box never prints must change:
    # that forced drop is paid up front.
    forced_cost = float(np.sum(raw_lp - lp[np.arange(n * n), base]))

    # Every other legal type on every square, as a drop from the base reading.
    drops = lp[np.arange(n * n), base][:, None] - lp
    alternatives = sorted(
        (float(drops[i, t]), i, t)
        for i in range(n * n)
        for t in range(len(box.types))
        if t != base[i] and forced_cost + drops[i, t] <= settings.margin + settings.window
    )
    excluded_from = alternatives[settings.max_alternatives][0] if len(alternatives) > settings.max_alternatives else math.inf
    alternatives = alternatives[: settings.max_alternatives]
    d = [a[0] for a in alternatives]

    checker = _Checker(base, n, box, settings.split_budget)
    found: list[tuple[float, dict[int, int]]] = []  # legal readings, cheapest first
    heap: list[tuple[float, tuple[int, ...]]] = [(0.0, ())]
    pops = 0
    rival_pops, rival_min, rival_work = 0, 0, 0

    def work() -> int:
        return pops * settings.pop_work + checker.split_steps

    explored_to = math.inf  # every subset cheaper than this was examined
    exhaustive = True
    while heap:
        cost, subset = heapq.heappop(heap)
        limit = (found[0][0] + settings.window) if found else (settings.margin - forced_cost)
        if cost > limit:
            explored_to = cost
            break
        pops += 1
        if found:  # looking for rivals of the chosen kingdom
            capped = pops > rival_pops or (pops > rival_min and work() > rival_work)
        else:
            capped = (
                pops > settings.max_pops
                or checker.full_checks >= settings.max_checks
                or (pops > settings.min_pops and work() > settings.max_work)
            )
        if capped:
            explored_to, exhaustive = cost, False
            break
        # Successors: extend with the next alternative, or swap the last for it.
        last = subset[-1] if subset else -1
        if last + 1 < len(d):
            heapq.heappush(heap, (cost + d[last + 1], subset + (last + 1,)))
            if subset:
                heapq.heappush(heap, (cost - d[last] + d[last + 1], subset[:-1] + (last + 1,)))
        changes = {alternatives[k][1]: alternatives[k][2] for k in subset}
        if len(changes) < len(subset):
            continue  # two alternatives for one square
        if checker.legal(changes):
            if not found:
                rival_pops, rival_min = pops + settings.posterior_pops, pops + settings.min_pops
                rival_work = work() + settings.posterior_work
            found.append((cost, changes))
    else:
        explored_to = math.inf
    explored_to = min(explored_to, excluded_from)

    if found:
        best_cost, best_changes = found[0]
        chosen = list(base)
        for i, t in best_changes.items():
            chosen[i] = t
        confidence = _posterior(found, chosen, base, lp, explored_to)
        chosen_types = [box.types[t] for t in chosen]
        drop = raw_lp - lp[np.arange(n * n), chosen]
        changed = np.array([chosen_types[i] != raw_types[i] for i in range(n * n)])
        uncertain = (confidence < settings.uncertain_below) | (changed & (drop > settings.flag_change_above))
        changes = _change_sentences(raw_types, chosen_types, raw_lp, lp, chosen, base, box, n)
        return Decoding(
            kingdom=_kingdom(name, n, chosen_types, uncertain),
            changes=changes,
            legal=True,
            confidence=confidence.reshape(n, n),
            cost=forced_cost + best_cost,
            runner_up=(found[1][0] - best_cost) if len(found) > 1 else math.inf,
            checks=checker.full_checks,
            exhaustive=exhaustive,
            work=work(),
        )
    return _keep_reading(raw_types, raw_lp, n, name, box, tileset, settings, checker.full_checks, exhaustive, joint, work())


def _posterior(found, chosen, base, lp, explored_to) -> np.ndarray:
    """P(square right | kingdom legal), over the legal readings found.

    Single-square alternatives the search never reached (beyond `explored_to`)
    count against the square as if they were legal: a capped search must not
    make a square look surer than it is.
    """
    best = found[0][0]
    total = 0.0
    agree = np.zeros(len(chosen))
    for cost, changes in found:
        w = math.exp(best - cost)
        total += w
        for i in range(len(chosen)):
            if changes.get(i, base[i]) == chosen[i]:
                agree[i] += w
    # Cost of the chosen reading with square i switched to type t.
    own = lp[np.arange(len(chosen)), chosen]
    switched = best + (own[:, None] - lp)  # (n*n, T)
    unexplored = np.where(switched > explored_to, np.exp(best - switched), 0.0)
    unexplored[np.arange(len(chosen)), chosen] = 0.0
    return agree / (total + unexplored.sum(axis=1))


def _change_sentences(raw_types, chosen_types, raw_lp, lp, chosen, base, box: _Box, n) -> list[str]:
    castles_read = sum(1 for t, _ in raw_types if t is Terrain.CASTLE)
    out = []
    for i in range(n * n):
        if chosen_types[i] == raw_types[i]:
            continue
        terrain, crowns = raw_types[i]
        if raw_types[i] not in box.types:
            why = f"no {terrain.value} square with {crowns} crowns in the {box.name} box"
        elif castles_read != 1 and Terrain.CASTLE in (terrain, chosen_types[i][0]):
            why = f"a kingdom has exactly one castle and {castles_read} were read"
        else:
            why = f"as read, the kingdom does not split into distinct dominoes of the {box.name} box"
        p_raw, p_new = math.exp(raw_lp[i]), math.exp(lp[i, chosen[i]])
        # Said to a player (the CLI and the web page show it): how sure the reader was, in percent, not p=.
        out.append(
            f"{square_name(divmod(i, n))}: read as {describe(raw_types[i])} ({p_raw:.0%} sure), "
            f"changed to {describe(chosen_types[i])} ({p_new:.0%}): {why}"
        )
    return out


def _keep_reading(raw_types, raw_lp, n, name, box: _Box, tileset, settings, checks, exhaustive, joint, work) -> Decoding:
    """No legal kingdom close enough: the per-square best reading, doubts marked."""
    raw_p = np.exp(raw_lp)
    doubtful = raw_p < settings.uncertain_below
    problems: list[str] = []
    for i, square_type in enumerate(raw_types):
        if square_type not in box.types:
            doubtful[i] = True
            terrain, crowns = square_type
            problems.append(f"{square_name(divmod(i, n))}: no {terrain.value} square with {crowns} crowns in the {box.name} box")
    castles = [i for i, (t, _) in enumerate(raw_types) if t is Terrain.CASTLE]
    if len(castles) != 1:
        if not castles:  # point at the likeliest place for it
            castles = [int(np.argmax(joint[:, :, CASTLE, 0].reshape(-1)))]
        doubtful[castles] = True
        problems.append(f"{len([t for t, _ in raw_types if t is Terrain.CASTLE])} castles read; a kingdom has exactly one")
    kingdom = _kingdom(name, n, raw_types, doubtful)
    split = split_into_dominoes(kingdom, tileset, budget=settings.flag_split_budget)
    for position in split.unpaired:
        doubtful[position[0] * n + position[1]] = True
    if split.unpaired:
        names = "; ".join(square_name(p) for p in split.unpaired)
        problems.append(f"these squares pair with no distinct domino of the {box.name} box: {names}")
    if not problems:
        problems.append("no legal kingdom found within the search's limits")
    return Decoding(
        kingdom=_kingdom(name, n, raw_types, doubtful),
        changes=[],
        legal=False,
        confidence=raw_p.reshape(n, n),
        problems=problems,
        checks=checks,
        exhaustive=exhaustive,
        work=work,
    )
