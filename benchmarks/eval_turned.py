"""The same real photos turned a quarter, a half and three quarters: does kscore read the kingdom the same?

A player photographs the table from whichever side they sit on, so a kingdom's
reading should not depend on which way the photo is turned: what it does
depend on is the finder's and the reader's own habits (a lattice phase, a
border read from one side first), not the table. This runs the evaluation of
`kscore eval` (photos labelled by their kingdom's extent, as
../shared/data/photos-loose; matched up to rotation) on each photo turned by 0,
90, 180 and 270 degrees, and prints per turn: found, squares right, exact
scores, and then per photo the four scores read and whether they agree. No
parameter is tuned here: it only measures.

    python benchmarks/eval_turned.py [--data ../shared/data/photos-loose] [--turns 0 90 180 270]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import cv2

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.lab.evaluate_photos import evaluate_extent_items  # noqa: E402

TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
LABELS = "labels.json"


def turned_copy(folder: Path, degrees: int, into: Path) -> Path:
    """`folder`'s labelled photos turned clockwise by `degrees`, written to a new folder in `into`.

    Each keeps its name (the labels name the file), re-encoded as JPEG at quality 100, the least change a
    turn can add; the unturned copy goes through the same encoding, so the turns compare like with like.
    """
    out = into / f"turned{degrees}"
    out.mkdir()
    shutil.copy(folder / LABELS, out / LABELS)
    for photo in sorted(folder.iterdir()):
        if photo.name == LABELS or photo.suffix.lower() not in {".jpg", ".jpeg", ".png"}:
            continue
        image = cv2.imread(str(photo))
        if image is None:
            continue
        if TURNS[degrees] is not None:
            image = cv2.rotate(image, TURNS[degrees])
        cv2.imwrite(str(out / photo.name), image, [cv2.IMWRITE_JPEG_QUALITY, 100])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data" / "photos-loose")
    parser.add_argument("--turns", type=int, nargs="+", default=list(TURNS), choices=list(TURNS))
    args = parser.parse_args()
    if not (args.data / LABELS).is_file():
        print(f"eval_turned: no {LABELS} in {args.data} (a folder labelled by extent, as photos-loose)",
              file=sys.stderr)
        return 2
    scores: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for degrees in args.turns:
            result = evaluate_extent_items(turned_copy(args.data, degrees, Path(tmp)), echo=lambda *_: None)
            lines = result.lines()
            found, squares, exact = lines[1], lines[3].split(" (")[0], lines[4]
            print(f"turned {degrees:3d}: {found}; {squares}; {exact}")
            for k in result.kingdoms:
                scores.setdefault(k.photo, [k.truth_score]).append(k.read_score if k.found else None)
    print(f"\nscore read per turn ({', '.join(str(t) for t in args.turns)}) against the truth:")
    agree = 0
    for photo, (truth, *read) in scores.items():
        same = len(set(read)) == 1
        agree += same
        print(f"  {photo}: {' '.join('-' if s is None else str(s) for s in read)} (truth {truth})"
              + ("" if same else "  differs by turn"))
    print(f"kingdoms read the same at every turn: {agree}/{len(scores)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
