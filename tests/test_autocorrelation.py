"""The edges' autocorrelation behind every pitch (loose._autocorrelation): each row's own, summed over the rows."""

import numpy as np

from kscore.vision.find.loose import _autocorrelation


def _by_hand(g: np.ndarray) -> np.ndarray:
    """Each row less its mean, correlated with itself at every lag 0..n-1, summed over the rows, 1 at lag 0."""
    n = g.shape[1]
    rows = g.astype(np.float64) - g.mean(axis=1, keepdims=True)
    ac = sum(np.correlate(row, row, "full")[n - 1:] for row in rows)
    return ac / ac[0]


def test_it_is_the_sum_of_the_rows_own_autocorrelations():
    g = np.random.default_rng(3).random((40, 90)).astype(np.float32)
    assert np.allclose(_autocorrelation(g), _by_hand(g), atol=1e-5)


def test_seams_a_square_apart_peak_at_the_square():
    seams = np.zeros((30, 200), np.float32)
    seams[:, 7::23] = 1.0  # a tile's side every 23 px, on every row
    ac = _autocorrelation(seams)
    assert np.allclose(ac, _by_hand(seams), atol=1e-5)
    assert int(np.argmax(ac[10:40])) + 10 == 23
