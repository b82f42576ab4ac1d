"""The held-out split the synthetic benchmarks share: a recogniser that never saw the scenes' kingdoms.

The issue's loose-scene targets are on held-out kingdoms. With the shipped
models every square a synthetic scene is built from was in the training set
(in-sample squares); here every 3rd kingdom of the labelled boards is held out,
the recogniser is fitted on the rest with the shipped recipe (boards, phone
squares, hand-laid copies, doubt bars out of fold), and the scenes are built
from the held-out kingdoms' squares only, with flat castles from phone castles
the fit never saw.

>>> sorted(held_out_kingdoms(["a", "b", "c", "d", "e"]))
['a', 'd']
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

#: The labelled data beside the checkout (../shared/data), where the benchmarks look by default.
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
#: The fit takes the first N phone squares of each label (minutes less than all of them)...
PHONE_PER_CLASS = 60
#: ...and scenes take their flat castles from the N-th phone castle on, which it never saw.
UNSEEN_CASTLES = 63


def held_out_kingdoms(groups) -> set[str]:
    """Every 3rd kingdom in name order: the scenes are built from these, the fit never sees them."""
    return set(sorted(set(groups))[::3])


def holdout_models(data: Path, held_out: set[str], phone_per_class: int = PHONE_PER_CLASS):
    """Models fitted without the `held_out` kingdoms, as `kscore train --doubt-bars` fits.

    phone_per_class: the first N phone squares of each label (0: all of them, castles the scenes use included).
    Minutes of CPU: save the fit (Models.save) and reuse it across seeds.
    """
    from kscore.lab.train import fit_models, load_board_samples, load_phone_samples, single_threaded

    with single_threaded():
        samples = [s for s in load_board_samples(data / "kingdomino") if s.group not in held_out]
        samples += load_phone_samples(data / "tiles-phone", phone_per_class or None)
        return fit_models(samples, doubt_bars=True)


def add_scene_arguments(ap: argparse.ArgumentParser, seed: int, holdout_help: str,
                        phone_per_class: bool = True) -> None:
    """The options of a benchmark drawing loose scenes (benchmarks/eval_loose*.py): the data, how many scenes
    from which seed, and scene_bank's: --holdout (its help the benchmark's own), --phone-per-class (when
    the benchmark takes it), --models, --save-models."""
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--holdout", action="store_true", help=holdout_help)
    if phone_per_class:
        ap.add_argument("--phone-per-class", type=int, default=PHONE_PER_CLASS, help="--holdout: phone squares per label (0: all)")
    ap.add_argument("--models", type=Path, help="read with this model file (with --holdout: a saved holdout fit)")
    ap.add_argument("--save-models", type=Path, help="--holdout: keep the fit in this folder")


def scene_bank(data: Path, holdout: bool = False, models_file: Path | None = None, save_to: Path | None = None,
               phone_per_class: int = PHONE_PER_CLASS):
    """(the models to read with, None for the shipped ones; the SquareBank the scenes are drawn from).

    holdout: the held-out kingdoms' squares and unseen flat castles, read by a fit without them: the one
    in models_file if given, else fitted now (minutes; kept in save_to if given). Without holdout,
    models_file alone reads every kingdom's squares with that model. Squares with a crown across their
    board's grid line are left out (loose_scenes.crowns_across_grid): no tile on a table shows half a crown.
    """
    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank
    from kscore.vision.read.model import load_models

    boards = load_boards(data / "kingdomino")
    models = load_models(models_file) if models_file is not None else None
    first_castle = 0
    if holdout:
        held_out = held_out_kingdoms(b.group for b in boards)
        if models is None:
            t = time.perf_counter()
            models = holdout_models(data, held_out, phone_per_class)
            print(f"fitted without {len(held_out)} kingdoms ({time.perf_counter() - t:.0f} s); scenes are built from them")
            if save_to is not None:
                print(f"saved the fit: {models.save(save_to)}")
        boards = [b for b in boards if b.group in held_out]
        first_castle = UNSEEN_CASTLES
    return models, SquareBank.from_boards(boards, data / "tiles-phone" / "castle", first=first_castle,
                                          whole_crowns=True)
