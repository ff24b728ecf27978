"""What a real camera does to a card: blur, noise, glare, uneven light, compression, wear.

Each perturbation takes a BGR image, a random generator and a level in 0..1 (0 = none,
1 = the worst a working table should still cope with) and returns a new image. The
geometric ones (rotation, tilt, scale) are applied where a card is placed into a frame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import cv2
import numpy as np

Perturbation = Callable[[np.ndarray, np.random.Generator, float], np.ndarray]


def perturb_defocus(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    sigma = 0.3 + 1.6 * level * rng.uniform(0.6, 1.0)
    return cv2.GaussianBlur(img, (0, 0), sigma)


def perturb_motion(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    length = 1 + round(7 * level * rng.uniform(0.6, 1.0))
    if length < 2:
        return img.copy()
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    angle = rng.uniform(0, 180)
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    kernel /= max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel)


def perturb_noise(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    sigma = 1.0 + 11.0 * level
    noise = rng.standard_normal(img.shape, dtype=np.float32) * np.float32(sigma)
    return cv2.add(img.astype(np.float32), noise, dtype=cv2.CV_8U)


def perturb_glare(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    """A soft specular spot: light from a lamp reflected off the card's gloss."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
    radius = rng.uniform(0.06, 0.14) * min(h, w)
    gain = 200.0 * level * rng.uniform(0.6, 1.0)
    gx = np.exp(-((np.arange(w, dtype=np.float32) - cx) ** 2) / (2 * radius ** 2))
    gy = np.exp(-((np.arange(h, dtype=np.float32) - cy) ** 2) / (2 * radius ** 2))
    spot = np.outer(gy, gx * np.float32(gain)).astype(np.float32)
    return cv2.add(img.astype(np.float32), cv2.merge([spot, spot, spot]), dtype=cv2.CV_8U)


def perturb_lighting(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    """A brightness ramp across the frame and a colour cast (warm bulbs, daylight, LEDs)."""
    h, w = img.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    xs = np.cos(angle) * (np.arange(w, dtype=np.float32) / w - 0.5)
    ys = np.sin(angle) * (np.arange(h, dtype=np.float32) / h - 0.5)
    ramp = ys[:, None] + xs[None, :] + 0.5
    gain = (1.0 - 0.5 * level * rng.uniform(0.6, 1.0) * ramp).astype(np.float32)
    tint = 1.0 + 0.3 * level * rng.uniform(-1.0, 1.0, 3)
    channels = [cv2.multiply(c.astype(np.float32), gain, scale=float(t), dtype=cv2.CV_8U)
                for c, t in zip(cv2.split(img), tint, strict=True)]
    return cv2.merge(channels)


def perturb_jpeg(img: np.ndarray, rng: np.random.Generator, level: float) -> np.ndarray:
    return jpeg_round_trip(img, round(92 - 72 * level * rng.uniform(0.7, 1.0)))


def darker_midtones(img: np.ndarray, power: float) -> np.ndarray:
    """The image with its midtones darkened by a gamma of ``power`` (over 1), as a dim room
    or an underexposed phone photo gives them; white and black stay where they are."""
    return cv2.LUT(img, (255 * (np.arange(256) / 255) ** power).astype(np.uint8))


def jpeg_round_trip(img: np.ndarray, quality: int) -> np.ndarray:
    """The image as a JPEG file of this quality would give it back."""
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoder refused the frame")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def perturb_wear(img: np.ndarray, rng: np.random.Generator, level: float,
                 boxes: tuple[tuple[int, int, int, int], ...] = ()) -> np.ndarray:
    """Faded, scuffed ink in the given boxes (the corner indices); the whole card if none."""
    out = img.copy()
    h, w = img.shape[:2]
    for x0, y0, x1, y1 in boxes or ((0, 0, w, h),):
        region = out[y0:y1, x0:x1].astype(np.float32)
        paper = np.percentile(region.reshape(-1, 3), 95, axis=0)
        fade = 0.55 * level * rng.uniform(0.6, 1.0)
        region = region + (paper - region) * fade
        scuffs = rng.random(region.shape[:2]) < 0.05 * level
        scuffs = cv2.dilate(scuffs.astype(np.uint8), np.ones((2, 2), np.uint8)).astype(bool)
        region[scuffs] = paper
        out[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)
    return out


# Image-level perturbations by name, in the order a camera applies them.
IMAGE_PERTURBATIONS: Mapping[str, Perturbation] = MappingProxyType({
    "lighting": perturb_lighting,
    "glare": perturb_glare,
    "defocus": perturb_defocus,
    "motion": perturb_motion,
    "noise": perturb_noise,
    "jpeg": perturb_jpeg,
})
GEOMETRIC_PERTURBATIONS = ("rotation", "tilt", "scale")
CARD_PERTURBATIONS = ("wear",)
ALL_PERTURBATIONS: tuple[str, ...] = (
    *GEOMETRIC_PERTURBATIONS, *CARD_PERTURBATIONS, *IMAGE_PERTURBATIONS)


def apply_image_perturbations(img: np.ndarray, rng: np.random.Generator,
                              levels: Mapping[str, float]) -> np.ndarray:
    unknown = set(levels) - set(ALL_PERTURBATIONS)
    if unknown:
        raise ValueError(f"unknown perturbation(s) {sorted(unknown)}; known: {ALL_PERTURBATIONS}")
    for name, fn in IMAGE_PERTURBATIONS.items():
        level = levels.get(name, 0.0)
        if level > 0:
            img = fn(img, rng, level)
    return img
