"""Small geometry shared by localisation, synthesis and evaluation."""

from __future__ import annotations

import numpy as np

Quad = np.ndarray  # (4, 2) float: TL, TR, BR, BL as the photo shows them


def signed_area(points: np.ndarray) -> float:
    """Shoelace area; positive when the points run clockwise on screen (y down)."""
    x, y = np.asarray(points, float).T
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def clockwise(points: np.ndarray) -> np.ndarray:
    """The 4 points of a quad (given in cyclic order) running clockwise on screen, same start."""
    points = np.asarray(points, dtype=np.float64).reshape(4, 2)
    return points if signed_area(points) >= 0 else points[[0, 3, 2, 1]]


def photo_order(points: np.ndarray) -> tuple[Quad, int]:
    """Order a quad (corners in cyclic order) TL, TR, BR, BL as the photo shows it.

    Returns (quad, turns) with quad[0] = clockwise(points)[turns]: for a board
    whose corners were given from its own top-left, the photo shows it turned
    `turns` quarter turns anticlockwise. TL is the corner whose top edge (to
    the next corner clockwise) points most nearly right, so "row 0 nearest the
    photo's top edge" holds at any rotation.
    """
    cw = clockwise(points)
    best, best_turn = None, 0
    for k in range(4):
        edge = cw[(k + 1) % 4] - cw[k]
        angle = abs(np.arctan2(edge[1], edge[0]))
        if best is None or angle < best:
            best, best_turn = angle, k
    return np.roll(cw, -best_turn, axis=0), best_turn


def side_lengths(quad: Quad) -> np.ndarray:
    """The four side lengths of a quad, TL-TR first."""
    quad = np.asarray(quad, dtype=np.float64)
    return np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)


def side_length(quad: Quad) -> float:
    """Mean side length of a quad, the unit corner errors are measured in."""
    return float(side_lengths(quad).mean())


def shortest_side(quad: Quad) -> float:
    """A tilted board's fewest pixels across: its pixels per square are this / squares."""
    return float(side_lengths(quad).min())


def corner_error(found: Quad, truth: Quad) -> float:
    """Mean distance between matching corners, as a fraction of the true side."""
    found, truth = np.asarray(found, float), np.asarray(truth, float)
    return float(np.mean(np.linalg.norm(found - truth, axis=1)) / side_length(truth))


def quad_area(quad: Quad) -> float:
    return abs(signed_area(quad))


def scaled_quad(quad: Quad, scale: float) -> Quad:
    """The quad scaled about its centre (its dtype kept for float input).

    >>> scaled_quad(np.array([[0, 0], [10, 0], [10, 10], [0, 10]]), 0.9).tolist()
    [[0.5, 0.5], [9.5, 0.5], [9.5, 9.5], [0.5, 9.5]]
    """
    quad = np.asarray(quad)
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * scale
