"""Read-station accuracy and speed on rendered frames, printed as tables.

    python bench/vision_station.py [--cards N] [--quick] [--leave-out STYLE [--model FILE]]
    python bench/vision_station.py --against REVISION [--cards N]
    python bench/vision_station.py --latency-only

Held-out sets: styles never used for tuning (club, riviera) and seeds the training script
never draws. Prints cards read right / wrong / abstained per style and per perturbation,
backs read as a face, an empty station, and the median latency per 640×480 frame on one
core (cv2.setNumThreads(1)), with its parts. ``--leave-out STYLE`` trains a corner net
without that tuning style (``scanner.vision.training.train_corners``, minutes) and reads the style
with it, and weighs doubtful reads against pip templates built without it (a minute); with
``--model FILE``, a net trained so before, only that row is printed. ``--against REVISION``
only times read_station turn about with that git revision's code, in this process.
Targets (issue 3 §7): read right ≥ 99.9 %, wrong answers zero, abstentions ≤ 0.5 %,
face-down read as a face never, ≤ 5 ms median (of each frame's least time over
LATENCY_PASSES passes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from revision import TurnAbout, scanner_at, turn_about

from scanner.cards import ALL_CARDS, BRIDGE_52, Card
from scanner.vision.backside import back_confidence
from scanner.vision.corner_net import CornerReader, corner_windows, default_reader
from scanner.vision.glyphs import LETTER_SET_MEANINGS
from scanner.vision.profile import DeckProfile, learn, learn_order
from scanner.vision.reading import read_card_images
from scanner.vision.station import card_passes, locate_station_card, read_station, rectify
from scanner.vision.synthetic import render
from scanner.vision.synthetic.camera import RenderedCamera
from scanner.vision.synthetic.perturb import ALL_PERTURBATIONS
from scanner.vision.training.train_corners import reader_without

BENCH_SEED = 900_000  # far from the training (61 000) and calibration (83 000) seeds


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    abstained: int = 0

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.abstained

    def add(self, truth: Card, read: Card | None) -> None:
        if read is None:
            self.abstained += 1
        elif read == truth:
            self.right += 1
        else:
            self.wrong += 1

    def row(self, name: str) -> str:
        n = max(self.total, 1)
        return (f"{name:<22} {self.total:>6} {100 * self.right / n:>8.2f}% "
                f"{self.wrong:>6} {100 * self.abstained / n:>8.2f}%")


HEADER = f"{'set':<22} {'cards':>6} {'right':>9} {'wrong':>6} {'abstain':>9}"


def _frames(style: str, count: int, seed: int, levels_for: str | None
            ) -> Iterable[tuple[Card, np.ndarray]]:
    rng = np.random.default_rng(seed)
    for _ in range(count):
        card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        if levels_for is None:
            levels = render.random_levels(rng)
        else:
            levels = {levels_for: float(rng.uniform(0.5, 1.0))}
        frame = render.render_station_frame(card, style, seed=int(rng.integers(1 << 30)),
                                            perturb=levels)
        yield card, frame


def _letters(style: str) -> str | None:
    """The letter set the reader is told, as a shoe is set up for its decks; None for a set
    the shipped model does not know (only a learnt profile reads those)."""
    letters = render.STYLES[style].letters
    return letters if letters in LETTER_SET_MEANINGS else None


def by_style(styles: Iterable[str], count: int, model: DeckProfile | None = None,
             reader: CornerReader | None = None) -> dict[str, Tally]:
    out = {}
    for style in styles:
        tally = Tally()
        # Seeded by the style's place in STYLES, so a style's frames are the same in every
        # table (the leave-one-out row reads the frames its tuning row read).
        seed = BENCH_SEED + list(render.STYLES).index(style)
        for card, frame in _frames(style, count, seed, None):
            tally.add(card, read_station(frame, model, letters=_letters(style),
                                         reader=reader).card)
        out[style] = tally
    return out


def with_learnt_profile(style: str, count: int) -> Tally:
    """Learn ``style`` from one sorted deck at the virtual station, then read fresh frames."""
    camera = RenderedCamera(learn_order(BRIDGE_52), style, seed=BENCH_SEED + 77)
    profile = learn(card_passes(camera.frames(), camera.one_card_per_frame), BRIDGE_52)
    return by_style([style], count, profile)[style]


def leave_one_style_out(style: str, count: int, model: Path | None) -> Tally:
    """Read ``style`` with a reader that never saw it (``reader_without``)."""
    return by_style([style], count, reader=reader_without(style, model))[style]


def by_perturbation(styles: tuple[str, ...], count: int) -> dict[str, Tally]:
    out = {}
    for j, name in enumerate(ALL_PERTURBATIONS):
        tally = Tally()
        for i, style in enumerate(styles):
            seed = BENCH_SEED + 1000 * (j + 1) + i
            for card, frame in _frames(style, count // len(styles), seed, name):
                tally.add(card, read_station(frame, letters=_letters(style)).card)
        out[name] = tally
    return out


def backs_as_faces(count: int) -> tuple[int, int, int]:
    rng = np.random.default_rng(BENCH_SEED - 1)
    styles, backs = list(render.STYLES), list(render.BACKS)
    faces = down = 0
    for i in range(count):
        frame = render.render_station_frame(
            None, styles[i % len(styles)], seed=int(rng.integers(1 << 30)),
            back=backs[i % len(backs)], perturb=render.random_levels(rng))
        reading = read_station(frame)
        faces += reading.card is not None
        down += reading.face == "down"
    return faces, down, count


def _times_ms(items: list, fn: Callable[[object], object]) -> list[float]:
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - start) * 1000)
    return times


LATENCY_PASSES = 5


def latency(count: int, passes: int = LATENCY_PASSES) -> dict[str, float]:
    """Median ms per frame of the whole read and of its parts, and of the same frame's
    greyscale conversion (what merely touching every pixel once costs, for scale).

    Each item is timed in ``passes`` passes and its least time kept (interference from a
    shared machine only ever adds, as ``timeit`` assumes); the median is over items, as in
    ``vision_table.run_latency``."""
    cv2.setNumThreads(1)
    frames = [frame for _, frame in _frames("club", count, BENCH_SEED - 2, None)]
    read_station(frames[0])
    quads = [locate_station_card(frame) for frame in frames]
    cards = [rectify(frame, quad) for frame, quad in zip(frames, quads, strict=True)]
    reader = default_reader()
    table = [cards[i:i + 12] for i in range(0, len(cards) - 11, 12)]
    parts: dict[str, tuple[list, Callable[[object], object]]] = {
        "read_station": (frames, read_station),
        "locate": (frames, locate_station_card),
        "rectify": (list(zip(frames, quads, strict=True)), lambda fq: rectify(*fq)),
        "back check": (cards, back_confidence),
        "corner net (2 windows)": (cards, lambda c: reader.probabilities(corner_windows(c))),
        "greyscale baseline": (frames, lambda f: cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)),
        "read_card_images, 12 cards": (table, read_card_images),
    }
    least = {name: [float("inf")] * len(items) for name, (items, _) in parts.items()}
    for _ in range(passes):
        for name, (items, fn) in parts.items():
            least[name] = [min(old, new) for old, new in
                           zip(least[name], _times_ms(items, fn), strict=True)]
    return {name: statistics.median(times) for name, times in least.items()}


def against(revision: str, count: int) -> TurnAbout:
    """``latency``'s frames read by the code of ``revision`` and by this code turn about."""
    old = scanner_at(revision, "vision.station")
    frames = [frame for _, frame in _frames("club", count, BENCH_SEED - 2, None)]
    return turn_about(old.read_station, read_station, frames, rounds=3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000, help="frames per style")
    parser.add_argument("--quick", action="store_true", help="200 frames per style")
    parser.add_argument("--leave-out", nargs="*", default=[], metavar="STYLE",
                        help="tuning styles to train a corner net without and read (slow)")
    parser.add_argument("--model", type=Path,
                        help="a corner net already trained without the --leave-out style: "
                             "print only that style's leave-one-out row")
    parser.add_argument("--against", metavar="REVISION",
                        help="only time read_station turn about with the code of this git "
                             "revision, on --cards frames")
    parser.add_argument("--latency-only", action="store_true",
                        help="only time the read and its parts")
    args = parser.parse_args(argv)
    count = 200 if args.quick else args.cards
    cv2.setNumThreads(1)
    if args.latency_only:
        print_latency()
        return 0

    if args.against is not None:
        print(f"read_station turn about with {args.against}, one thread, 640×480, "
              f"{count} frames × 3")
        print(against(args.against, count).line("read_station"))
        return 0

    if args.model is not None:
        if len(args.leave_out) != 1:
            parser.error("--model needs exactly one --leave-out style")
        if not args.model.is_file():
            parser.error(f"--model {args.model}: no such file")
        style = args.leave_out[0]
        print(f"Leave one style out: {args.model}, trained without {style}, reading it")
        print(HEADER)
        print(leave_one_style_out(style, count, args.model).row(f"{style} (never seen)"))
        return 0
    print("Read station, held-out seeds, mixed perturbations (each on with p=1/2)")
    print(HEADER)
    styles = by_style(render.STYLES, count)
    for name, tally in styles.items():
        tag = ("tuning" if name in render.TUNING_STYLES else
               "held out" if name in render.HELDOUT_STYLES else "profile only")
        print(tally.row(f"{name} ({tag})"))
    for name in render.PROFILE_ONLY_STYLES:
        print(with_learnt_profile(name, count).row(f"{name} + learnt profile"))
    held = Tally()
    for name in render.HELDOUT_STYLES:
        for field in ("right", "wrong", "abstained"):
            setattr(held, field, getattr(held, field) + getattr(styles[name], field))
    print(held.row("ALL HELD-OUT"))
    tuning = Tally()
    for name in render.TUNING_STYLES:
        for field in ("right", "wrong", "abstained"):
            setattr(tuning, field, getattr(tuning, field) + getattr(styles[name], field))
    print(tuning.row("ALL TUNING"))

    print("\nBy perturbation (alone, level 0.5..1), held-out styles")
    print(HEADER)
    for name, tally in by_perturbation(render.HELDOUT_STYLES, count).items():
        print(tally.row(name))

    faces, down, total = backs_as_faces(count)
    print(f"\nBacks: {total} frames, read as a face: {faces}, read as down: {down}")
    blank = Counter(read_station(render.render_station_frame(
        None, "standard", seed=s, empty=True, perturb=render.random_levels(
            np.random.default_rng(s)))).face for s in range(100))
    print(f"Empty station: {dict(blank)}")

    for style in args.leave_out:
        print(f"\nLeave one style out: corner net trained without {style}, then reading it")
        print(HEADER)
        print(leave_one_style_out(style, count, None).row(f"{style} (never seen)"))

    print_latency()
    return 0


def print_latency() -> None:
    times = latency(200)
    whole, baseline = times["read_station"], times["greyscale baseline"]
    print(f"\nLatency per 640x480 frame, one core, each frame's least of {LATENCY_PASSES} "
          f"passes: median {whole:.2f} ms "
          f"({whole / baseline:.0f}x a greyscale conversion of the same frame); target <= 5 ms")
    for name, ms in times.items():
        print(f"  {name:<28} {ms:6.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
