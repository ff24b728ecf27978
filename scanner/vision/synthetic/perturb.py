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
    return with_noise(img, 1.0 + 11.0 * level, rng)


def with_noise(img: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """The image as a dim room or a small sensor leaves it: noise of ``sigma`` grey levels
    on every pixel."""
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


# XYZ to linear sRGB (IEC 61966-2-1), rows R, G, B.
_XYZ_TO_SRGB = np.array([[3.2406, -1.5372, -0.4986],
                         [-0.9689, 1.8758, 0.0415],
                         [0.0557, -0.2040, 1.0570]])


def lamp_colour(kelvin: float) -> np.ndarray:
    """The colour (B, G, R, in 0..1, brightest 1) white card takes under a black-body
    light of this temperature when the camera is balanced for daylight, as sRGB encodes
    it: a household bulb (2,700 K) gives about (0.35, 0.68, 1.0).

    The light's chromaticity is Kim et al.'s cubic fit to the Planckian locus (1,667 to
    25,000 K)."""
    if not 1667 <= kelvin <= 25000:
        raise ValueError(f"{kelvin} K: the fit holds from 1,667 to 25,000 K")
    t = float(kelvin)
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    rgb = np.clip(_XYZ_TO_SRGB @ np.array([x / y, 1.0, (1 - x - y) / y]), 0, None)
    rgb /= rgb.max()
    encoded = np.where(rgb <= 0.0031308, 12.92 * rgb, 1.055 * rgb ** (1 / 2.4) - 0.055)
    return encoded[::-1]


def under_a_lamp(img: np.ndarray, kelvin: float) -> np.ndarray:
    """The image as if lit by a lamp of this temperature, the camera balanced for daylight.

    Light scales each channel; sRGB's curve is close to a power, under which scaling the
    light scales the encoded value too, so each channel is scaled by the lamp's encoded
    colour."""
    return cv2.transform(img, np.diag(lamp_colour(kelvin)).astype(np.float32))


def lamp_and_daylight(img: np.ndarray, kelvin: float) -> np.ndarray:
    """The image lit by a lamp of this temperature from its left and by daylight from its
    right, the light's colour changing evenly across, the camera balanced for daylight."""
    w = img.shape[1]
    share = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :, None]
    lamp = lamp_colour(kelvin).astype(np.float32)
    return cv2.multiply(img, np.broadcast_to(lamp * (1 - share) + share, img.shape).copy(),
                        dtype=cv2.CV_8U)


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
