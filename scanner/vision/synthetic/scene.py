"""Rendered table photos: cards lying on plain, wood, cloth or cluttered tables, with truth.

The table reader is tuned and measured on these scenes, so every scene is a pure
function of its seed and records, for each card, what it is, which side is up and
where its four corners landed in the photo. Camera effects (tilt, light, blur, noise,
JPEG) are applied to the whole photo, as a phone would.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from ...cards import Card
from .render import card_alpha, render_card

Face = str  # "up" | "down"
LAYOUT_ATTEMPTS = 20
EDGE_CLEARANCE = 4  # pixels between a card and the photo's edge


@dataclass(frozen=True)
class PlacedCard:
    """A card in a scene: identity, side up, and its corners in photo pixels.

    ``outline`` runs top-left, top-right, bottom-right, bottom-left of the card as
    printed (index corner first), so the reader's orientation can be checked too.
    """

    card: Card | None
    face: Face
    outline: np.ndarray


@dataclass
class Scene:
    image: np.ndarray
    cards: list[PlacedCard]
    background: str
    perturbations: tuple[str, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------- backgrounds


def _smooth_noise(rng: np.random.Generator, height: int, width: int, cell: int) -> np.ndarray:
    """Value noise in 0..1, smooth over about ``cell`` pixels."""
    small = rng.random((max(2, height // cell + 2), max(2, width // cell + 2))).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def plain_table(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A painted or laminated table top of any colour, from near black to light grey."""
    base = rng.uniform(20, 200, 3).astype(np.float32)
    shade = 0.9 + 0.2 * _smooth_noise(rng, height, width, 200)
    image = base[None, None, :] * shade[..., None]
    image += rng.normal(0, 2.0, image.shape).astype(np.float32)
    return image.clip(0, 255).astype(np.uint8)


