"""A candidate holds a point exactly when its outline contains it: the box test in front
of the polygon test only saves time."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scanner.vision.quads import contains, order_clockwise
from scanner.vision.table import Candidate, float32_point

corners = arrays(np.float32, (4, 2), elements=st.floats(0, 100, width=32))
points = arrays(np.float64, (2,), elements=st.floats(-10, 110))


@given(corners, st.lists(points, min_size=1, max_size=20))
def test_a_candidate_holds_what_its_outline_contains(quad, tried):
    outline = order_clockwise(quad)
    candidate = Candidate(outline, 1.0, outline.reshape(-1, 1, 2), outline.reshape(-1, 1, 2))
    for point in [*tried, *outline.astype(np.float64)]:
        assert candidate.holds(float32_point(point)) == contains(outline, point)
