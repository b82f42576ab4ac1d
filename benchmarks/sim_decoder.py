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

    python benchmarks/sim_decoder.py [--data ../shared/data/kingdomino] [--trials 10] [--seed 0] [--strength 7] [--margin 6.9]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.game.kingdom import Kingdom, Terrain  # noqa: E402
from kscore.vision.read.classes import TERRAIN_CLASSES  # noqa: E402
from kscore.vision.read.decoder import DEFAULT_SETTINGS, DecoderSettings, decode  # noqa: E402
from kscore.game.tileset import KINGDOMINO  # noqa: E402

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


def run(folder: Path, trials: int, seed: int, strength: float, settings: DecoderSettings) -> None:
    boards = load_boards(folder)
    rng = np.random.default_rng(seed)
    bins = np.array([0.5, 0.8, 0.9, 0.95, 0.99])
    in_bin = np.zeros(len(bins) + 1)
    right_in_bin = np.zeros(len(bins) + 1)
    for scenario in SCENARIOS:
        outcomes: Counter = Counter()
        times = []
        any_flag = 0
        squares = squares_right = decoded_right = 0
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
                d = decode(T, C, KINGDOMINO, board.board_id, settings=settings)
                times.append(time.perf_counter() - t0)
                got = [(s.terrain, s.crowns) for _, s in d.kingdom.squares()]
                ok = np.array([a == b for a, b in zip(got, true_types)])
                decoded_right += int(ok.sum())
                which = np.searchsorted(bins, d.confidence.reshape(-1), side="right")
                np.add.at(in_bin, which, 1)
                np.add.at(right_in_bin, which, ok)
                wrong = set(np.flatnonzero(~ok))
                flags = {i for i, (_, s) in enumerate(d.kingdom.squares()) if s.uncertain}
                any_flag += bool(flags)
                if not wrong:
                    outcomes["right" if reading_right else "corrected"] += 1
                elif reading_right:
                    outcomes["broken"] += 1
                elif flags & wrong:
                    outcomes["flagged"] += 1
                else:
                    outcomes["silent"] += 1
        total = sum(outcomes.values())
        figures = ", ".join(f"{k} {outcomes[k]} ({100 * outcomes[k] / total:.1f}%)"
                            for k in ("right", "corrected", "flagged", "silent", "broken"))
        print(f"{scenario}: boards {total}: {figures}")
        print(f"    squares right: reading {100 * squares_right / squares:.2f}%, decoded {100 * decoded_right / squares:.2f}%; "
              f"boards with any ?: {100 * any_flag / total:.1f}%; "
              f"decode median {1000 * np.median(times):.2f} ms, max {1000 * max(times):.1f} ms")
    edges = ["0"] + [f"{b:g}" for b in bins] + ["1"]
    print("confidence calibration over all squares (bin: squares, fraction right):")
    for k in range(len(bins) + 1):
        if in_bin[k]:
            print(f"    [{edges[k]}, {edges[k + 1]}): {int(in_bin[k])}, {right_in_bin[k] / in_bin[k]:.3f}")


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "kingdomino"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strength", type=float, default=7.0, help="true-class logit mean: higher, fewer noise errors")
    parser.add_argument("--margin", type=float, default=DEFAULT_SETTINGS.margin, help="decoder margin (nats)")
    parser.add_argument("--uncertain-below", type=float, default=DEFAULT_SETTINGS.uncertain_below)
    args = parser.parse_args()
    settings = replace(DEFAULT_SETTINGS, margin=args.margin, uncertain_below=args.uncertain_below)
    run(args.data, args.trials, args.seed, args.strength, settings)


if __name__ == "__main__":
    main()
