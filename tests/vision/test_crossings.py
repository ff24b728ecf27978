"""Where the sides of quads meet: a ring of four lines at a time, or many rings at once,
the same corners."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scanner.vision.sides import corners_of, crossings, intersect

angles = arrays(np.float32, (4,), elements=st.floats(0, 3, width=32))
anchors = arrays(np.float32, (4, 2), elements=st.floats(-500, 500, width=32))


def ring(turns: np.ndarray, through: np.ndarray) -> np.ndarray:
    return np.concatenate([np.cos(turns)[:, None], np.sin(turns)[:, None], through],
                          axis=1).astype(np.float32)


@given(st.lists(st.tuples(angles, anchors), min_size=1, max_size=5))
def test_many_rings_cross_where_each_ring_alone_does(rings):
    lines = np.stack([ring(*r) for r in rings])
    together = crossings(lines)
    for k, one in enumerate(lines):
        alone = [intersect(one[i - 1], one[i]) for i in range(4)]
        for i, corner in enumerate(alone):
            if corner is None:
                assert np.isnan(together[k, i]).all()
            else:
                assert np.array_equal(together[k, i], corner)


def test_a_ring_with_parallel_neighbours_has_no_corners():
    lines = ring(np.float32([0, 0, 1.5, 0.5]), np.float32([[0, 0], [0, 5], [3, 3], [9, 9]]))
    assert corners_of(list(lines)) is None
    assert np.isnan(crossings(lines)[1]).all()


def test_a_rectangle_rings_back_to_its_corners():
    square = ring(np.float32([0, np.pi / 2, 0, np.pi / 2]),
                  np.float32([[0, 0], [10, 0], [10, 20], [0, 20]]))
    assert np.allclose(corners_of(list(square)), [[0, 0], [10, 0], [10, 20], [0, 20]],
                       atol=1e-4)
