"""benchmarks/eval_wrong_squares.py draws eval_loose's scenes as eval_loose draws them, from a chair too (--tilt)."""

from __future__ import annotations

import importlib.util

from conftest import PROJECT
from photo_helpers import straight_and_from_a_chair

_spec = importlib.util.spec_from_file_location("eval_wrong_squares", PROJECT / "benchmarks" / "eval_wrong_squares.py")
wrong_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wrong_bench)


def test_the_scenes_from_a_chair_are_eval_loose_s_scenes_from_a_chair(kingdomino_data, capsys):
    """The same seed's scene, photographed close, straight down and from a chair: each run says which it read,
    and both count the squares of the one kingdom drawn."""
    base = ["--data", str(kingdomino_data.parent), "--scenes", "1", "--seed", "629", "--close"]
    straight, chair = straight_and_from_a_chair(wrong_bench.main, base, capsys)
    assert straight.startswith("eval_loose scenes: 1 (seed 629, close); kingdoms found 1")
    assert chair.startswith("eval_loose scenes: 1 (seed 629, close, from a chair (tilt 25)); kingdoms found 1")

    def right_squares(out: str) -> int:
        line = next(line for line in out.splitlines() if "right squares by source" in line)
        return sum(int(part.rsplit(" ", 1)[1]) for part in line.split(":", 1)[1].split(","))

    # Both read the one kingdom of seed 629's first scene (41 tiles in a 7x7 frame: eval_loose_cells' test),
    # every square of its frame counted once, right or wrong.
    assert right_squares(straight) + _wrong(straight) == 49
    assert right_squares(chair) + _wrong(chair) == 49


def _wrong(out: str) -> int:
    line = next(line for line in out.splitlines() if line.startswith("  all wrong squares marked"))
    return int(line.split(":")[1].split(";")[0].split("/")[1])
