"""benchmarks/eval_loose_reading.py --close --tilt: the reader alone on the scenes eval_loose.py draws with them."""

from __future__ import annotations

import importlib.util

from conftest import PROJECT
from photo_helpers import straight_and_from_a_chair

_spec = importlib.util.spec_from_file_location("eval_loose_reading", PROJECT / "benchmarks" / "eval_loose_reading.py")
reading_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reading_bench)


def test_scenes_photographed_close_from_a_chair_are_read_as_eval_loose_draws_them(kingdomino_data, capsys):
    """The same seed draws the same kingdom straight down and from a chair; from the chair the photo, and so the
    tile mask --mask tells the reader, is another."""
    base = ["--data", str(kingdomino_data.parent), "--scenes", "1", "--seed", "629", "--close", "--mask"]
    straight, chair = straight_and_from_a_chair(reading_bench.main, base, capsys)
    assert "(seed 629, shipped models: in-sample squares, close), told tile or table by" in straight
    assert "(seed 629, shipped models: in-sample squares, close, from a chair (tilt 25)), told tile" in chair

    def lines(out: str, start: str) -> list[str]:
        return [line for line in out.splitlines() if line.lstrip().startswith(start)]

    # Eval_loose's scene 0 both ways: a 7x7 frame, its squares counted alike.
    assert lines(straight, "extent squares right") == lines(chair, "extent squares right")
    assert "/49 " in lines(chair, "extent squares right")[0]
    # Seen from the chair, the tile mask calls the kingdom's squares otherwise.
    assert lines(straight, "mask says") != lines(chair, "mask says")