def wood_table(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Wood grain: warped stripes of two browns along a random direction."""
    angle = rng.uniform(0, math.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = xs * math.cos(angle) + ys * math.sin(angle)
    warp = _smooth_noise(rng, height, width, 120) * rng.uniform(20, 60)
    period = rng.uniform(6, 18)
    grain = 0.5 + 0.5 * np.sin((along + warp) * (2 * math.pi / period))
    grain = grain**3 * 0.6 + 0.4 * _smooth_noise(rng, height, width, 40)
    light = np.array(rng.uniform([60, 100, 150], [110, 150, 210]), np.float32)  # BGR browns
    dark = light * rng.uniform(0.45, 0.7)
    image = dark[None, None, :] + (light - dark)[None, None, :] * grain[..., None]
    return image.clip(0, 255).astype(np.uint8)


def cloth_table(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Baize or table cloth: a weave of crossing threads over slow colour variation."""
    palette = [(40, 110, 30), (50, 40, 130), (120, 60, 20), (60, 60, 60), (150, 150, 150)]
    base = np.array(palette[rng.integers(len(palette))], np.float32) * rng.uniform(0.7, 1.2)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    pitch = rng.uniform(2.5, 5.0)
    weave = np.sin(xs * (2 * math.pi / pitch)) * np.sin(ys * (2 * math.pi / pitch))
    texture = 1 + 0.08 * weave + 0.12 * (_smooth_noise(rng, height, width, 60) - 0.5)
    image = base[None, None, :] * texture[..., None]
    image += rng.normal(0, 4.0, image.shape).astype(np.float32)
    return image.clip(0, 255).astype(np.uint8)


def cluttered_table(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A table with things on it: cups, coins, pens, score pads, crumbs and printed text."""
    base = (wood_table if rng.random() < 0.5 else plain_table)(rng, height, width)
    for _ in range(int(rng.integers(8, 20))):
        _draw_clutter(base, rng)
    return base


def farther_off(photo: np.ndarray, times: float, rng: np.random.Generator) -> np.ndarray:
    """The photo in the middle of a wooden table ``times`` as wide and as high, at the
    photo's own resolution: what it shows, photographed from that much farther off by a
    camera with that many more pixels across."""
    h, w = photo.shape[:2]
    table = wood_table(rng, round(h * times), round(w * times))
    y, x = (table.shape[0] - h) // 2, (table.shape[1] - w) // 2
    table[y:y + h, x:x + w] = photo
    return table


def from_a_seat(photo: np.ndarray, depth: float) -> np.ndarray:
    """The photo as a camera lowered from over the table to a seat at its near (bottom)
    edge would take it: the far edge shrunk to ``depth`` of the near one, and the table's
    depth foreshortened as much."""
    h, w = photo.shape[:2]
    inset, high = (1 - depth) * w / 2, round(h * depth)
    square = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[inset, 0], [w - inset, 0], [w, high], [0, high]])
    return cv2.warpPerspective(photo, cv2.getPerspectiveTransform(square, seen), (w, high),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _draw_clutter(image: np.ndarray, rng: np.random.Generator) -> None:
    height, width = image.shape[:2]
    colour = tuple(int(c) for c in rng.integers(0, 256, 3))
    centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
    kind = rng.integers(5)
    if kind == 0:  # a cup or a coin
        cv2.circle(image, centre, int(rng.integers(10, 70)), colour, -1, cv2.LINE_AA)
    elif kind == 1:  # a pen
        angle = rng.uniform(0, math.pi)
        length = rng.integers(80, 250)
        end = (int(centre[0] + length * math.cos(angle)), int(centre[1] + length * math.sin(angle)))
        cv2.line(image, centre, end, colour, int(rng.integers(4, 12)), cv2.LINE_AA)
    elif kind == 2:  # a score pad: a square-ish sheet, never card-shaped, with ruled lines
        side = int(rng.integers(60, 160))
        box = cv2.boxPoints((centre, (side, side * rng.uniform(0.9, 1.1)), rng.uniform(0, 180)))
        cv2.fillConvexPoly(image, box.astype(np.int32), colour, cv2.LINE_AA)
        for k in range(4):
            y = centre[1] - side // 3 + k * side // 6
            cv2.line(image, (centre[0] - side // 3, y), (centre[0] + side // 3, y), (40, 40, 40), 1)
    elif kind == 3:  # printed text
        cv2.putText(image, "SCORE 120", centre, cv2.FONT_HERSHEY_SIMPLEX,
                    rng.uniform(0.5, 1.5), colour, 2, cv2.LINE_AA)
    else:  # crumbs
        for _ in range(30):
            dot = (centre[0] + int(rng.normal(0, 25)), centre[1] + int(rng.normal(0, 25)))
            cv2.circle(image, dot, int(rng.integers(1, 4)), colour, -1)


BACKGROUNDS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "plain": plain_table,
    "wood": wood_table,
    "cloth": cloth_table,
    "cluttered": cluttered_table,
}


# ---------------------------------------------------------------- card placement


def card_corners(centre: tuple[float, float], height: float, aspect: float,
                 angle_deg: float) -> np.ndarray:
    """The four corners (TL, TR, BR, BL of the upright card) of a card rotated about its centre."""
    half_w, half_h = height * aspect / 2, height / 2
    local = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    theta = math.radians(angle_deg)
    rotation = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    return (local @ rotation.T + np.asarray(centre)).astype(np.float32)


def paste_card(table: np.ndarray, card_image: np.ndarray, card_mask: np.ndarray,
               corners: np.ndarray, shadow: float = 0.35) -> None:
    """Draw a flat card (image and 0..255 outline mask) onto the table so its corners land
    on ``corners``, with a soft shadow; in place."""
    h, w = card_image.shape[:2]
    source = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    warp = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    size = (table.shape[1], table.shape[0])
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 8
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, size[0]), min(y1, size[1])
    if x1 <= x0 or y1 <= y0:
        return
    # Warp into the card's bounding box only: a whole-photo warp per card costs too much.
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ warp
    box = (x1 - x0, y1 - y0)
    face = cv2.warpPerspective(card_image, shift, box, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(card_mask, shift, box).astype(np.float32) / 255
    region = table[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        blur = max(3, (round(0.04 * max(box)) | 1))
        soft = cv2.GaussianBlur(np.roll(alpha, (2, 2), axis=(0, 1)), (blur, blur), 0)
        region *= (1 - shadow * soft)[..., None]
    region = region * (1 - alpha[..., None]) + face.astype(np.float32) * alpha[..., None]
    table[y0:y1, x0:x1] = region.clip(0, 255).astype(np.uint8)


def _overlaps(corners: np.ndarray, others: Sequence[np.ndarray], gap: float) -> bool:
    centre = corners.mean(axis=0)
    radius = np.linalg.norm(corners[0] - centre)
    for other in others:
        other_centre = other.mean(axis=0)
        distance = np.linalg.norm(centre - other_centre)
        if distance > radius * 2 + gap:
            continue
        poly = cv2.convexHull(other.astype(np.float32))
        expanded = corners + (corners - centre) * (gap / radius)
        if any(cv2.pointPolygonTest(poly, tuple(map(float, p)), True) > -gap for p in expanded):
            return True
        poly_self = cv2.convexHull(expanded.astype(np.float32))
        if any(cv2.pointPolygonTest(poly_self, tuple(map(float, p)), False) >= 0 for p in other):
            return True
        if distance < radius * 1.2:
            return True
    return False


def separate_layout(rng: np.random.Generator, count: int, size: tuple[int, int],
                    card_height: tuple[float, float], aspect: float,
                    gap: float = 6.0) -> list[np.ndarray]:
    """Corners of ``count`` cards at random rotations, none touching another or the edge."""
    width, height = size
    # Greedy placement can paint itself into a corner; start the table over when it does.
    for _layout in range(20):
        placed: list[np.ndarray] = []
        for _attempt in range(300 * count):
            if len(placed) == count:
                return placed
            h = rng.uniform(*card_height)
            margin = h * 0.6 + gap
            centre = (rng.uniform(margin, width - margin), rng.uniform(margin, height - margin))
            corners = card_corners(centre, h, aspect, rng.uniform(0, 360))
            if not _overlaps(corners, placed, gap):
                placed.append(corners)
        if len(placed) == count:
            return placed
    raise ValueError(f"cannot place {count} separate cards in {width}×{height} px")


def fanned_layout(rng: np.random.Generator, count: int, size: tuple[int, int],
                  card_height: float, aspect: float) -> list[np.ndarray]:
    """A hand held in a fan: cards pivot about a point below them, each index corner visible."""
    width, height = size
    pivot = np.array([width / 2, height / 2 + card_height * 0.55])
    spread = rng.uniform(7, 12)
    tilt = rng.uniform(-20, 20)
    corners = []
    for i in range(count):
        angle = tilt + (i - (count - 1) / 2) * spread
        theta = math.radians(angle)
        offset = np.array([math.sin(theta), -math.cos(theta)]) * card_height * 0.55
        corners.append(card_corners(tuple(pivot + offset), card_height, aspect, angle))
    return corners


# ---------------------------------------------------------------- camera


def tilt_homography(rng: np.random.Generator, size: tuple[int, int], strength: float) -> np.ndarray:
    """A camera not looking straight down: one edge of the photo's table area shrinks by up
    to ``strength`` of its length, and the corners wander a little."""
    width, height = size
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    side = int(rng.integers(4))
    a, b = side, (side + 1) % 4
    shrink = rng.uniform(0, strength) / 2
    target = corners.copy()
    target[a] += (corners[b] - corners[a]) * shrink
    target[b] += (corners[a] - corners[b]) * shrink
    target += rng.uniform(-strength, strength, (4, 2)) * np.array([width, height]) * 0.1
    return cv2.getPerspectiveTransform(corners.astype(np.float32), target.astype(np.float32))


def _apply_light(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(angle) + ys * math.sin(angle)) / max(width, height)
    gain = 1 + rng.uniform(0.2, 0.45) * (ramp - ramp.mean()) * 2
    tint = rng.uniform(0.8, 1.15, 3).astype(np.float32)
    return (image.astype(np.float32) * gain[..., None] * tint).clip(0, 255).astype(np.uint8)


def _apply_glare(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.float32)
    centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
    cv2.circle(mask, centre, int(rng.integers(20, 80)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(10, 25)) * rng.uniform(0.5, 0.9)
    out = image.astype(np.float32) + 255 * mask[..., None]
    return out.clip(0, 255).astype(np.uint8)


def _apply_defocus(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.6, 1.3))


def _apply_motion(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    length = int(rng.integers(3, 7))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1 / length
    rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, rotation, (length, length))
    return cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))


def _apply_noise(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0, rng.uniform(4, 10), image.shape).astype(np.float32)
    return (image.astype(np.float32) + noise).clip(0, 255).astype(np.uint8)


def _apply_jpeg(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    quality = int(rng.integers(35, 75))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else image


PHOTO_PERTURBATIONS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "light": _apply_light,
    "glare": _apply_glare,
    "defocus": _apply_defocus,
    "motion": _apply_motion,
    "noise": _apply_noise,
    "jpeg": _apply_jpeg,
}


# ---------------------------------------------------------------- scenes


@dataclass(frozen=True)
class CardToPlace:
    """A flat, upright card image (face or back), its rounded outline mask, and what it shows."""

    image: np.ndarray
    mask: np.ndarray
    card: Card | None
    face: Face


def cards_to_place(cards: Sequence[Card | None], style: str, *, seed: int,
                   backs: Sequence[str | None] | None = None) -> list[CardToPlace]:
    """The renderer's cards of one deck style; ``backs[i]`` names a back to show card i face down.

    ``card=None`` face up is a joker.
    """
    backs = list(backs) if backs is not None else [None] * len(cards)
    mask = card_alpha(style)
    return [
        CardToPlace(render_card(card, style, seed=seed * 1000 + i, back=back), mask, card,
                    "down" if back is not None else "up")
        for i, (card, back) in enumerate(zip(cards, backs, strict=True))
    ]


def compose_scene(
    items: Sequence[CardToPlace],
    *,
    seed: int,
    background: str = "plain",
    size: tuple[int, int] = (1280, 720),
    card_height: tuple[float, float] = (170, 230),
    layout: str = "separate",
    tilt: float = 0.25,
    perturbations: Sequence[str] = (),
) -> Scene:
    """Lay the cards on a rendered table and photograph it; deterministic in ``seed``.

    ``layout`` is "separate" (no card touches another) or "fanned" (a held fan).
    ``tilt`` is the camera's perspective strength (0 = straight down).
    """
    if background not in BACKGROUNDS:
        raise ValueError(f"unknown background {background!r}; one of {sorted(BACKGROUNDS)}")
    unknown = [p for p in perturbations if p not in PHOTO_PERTURBATIONS]
    if unknown:
        raise ValueError(f"unknown perturbation {unknown}; one of {sorted(PHOTO_PERTURBATIONS)}")
    rng = np.random.default_rng(seed)
    width, height = size
    # The table extends past the photo so a tilted camera never sees its edge.
    margin = round(0.3 * max(size))
    table = BACKGROUNDS[background](rng, height + 2 * margin, width + 2 * margin)
    inner = table[margin : margin + height, margin : margin + width]
    aspect = items[0].image.shape[1] / items[0].image.shape[0] if items else 0.7
    if layout not in ("separate", "fanned"):
        raise ValueError(f"unknown layout {layout!r}; 'separate' or 'fanned'")
    # The tilted camera may push a card laid near the table's edge out of the photo, or
    # onto its edge: lay the table out again until every card is whole in the photo.
    for _attempt in range(LAYOUT_ATTEMPTS):
        if layout == "separate":
            outlines = separate_layout(rng, len(items), size, card_height, aspect)
        else:
            outlines = fanned_layout(rng, len(items), size, float(np.mean(card_height)),
                                     aspect)
        homography = tilt_homography(rng, size, tilt) if tilt > 0 else np.eye(3)
        seen = [cv2.perspectiveTransform(o[None].astype(np.float64), homography)[0]
                .astype(np.float32) for o in outlines]
        if all(_whole_in_photo(o, size) for o in seen):
            break
    for item, corners in zip(items, outlines, strict=True):
        paste_card(inner, item.image, item.mask, corners)
    from_table = homography @ np.array([[1, 0, -margin], [0, 1, -margin], [0, 0, 1]], np.float64)
    photo = cv2.warpPerspective(table, from_table, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    outlines = seen
    for name in perturbations:
        photo = PHOTO_PERTURBATIONS[name](photo, rng)
    placed = [PlacedCard(item.card, item.face, corners)
              for item, corners in zip(items, outlines, strict=True)]
    return Scene(photo, placed, background, tuple(perturbations))


def _whole_in_photo(corners: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether a card's corners lie inside the photo, clear of its edge by its shadow."""
    far = np.array(size, np.float32) - 1 - EDGE_CLEARANCE
    return bool(corners.min() >= EDGE_CLEARANCE and (corners.max(axis=0) <= far).all())


def outline_matches(found: np.ndarray, truth: np.ndarray, tolerance: float = 0.08) -> bool:
    """Whether a found outline lies on a true card's: every corner within ``tolerance`` of
    the card's height, in any cyclic order (the reader may see the card upside down)."""
    height = float(np.linalg.norm(truth[0] - truth[3]))
    return any(
        float(np.abs(np.roll(found, k, axis=0) - truth).max()) < tolerance * height
        for k in range(4)
    )
