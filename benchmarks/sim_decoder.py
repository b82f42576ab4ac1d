"""Simulate the tile-set decoder on the labelled boards: how often it corrects vs breaks.

Each labelled kingdom becomes a probability grid with classifier-like noise
(softmax of a true-class logit plus Gaussian noise on every class), then one of:
  noise   : noise only (errors happen where the noise wins)
  crown   : plus one tile square whose crowns are misread (wrong count wins with p ~ U(0.5, 0.95))
  terrain : plus one tile square whose terrain is misread the same way
  confident-crown : one crown misread with p ~ U(0.99, 0.999) (should be kept and flagged, rarely "fixed")
For each board the outcome is one of: right (reading right, decoded right),
corrected (reading wrong, decoded right), flagged (decoded wrong but a wrong
square is marked ?), silent (decoded wrong, no wrong square marked), broken
(reading right, decoded wrong). Also: boards whose decoded kingdom has any `?`.

    python benchmarks/sim_decoder.py [--data ../shared/data/kingdomino] [--trials 10] [--seed 0] [--strength 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kscore.dataset import load_boards  # noqa: E402
from kscore.kingdom import Kingdom, Terrain  # noqa: E402
from kscore.recognition.classes import TERRAIN_CLASSES  # noqa: E402
from kscore.recognition.decoder import decode  # noqa: E402
from kscore.tileset import KINGDOMINO  # noqa: E402

SCENARIOS = ("noise", "crown", "terrain", "confident-crown")


def noisy(kingdom: Kingdom, rng: np.random.Generator, strength: float = 7.0, sigma: float = 1.5):
    """Softmax(true-class logit ~ N(strength, 1.5) + N(0, sigma) noise) per square."""
    n = kingdom.size
    zt = rng.normal(0.0, sigma, (n, n, len(TERRAIN_CLASSES)))
    zc = rng.normal(0.0, sigma, (n, n, 4))
    for (r, c), s in kingdom.squares():
        zt[r, c, TERRAIN_CLASSES.index(s.terrain)] += rng.normal(strength, 1.5)
        zc[r, c, s.crowns] += rng.normal(strength, 1.5)
    return _softmax(zt), _softmax(zc)


def _softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def misread(probs: np.ndarray, true: int, rng: np.random.Generator, low: float, high: float) -> None:
    """One square's distribution: a wrong class wins with p in [low, high], the truth is second."""
    k = probs.shape[-1]
    wrong = int(rng.choice([i for i in range(k) if i != true]))
    p_wrong = rng.uniform(low, high)
    rest = 1.0 - p_wrong
    probs[:] = rest * 0.1 / max(k - 2, 1)
    probs[true] = rest * 0.9
    probs[wrong] = p_wrong
    probs /= probs.sum()


def per_square_reading(T, C) -> list[tuple[Terrain, int]]:
    d = decode(T, C, None)
    return [(s.terrain, s.crowns) for _, s in d.kingdom.squares()]


def run(folder: Path, trials: int, seed: int, strength: float) -> None:
    boards = load_boards(folder)
    rng = np.random.default_rng(seed)
    for scenario in SCENARIOS:
        outcomes: Counter = Counter()
        times = []
        any_flag = 0
        squares = squares_right = 0
        for _ in range(trials):
            for board in boards:
                truth = board.kingdom
                T, C = noisy(truth, rng, strength)
                tiles = [p for p, s in truth.squares() if s.terrain.scores]
                r, c = tiles[rng.integers(len(tiles))]
                if scenario in ("crown", "confident-crown"):
                    low, high = (0.5, 0.95) if scenario == "crown" else (0.99, 0.999)
                    misread(C[r, c], truth[(r, c)].crowns, rng, low, high)
                elif scenario == "terrain":
                    misread(T[r, c], TERRAIN_CLASSES.index(truth[(r, c)].terrain), rng, 0.5, 0.95)
                true_types = [(s.terrain, s.crowns) for _, s in truth.squares()]
                reading = per_square_reading(T, C)
                reading_right = reading == true_types
                squares += len(reading)
                squares_right += sum(a == b for a, b in zip(reading, true_types))
                t0 = time.perf_counter()
                d = decode(T, C, KINGDOMINO, board.board_id)
                times.append(time.perf_counter() - t0)
                got = [(s.terrain, s.crowns) for _, s in d.kingdom.squares()]
                wrong = [i for i, (a, b) in enumerate(zip(got, true_types)) if a != b]
                flags = {i for i, (_, s) in enumerate(d.kingdom.squares()) if s.uncertain}
                any_flag += bool(flags)
                if not wrong:
                    outcomes["right" if reading_right else "corrected"] += 1
                elif reading_right:
                    outcomes["broken"] += 1
                elif flags & set(wrong):
                    outcomes["flagged"] += 1
                else:
                    outcomes["silent"] += 1
        total = sum(outcomes.values())
        figures = ", ".join(f"{k} {outcomes[k]} ({100 * outcomes[k] / total:.1f}%)"
                            for k in ("right", "corrected", "flagged", "silent", "broken"))
        print(f"{scenario:16s} boards {total}: {figures}; any ? on {100 * any_flag / total:.1f}% of boards; "
              f"per-square reading right {100 * squares_right / squares:.2f}%; "
              f"decode median {1000 * np.median(times):.2f} ms, max {1000 * max(times):.1f} ms")


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "kingdomino"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strength", type=float, default=7.0, help="true-class logit mean: higher, fewer noise errors")
    args = parser.parse_args()
    run(args.data, args.trials, args.seed, args.strength)


if __name__ == "__main__":
    main()
