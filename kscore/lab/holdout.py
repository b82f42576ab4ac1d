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

from pathlib import Path

#: The fit takes the first N phone squares of each label (minutes less than all of them)...
PHONE_PER_CLASS = 60
#: ...and scenes take their flat castles from the N-th phone castle on, which it never saw.
UNSEEN_CASTLES = 63


def held_out_kingdoms(groups) -> set[str]:
    """Every 3rd kingdom in name order: the scenes are built from these, the fit never sees them."""
    return set(sorted(set(groups))[::3])


def holdout_models(data: Path, phone_per_class: int = PHONE_PER_CLASS):
    """(Models fitted without the held-out kingdoms, those kingdoms' names), as `kscore train --doubt-bars` fits.

    phone_per_class: the first N phone squares of each label (0: all of them, castles the scenes use included).
    Minutes of CPU: save the fit (Models.save) and reuse it across seeds.
    """
    from kscore.lab.dataset import load_boards
    from kscore.lab.train import fit_models, load_board_samples, load_phone_samples, single_threaded

    held_out = held_out_kingdoms(b.group for b in load_boards(data / "kingdomino"))
    with single_threaded():
        samples = [s for s in load_board_samples(data / "kingdomino") if s.group not in held_out]
        samples += load_phone_samples(data / "tiles-phone", phone_per_class or None)
        return fit_models(samples, doubt_bars=True), held_out
