"""`kscore eval FOLDER [--cv]`: how well the recogniser reads a labelled folder.

Plain mode reads every board of FOLDER with the shipped models (on the training
folder that is an in-sample figure, and the report says so). `--cv` retrains per
fold of a GroupKFold by `kingdom` (the phone squares, when given, join every
training fold) and reads the held-out kingdoms with the decoder: the figure
that predicts kscore on unseen kingdoms.

The folder's labels.json decides the kind of evaluation: `boards` (the
kingdomino format, here) or `items` (labelled photos: the photo stage's branch,
see evaluate()).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from kscore.lab.dataset import LabelledBoard, load_boards
from kscore.game.kingdom import Kingdom, Square
from kscore.game.tileset import KINGDOMINO, TileSet
from kscore.vision.read.classes import TERRAIN_CLASSES, TERRAIN_INDEX
from kscore.vision.read.doubt import Doubt
from kscore.vision.read.model import Models, load_models
from kscore.vision.read.reader import decode_probabilities, square_probabilities
from kscore.lab.measures import kingdom_points, squares_right


@dataclass
class BoardResult:
    board_id: str
    truth: Kingdom
    read: Kingdom
    seconds: float
    changes: list[str]

    @property
    def squares(self):
        return [(self.truth[p], self.read[p]) for p in self.truth.positions()]

    @property
    def all_right(self) -> bool:
        return squares_right(self.truth, self.read) == self.truth.size**2

    @property
    def score_right(self) -> bool:
        return kingdom_points(self.truth) == kingdom_points(self.read)

    @property
    def flagged(self) -> bool:
        return bool(self.read.uncertain())


@dataclass
class MarkTally:
    """How the `?` marks fall: on wrong squares (wanted) and on right ones (the player's wasted checks)."""

    wrong: int = 0
    wrong_marked: int = 0
    right: int = 0
    right_marked: int = 0

    def add(self, truth: Square, read: Square) -> None:
        if (truth.terrain, truth.crowns) == (read.terrain, read.crowns):
            self.right += 1
            self.right_marked += read.uncertain
        else:
            self.wrong += 1
            self.wrong_marked += read.uncertain

    def line(self) -> str:
        return (f"squares marked '?': wrong {self.wrong_marked}/{self.wrong} = {self.wrong_marked / max(self.wrong, 1):.1%},"
                f" right {self.right_marked}/{self.right} = {self.right_marked / max(self.right, 1):.1%}")


@dataclass
class EvalReport:
    folder: str
    mode: str  # "shipped models" or "grouped CV, k folds"
    results: list[BoardResult] = field(default_factory=list)

    def _squares(self):
        return [pair for r in self.results for pair in r.squares]

    @property
    def terrain_accuracy(self) -> float:
        sq = self._squares()
        return sum(t.terrain == r.terrain for t, r in sq) / len(sq)

    @property
    def crown_accuracy(self) -> float:
        sq = self._squares()
        return sum(t.crowns == r.crowns for t, r in sq) / len(sq)

    @property
    def square_accuracy(self) -> float:
        sq = self._squares()
        return sum(t.terrain == r.terrain and t.crowns == r.crowns for t, r in sq) / len(sq)

    def marks(self) -> MarkTally:
        tally = MarkTally()
        for t, r in self._squares():
            tally.add(t, r)
        return tally

    def confusion(self) -> np.ndarray:
        m = np.zeros((len(TERRAIN_CLASSES), len(TERRAIN_CLASSES)), int)
        for t, r in self._squares():
            m[TERRAIN_INDEX[t.terrain], TERRAIN_INDEX[r.terrain]] += 1
        return m

    def crown_confusion(self) -> np.ndarray:
        m = np.zeros((4, 4), int)
        for t, r in self._squares():
            m[min(t.crowns, 3), min(r.crowns, 3)] += 1
        return m

    def text(self) -> str:
        n = len(self.results)
        wrong_score = [r for r in self.results if not r.score_right]
        unflagged = [r for r in wrong_score if not r.flagged]
        slowest = max(self.results, key=lambda r: r.seconds)
        times = np.array([r.seconds for r in self.results]) * 1000
        lines = [
            f"{self.folder}: {n} boards, {len(self._squares())} squares ({self.mode})",
            f"terrain right      {self.terrain_accuracy:8.2%}",
            f"crowns right       {self.crown_accuracy:8.2%}",
            f"square right       {self.square_accuracy:8.2%}  (terrain and crowns)",
            f"boards all right   {sum(r.all_right for r in self.results):4d}/{n}",
            f"boards exact score {n - len(wrong_score):4d}/{n}  ({(n - len(wrong_score)) / n:.1%})",
            f"wrong score, no square marked unsure: {len(unflagged)}"
            + (f" ({', '.join(r.board_id for r in unflagged)})" if unflagged else ""),
            f"boards with a square marked unsure: {sum(r.flagged for r in self.results)}",
            self.marks().line(),
            f"read time per board: median {np.median(times):.1f} ms; slowest board {slowest.board_id} "
            f"{slowest.seconds * 1000:.1f} ms",
            "",
            "terrain confusion (rows: label, columns: read)",
        ]
        names = [t.value[:5] for t in TERRAIN_CLASSES]
        lines.append("        " + " ".join(f"{x:>6}" for x in names))
        for name, row in zip(names, self.confusion()):
            lines.append(f"{name:>7} " + " ".join(f"{v:6d}" for v in row))
        lines += ["", "crown confusion (rows: label 0-3, columns: read 0-3)"]
        for k, row in enumerate(self.crown_confusion()):
            lines.append(f"{k:>7} " + " ".join(f"{v:6d}" for v in row))
        errors = [
            f"  board {r.board_id} {p}: {t.terrain.value}/{t.crowns} read {s.terrain.value}/{s.crowns}{' ?' if s.uncertain else ''}"
            for r in self.results
            for p, (t, s) in zip(r.truth.positions(), r.squares)
            if (t.terrain, t.crowns) != (s.terrain, s.crowns)
        ]
        if errors:
            lines += ["", f"misread squares ({len(errors)}; position is (row, col) from 0):"] + errors[:60]
        return "\n".join(lines)


def _read(board: LabelledBoard, image: np.ndarray, models: Models, tileset: TileSet | None) -> BoardResult:
    start = time.perf_counter()
    terrain_probs, crown_probs = square_probabilities(image, board.kingdom.size, models)
    kingdom, changes, _ = decode_probabilities(terrain_probs, crown_probs, tileset, board.board_id, Doubt.from_info(models.info))
    return BoardResult(board.board_id, board.kingdom, kingdom, time.perf_counter() - start, changes)


def evaluate_boards(
    folder: Path | str,
    cv: bool = False,
    tileset: TileSet | None = KINGDOMINO,
    folds: int = 9,
    tiles_phone: Path | str | None = None,
    models: Models | None = None,
    echo: bool = True,
) -> EvalReport:
    """Read every labelled board of `folder` and compare with its labels.

    cv: GroupKFold by kingdom, retraining per fold on the other kingdoms (plus
    the phone squares of `tiles_phone`, when given, as the shipped model is).
    """
    boards = load_boards(folder)
    images = {b.board_id: cv2.imread(str(b.image)) for b in boards}
    if not cv:
        models = models if models is not None else load_models()
        if boards:  # warm-up: first-call costs (imports, OpenCV buffers) are not a board's reading time
            _read(boards[0], images[boards[0].board_id], models, tileset)
        report = EvalReport(str(folder), f"models: {models.info.get('board_samples', '?')} training board samples "
                            "(each labelled board twice: as cut and at its found grid); "
                            "in-sample if this is the training folder")
        report.results = [_read(b, images[b.board_id], models, tileset) for b in boards]
    else:
        from kscore.lab.train import board_samples, fit_models, load_phone_samples, single_threaded

        phone = load_phone_samples(tiles_phone) if tiles_phone is not None else []
        samples = {b.board_id: board_samples(images[b.board_id], b) for b in boards}
        kingdoms = sorted({b.group for b in boards})
        folds = min(folds, len(kingdoms))
        report = EvalReport(str(folder), f"grouped CV by kingdom, {folds} folds"
                            + (f", + {len(phone)} phone squares in training" if phone else ""))
        from kscore.lab.progress import Progress

        progress = Progress("eval --cv", folds, quiet=not echo)
        progress.say(f"{len(boards)} boards, {folds} folds: each fold retrains the models")
        for f in range(folds):
            held = {k for i, k in enumerate(kingdoms) if i % folds == f}
            with single_threaded():
                fold_models = fit_models([s for b in boards if b.group not in held for s in samples[b.board_id]] + phone)
            for b in boards:
                if b.group in held:
                    report.results.append(_read(b, images[b.board_id], fold_models, tileset))
            progress.step("folds done")
        order = {b.board_id: i for i, b in enumerate(boards)}
        report.results.sort(key=lambda r: order[r.board_id])
    if echo:
        print(report.text())
    return report
