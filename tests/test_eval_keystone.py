"""benchmarks/eval_keystone.py: flat boards photographed from a chair, counted by the extent read."""

from __future__ import annotations

import importlib.util

from conftest import PROJECT

_spec = importlib.util.spec_from_file_location("eval_keystone", PROJECT / "benchmarks" / "eval_keystone.py")
keystone_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(keystone_bench)


def test_the_bench_counts_the_boards_read_at_their_extent_and_lists_the_others(capsys):
    # Straight down a 5x5 is read 5x5 whatever its colours; a 7x7 at 35 degrees turned -10 (seed 1) is not yet.
    assert keystone_bench.main(["--tilts", "0", "--seeds", "1", "2", "--turns", "0", "--sizes", "5"]) == 0
    out = capsys.readouterr().out
    assert "5x5 at 0 degrees: 2/2 read 5x5" in out
    assert "boards read at their extent: 2/2" in out
    keystone_bench.main(["--tilts", "35", "--seeds", "1", "--turns", "-10", "--sizes", "7", "--list"])
    out = capsys.readouterr().out
    assert "7x7 at 35 degrees: 0/1 read 7x7" in out
    assert "    seed 1 turn -10: " in out  # what it was read as instead
