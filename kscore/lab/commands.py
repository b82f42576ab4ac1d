"""`kscore train` and `kscore eval`: the Typer apps kscore.app.cli's SUBCOMMANDS point at.

Imported only when one of them runs (training pulls in scikit-learn).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from kscore.errors import KscoreError
from kscore.game.tileset import TILESETS

train_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
eval_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


def _defaults():
    from kscore.lab.train import DEFAULT_BOARDS, DEFAULT_OUT, DEFAULT_PHONE

    return DEFAULT_BOARDS, DEFAULT_PHONE, DEFAULT_OUT


@train_app.command(
    help="Rebuild the recognition models (deterministic) from labelled boards and, when present, phone squares.",
    epilog="Example: kscore train ../shared/data/kingdomino --phone ../shared/data/tiles-phone --out models/",
)
def train_command(
    boards: Optional[Path] = typer.Argument(None, metavar="BOARDS", help="Labelled boards folder (default: ../shared/data/kingdomino)."),
    phone: Optional[Path] = typer.Option(None, "--phone", metavar="DIR", help="tiles-phone folder (default: ../shared/data/tiles-phone if present)."),
    no_phone: bool = typer.Option(False, "--no-phone", metavar="", help="Train on the boards only."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Where to write recognition.npz (default: the repo's models/); "
                                       "use another folder with KSCORE_MODELS=DIR."),
) -> None:
    from kscore.lab.train import train

    default_boards, default_phone, default_out = _defaults()
    boards = boards or default_boards
    if not (boards / "labels.json").is_file():
        raise KscoreError(f"{boards}: no labels.json (expected a folder in the kingdomino data set's format)")
    phone_dir = None if no_phone else (phone or (default_phone if default_phone.is_dir() else None))
    if out is None and not (default_out / "__init__.py").is_file():
        raise KscoreError("not running from a kscore checkout: say where to write the model with --out DIR")
    path = train(boards, phone_dir, out or default_out)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KB) from {boards}" + (f" + {phone_dir}" if phone_dir else ""))


@eval_app.command(
    help="Read a labelled folder and print per-square terrain/crown/square accuracy, boards all right, "
    "boards with the exact score, confusion matrices and the slowest board.",
    epilog="Examples: kscore eval ../shared/data/kingdomino --cv ; kscore eval my_boards/ --no-tileset",
)
def eval_command(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="Folder with labels.json (`boards` or `items` format)."),
    cv: bool = typer.Option(False, "--cv", metavar="", help="Grouped cross-validation by kingdom: retrain per fold."),
    folds: int = typer.Option(9, "--folds", help="Folds for --cv."),
    phone: Optional[Path] = typer.Option(None, "--phone", metavar="DIR", help="With --cv: phone squares added to every training fold (default: ../shared/data/tiles-phone if present)."),
    no_phone: bool = typer.Option(False, "--no-phone", metavar="", help="With --cv: train folds on boards only."),
    no_tileset: bool = typer.Option(False, "--no-tileset", metavar="", help="Per-square reading, no tile-set decoding."),
    tileset: str = typer.Option("kingdomino", "--tileset", help=f"Tile set for decoding: {', '.join(TILESETS)}."),
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
        options["tiles_phone"] = None if no_phone else (phone or (default_phone if default_phone.is_dir() else None))
    evaluate(folder, cv=cv, **options)
