"""Small geometry shared by localisation, synthesis and evaluation."""

from __future__ import annotations

import numpy as np

Quad = np.ndarray  # (4, 2) float: TL, TR, BR, BL as the photo shows them


def clockwise(points: np.ndarray) -> np.ndarray:
    """The 4 points in clockwise order on screen (y down), starting anywhere."""
    points = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    return points[np.argsort(angles)]  # atan2 grows clockwise when y points down


def photo_order(points: np.ndarray) -> tuple[Quad, int]:
    """Order a quad TL, TR, BR, BL as the photo shows it.

    Returns (quad, turns): the input, taken clockwise, starts at index `turns`
    of the result's cycle, i.e. result[0] = clockwise(points)[turns]. TL is the
    corner whose top edge (to the next corner clockwise) is closest to pointing
    right, so a grid keeps "row 0 nearest the photo's top edge" at any rotation.
    """
    cw = clockwise(points)
    best, best_turn = None, 0
    for k in range(4):
        edge = cw[(k + 1) % 4] - cw[k]
        angle = abs(np.arctan2(edge[1], edge[0]))
        if best is None or angle < best:
            best, best_turn = angle, k
    return np.roll(cw, -best_turn, axis=0), best_turn


def side_length(quad: Quad) -> float:
    """Mean side length of a quad, the unit corner errors are measured in."""
    quad = np.asarray(quad, dtype=np.float64)
    return float(np.mean([np.linalg.norm(quad[(i + 1) % 4] - quad[i]) for i in range(4)]))


def corner_error(found: Quad, truth: Quad) -> float:
    """Mean distance between matching corners, as a fraction of the true side."""
    found, truth = np.asarray(found, float), np.asarray(truth, float)
    return float(np.mean(np.linalg.norm(found - truth, axis=1)) / side_length(truth))


def quad_area(quad: Quad) -> float:
    x, y = np.asarray(quad, float).T
    return float(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
