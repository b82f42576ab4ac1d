"""`kscore train` and `kscore eval`: the Typer apps kscore.app.cli's SUBCOMMANDS point at.

Imported only when one of them runs (training pulls in scikit-learn).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from kscore.app.cli import PlainHelp  # help without Typer's <bool> and {FOLDER}
from kscore.errors import KscoreError
from kscore.game.tileset import TILESETS

_HELP = {"help_option_names": ["-h", "--help"]}
train_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, context_settings=_HELP)
eval_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, context_settings=_HELP)


def find_checkout(starts: tuple[Path, ...] | None = None) -> Path | None:
    """The kscore checkout: the folder holding pyproject.toml and kscore/, searched up from the current folder,
    then from this file (an editable install). `pip install .` copies kscore into the virtual environment,
    where this file's folders lead nowhere near ../shared."""
    starts = starts or (Path.cwd(), Path(__file__).resolve().parent)
    for start in starts:
        for folder in (start, *start.parents):
            if (folder / "pyproject.toml").is_file() and (folder / "kscore" / "__init__.py").is_file():
                return folder
    return None


def _defaults() -> tuple[Path | None, Path | None, Path | None]:
    """../shared/data/kingdomino, ../shared/data/tiles-phone and models/ beside the checkout (None: no checkout)."""
    checkout = find_checkout()
    if checkout is None:
        return None, None, None
    data = checkout.parent / "shared" / "data"
    return data / "kingdomino", data / "tiles-phone", checkout / "models"


@train_app.command(
    cls=PlainHelp,
    help="Rebuild the recognition models (deterministic) from labelled boards and, when present, phone squares.",
    epilog="Example: kscore train ../shared/data/kingdomino --phone ../shared/data/tiles-phone --out models/",
)
def train_command(
    boards: Optional[Path] = typer.Argument(None, metavar="BOARDS", help="Labelled boards folder (default: ../shared/data/kingdomino beside the kscore checkout this runs in)."),
    phone: Optional[Path] = typer.Option(None, "--phone", metavar="DIR", help="tiles-phone folder (default: ../shared/data/tiles-phone if present)."),
    no_phone: bool = typer.Option(False, "--no-phone", metavar="", help="Train on the boards only."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Where to write recognition.npz (default: the repo's models/); "
                                       "use another folder with KSCORE_MODELS=DIR."),
    doubt_bars: bool = typer.Option(False, "--doubt-bars", metavar="", help="Also choose the '?' bars on out-of-fold "
                                    "readings (the shipped model has them: see the README's 'Doubt')."),
    crowns_from: Optional[Path] = typer.Option(None, "--crowns-from", metavar="FILE", help="Fit terrain only and keep "
                                               "the crown template, crown models and crown bar of this model file "
                                               "(or folder): how the shipped file is built, see models/README.md."),
) -> None:
    from kscore.lab.train import train
    from kscore.vision.read.model import MODEL_FILE

    default_boards, default_phone, default_out = _defaults()
    boards = boards or default_boards
    if boards is None:
        raise KscoreError("no kscore checkout above this folder, so no ../shared/data/kingdomino: "
                          "name the labelled boards folder (kscore train BOARDS --out DIR)")
    if not (boards / "labels.json").is_file():
        raise KscoreError(f"{boards}: no labels.json (expected a folder in the kingdomino data set's format)")
    phone_dir = None if no_phone else (phone or (default_phone if default_phone and default_phone.is_dir() else None))
    if out is None and default_out is None:
        raise KscoreError("not running from a kscore checkout: say where to write the model with --out DIR")
    out = out or default_out
    print(f"training on {boards.resolve()}" + (f" + {phone_dir.resolve()}" if phone_dir else " (no phone squares)")
          + f"; the model goes to {out.resolve()}", file=sys.stderr, flush=True)
    if crowns_from is not None and not (crowns_from.is_file() or (crowns_from / MODEL_FILE).is_file()):
        raise KscoreError(f"{crowns_from}: no recognition model there (--crowns-from takes a {MODEL_FILE} or its folder)")
    path = train(boards, phone_dir, out, doubt_bars=doubt_bars, crowns_from=crowns_from)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KB) from {boards}" + (f" + {phone_dir}" if phone_dir else ""))


@eval_app.command(
    cls=PlainHelp,
    help="Read a labelled folder and print per-square terrain/crown/square accuracy, boards all right, "
    "boards with the exact score, confusion matrices and the slowest board.",
    epilog="Examples: kscore eval ../shared/data/kingdomino --cv ; kscore eval my_boards/ --no-tileset",
)
def eval_command(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="Folder with labels.json (`boards` or `items` format)."),
    cv: bool = typer.Option(False, "--cv", metavar="", help="Grouped cross-validation by kingdom: retrain per fold."),
    folds: int = typer.Option(9, "--folds", metavar="N", help="Folds for --cv."),
    phone: Optional[Path] = typer.Option(None, "--phone", metavar="DIR", help="With --cv: phone squares added to every training fold (default: ../shared/data/tiles-phone if present)."),
    no_phone: bool = typer.Option(False, "--no-phone", metavar="", help="With --cv: train folds on boards only."),
    no_tileset: bool = typer.Option(False, "--no-tileset", metavar="", help="Per-square reading, no tile-set decoding."),
    tileset: str = typer.Option("kingdomino", "--tileset", metavar="NAME", help=f"Tile set for decoding: {', '.join(TILESETS)}."),
) -> None:
    from kscore.lab.evaluate import evaluate

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if not (folder / "labels.json").is_file():
        raise KscoreError(f"{folder}: no labels.json")
    if tileset not in TILESETS:
        raise KscoreError(f"unknown tile set '{tileset}' (expected one of {', '.join(TILESETS)})")
    options = {"tileset": None if no_tileset else TILESETS[tileset]}
    if cv:
        _, default_phone, _ = _defaults()
        options["folds"] = folds
        options["tiles_phone"] = None if no_phone else (phone or (default_phone if default_phone and default_phone.is_dir() else None))
        print("eval --cv: phone squares for training: " + str(options["tiles_phone"] or "none"), file=sys.stderr)
    evaluate(folder, cv=cv, **options)
