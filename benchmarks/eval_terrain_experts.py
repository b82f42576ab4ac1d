"""How much the texture-only terrain expert should weigh: out of fold, over the weights asked for.

Terrain is read by two networks whose logits add (kscore.vision.read.model.Experts; train.SHAPES_WEIGHT, 0.5
as shipped): the whole MLP on every feature and one on the print's texture alone, its
vote times a weight. This fits both on the training squares and their copies (train._terrain_samples, as
`kscore train` does) in folds by kingdom or photo, and prints for each weight the temperature fitted on their
vote and the out-of-fold log loss and share right of the experts as `kscore train` builds them at that
weight (the classes of train.SHAPES_ABSTAIN left to the whole network tempered alone), overall and per source
(boards, phone squares and each kind of copy).

    python benchmarks/eval_terrain_experts.py                     # weights 0 0.25 0.5 0.75 1, ~3 min
    python benchmarks/eval_terrain_experts.py --weights 0 0.5 --phone-per-class 60
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kscore.lab import train as T  # noqa: E402
from kscore.vision.read.classes import TERRAIN_CLASSES  # noqa: E402
from kscore.vision.read.model import experts_vote  # noqa: E402


def log_loss(logits: np.ndarray, y: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    return np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.25, 0.5, 0.75, 1.0])
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--phone-per-class", type=int, default=0, help="phone squares per label (0: all)")
    args = ap.parse_args(argv)
    with T.single_threaded():
        samples = T.load_board_samples(T.DEFAULT_BOARDS)
        samples += T.load_phone_samples(T.DEFAULT_PHONE, args.phone_per_class or None)
        samples = T._terrain_samples(samples)
        whole, shapes, rows = T.out_of_fold_terrain(samples, args.folds, experts=True)
    per_sample = [s.size * s.size for s in samples]
    y = np.concatenate([s.terrain_y for s in samples])[rows]
    source = np.repeat([s.source for s in samples], per_sample)[rows]
    sources = sorted(set(source))
    voted = ~np.isin(np.arange(len(TERRAIN_CLASSES)), T.SHAPES_ABSTAIN)
    whole_t = T._temperature(whole, y)
    print(f"{len(y)} squares out of fold ({args.folds} folds); the whole network's temperature {whole_t:.2f}; "
          "per source: right / log loss")
    print("weight  temp  log loss   right  | " + "  ".join(sources))
    for w in args.weights:
        vote_t = T._temperature(whole + np.float32(w) * shapes, y)
        z = experts_vote(whole, shapes, w, voted, whole_t, vote_t)
        loss, right = log_loss(z, y), z.argmax(axis=1) == y
        per = "  ".join(f"{right[source == s].mean():.2%}/{loss[source == s].mean():.3f}" for s in sources)
        print(f"{w:6.2f} {vote_t:5.2f} {loss.mean():9.4f} {right.mean():7.2%}  | {per}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
