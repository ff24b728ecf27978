"""How the synthetic scenes take a photo differently: from a seat."""

import numpy as np

from scanner.vision.synthetic.scene import from_a_seat


def test_from_a_seat_the_far_edge_shrinks_and_the_depth_is_foreshortened():
    """A white square on black, filling the photo: seen from a seat at 0.6, the photo is 0.6
    as deep, the near edge keeps its width and the far edge is 0.6 of it."""
    photo = np.full((200, 300, 3), 255, np.uint8)
    photo[:, :2] = photo[:, -2:] = 0
    seen = from_a_seat(photo, 0.6)
    assert seen.shape == (120, 300, 3)

    def white_width(row: np.ndarray) -> int:
        return int((row[:, 0] > 128).sum())

    assert abs(white_width(seen[-1]) - 296) <= 3
    assert abs(white_width(seen[0]) - 0.6 * 296) <= 6
