"""The card reader on real images: real photographs and real deck designs, never rendered.

    python bench/vision_real.py --dataset DIR [--split calibration|valid|test]
                                [--svg DIR [--fans] [--learn] [--backs]] [--photos DIR]
                                [--dummy]
                                [--deals DIR [--degraded] [--close-ups]] [--printed N]
                                [--print-photos DIR] [--model FILE]

- ``--dataset``: the CC0 cards image dataset; ``--split calibration`` (the default) reads
  the eighth of its train split that training keeps out for calibration and tuning
  (``real_cards.is_calibration``). ``valid`` and ``test`` are reserved for judging: read
  them once, at the end.
- ``--svg``: the rasterised Debian SVG decks; only ``real_cards.UNSEEN_SVG_DECKS`` are
  read, each card as a tight crop and as a phone photo of it lying on a table.
- ``--photos``: a folder of real photographs of single cards, named by card (``10c.jpg``,
  ``qh.png``, ``back.jpg``), each read as a tight crop, then laid on a table and
  photographed (composited at phone resolution, any rotation).
- ``--deals``: real photos of whole deals lying on a table (``NAME.jpg``) with the cards
  they show (``NAME*labels.json``, a list of {"name": "10c"}), read by the table view.
- ``--fans``: with ``--svg``, each unseen deck is also dealt into four hands of 13, each
  fanned on a table and photographed (``fanned``), at a wide spread and at a tight one,
  and at the tight one again sorted as a player holds a hand (``as_held``), and read by
  the table view: cards named right, named wrongly or twice.
- ``--dummy``: with ``--svg`` or ``--photos``, the unseen decks' cards and the photos'
  cards are also dealt into hands of 13 and each hand laid as a bridge dummy, a column a
  suit, each card over the one before with only its index strip showing (``dummy``), and
  read by the table view: cards named right, named wrongly or twice.
- ``--backs``: with ``--svg``, each unseen deck's back is also laid on a table, two or
  three overlapping, from far to close enough that its motif is as big as an index's
  glyphs (``train_motifs.backs_on_a_table``), and read by the table view: any card named
  is a back read as a face.
- ``--degraded``: with ``--deals``, each photo is also read as a phone might have taken it
  worse (``DEGRADED``): smaller, out of focus, compressed hard, with darker midtones, under
  a warm lamp or two lights of different colours, noisy, lying in the middle of a photo
  taken from farther off, or taken from a seat; one line each, the whole set's cards
  named right, wrong and twice.
- ``--close-ups``: with ``--deals``, each photo is also cut into overlapping tiles a half
  and a third of its size, as a camera nearer the table would see it, and each tile read
  by the table view: any card named that the photo's labels do not hold is wrong.
- ``--printed N``: N photos of a printed sheet lying on a table, alone
  (``printed_text.text_on_a_table``, the same seeds every run): score-sheet
  rows, auctions, hand records with suit symbols, words, in a real typeface. Any card
  named is print read as an index. Needs ``rsvg-convert`` and the typefaces
  (``printed_text.check_tools``).
- ``--print-photos``: a folder of real photos or scans of printed matter that shows no
  card (receipts, score sheets, hand records), each read as taken and laid on a table
  (``printed_text.paper_on_a_table``): any card named is print read as an index.
- ``--learn``: with ``--svg`` or ``--photos``, each unseen deck and the photos' deck is
  also learnt (``tablescan learn``'s profile) from one sorted pass of its cards as tight
  crops, then its photos on a table are read with that profile.

Prints, per set, cards right / wrong / abstained, court cards read as backs and backs read
as faces. Targets (issue 17): single-card phone photos ≥ 49 of 51 right and 0 wrong;
tight crops of many designs ≥ 80 % right and ≤ 2 % wrong; a whole deal ≥ 85 % of its cards
named, none named twice; court cards as backs and backs as faces never.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from scanner.cards import BRIDGE_52, Card, Rank, Suit, parse_card
from scanner.vision.corner_net import CornerReader
from scanner.vision.index import canonical
from scanner.vision.profile import DeckProfile, ProfileError, learn, learn_order
from scanner.vision.reading import Reading
from scanner.vision.synthetic import render
from scanner.vision.synthetic.perturb import (
    darker_midtones,
    jpeg_round_trip,
    lamp_and_daylight,
    under_a_lamp,
    with_noise,
)
from scanner.vision.synthetic.scene import farther_off, from_a_seat
from scanner.vision.table import read_single_card as read_one
from scanner.vision.table import read_table as read_deal
from scanner.vision.training import printed_text
from scanner.vision.training.real_cards import (
    UNSEEN_SVG_DECKS,
    RealImage,
    dataset_images,
    fanned_on_a_table,
    is_calibration,
    laid_as_a_dummy,
    load,
    svg_images,
    table_photo,
    table_surface,
)
from scanner.vision.training.train_motifs import backs_on_a_table

BENCH_SEED = 910_000
COURTS = (Rank.K, Rank.Q, Rank.J)


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    abstained: int = 0
    courts_as_backs: int = 0
    backs: int = 0
    backs_as_faces: int = 0  # a card named for a back
    backs_face_up: int = 0  # a back said to be a face that cannot be read: an abstention
    mistakes: list[str] = field(default_factory=list)

    def add(self, name: str, truth: Card | None, is_back: bool, reading: Reading) -> None:
        if is_back:
            self.backs += 1
            self.backs_as_faces += reading.card is not None
            self.backs_face_up += reading.card is None and reading.face == "up"
            return
        if truth is None:  # a joker: any card named is wrong
            if reading.card is not None:
                self.wrong += 1
                self.mistakes.append(f"{name}: joker read as {reading.card}")
            return
        if truth.rank in COURTS and reading.face == "down":
            self.courts_as_backs += 1
        if reading.card is None:
            self.abstained += 1
        elif reading.card == truth:
            self.right += 1
        else:
            self.wrong += 1
            self.mistakes.append(f"{name}: {truth} read as {reading.card} "
                                 f"({reading.confidence:.3f})")

    def line(self, label: str) -> str:
        n = max(self.right + self.wrong + self.abstained, 1)
        backs = (f", backs named as a card {self.backs_as_faces} of {self.backs}"
                 f" (face up unread {self.backs_face_up})" if self.backs else "")
        return (f"{label:<34} {self.right + self.wrong + self.abstained:>5} cards: "
                f"right {100 * self.right / n:6.2f}% ({self.right}), wrong {self.wrong}, "
                f"abstained {self.abstained}, courts as backs {self.courts_as_backs}{backs}")


def photographed(img: np.ndarray, alpha: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card lying on a table in a phone photo: 1600×1200 or 1200×1600, the card 35–75%
    of the frame's height, any rotation, light falling off, a little blur and JPEG."""
    fw, fh = (1600, 1200) if rng.random() < 0.5 else (1200, 1600)
    frame = table_surface(rng, fh, fw)
    h, w = img.shape[:2]
    scale = rng.uniform(0.35, 0.75) * min(fh, fw) / h
    angle = np.deg2rad(rng.uniform(-180, 180))
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    half *= 1 + 0.05 * rng.uniform(-1, 1, (4, 1))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = half @ rot.T + (fw / 2 + rng.uniform(-0.1, 0.1) * fw, fh / 2)
    shift = np.clip(quad.min(axis=0), None, 0) * -1 - np.clip(quad.max(axis=0) - (fw, fh),
                                                                 0, None)
    photo = render.place_card(frame, img, alpha, (quad + shift).astype(np.float32))
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.3, 1.2))
    _, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def read_all(images: Iterable[tuple[str, np.ndarray, Card | None, bool]],
             reader: Callable[[np.ndarray], Reading]) -> Tally:
    tally = Tally()
    for name, img, truth, is_back in images:
        tally.add(name, truth, is_back, reader(img))
    return tally


def dataset_set(root: Path, split: str) -> list[tuple[str, np.ndarray, Card | None, bool]]:
    if split == "calibration":
        images = [i for i in dataset_images(root, "train") if is_calibration(i)]
    else:
        images = dataset_images(root, split)
    return [(str(i.path.relative_to(root)), load(i)[0], i.card, False) for i in images]


def _photo_name_card(stem: str) -> Card | None:
    return None if stem.lower() in ("back", "joker") else parse_card(stem)


def learnt_profile(by_card: dict[Card, np.ndarray]) -> DeckProfile:
    """``tablescan learn``'s profile of a deck, from its cards as flat crops in order."""
    return learn([canonical(by_card[c]) for c in learn_order(BRIDGE_52)], BRIDGE_52)


def read_learnt(label: str, by_card: dict[Card, np.ndarray], photos: list,
                read: Callable[..., Reading]) -> None:
    """Learn the deck from ``by_card``, then read ``photos`` with its profile."""
    try:
        learnt = learnt_profile(by_card)
    except ProfileError as exc:
        print(f"{label}, learnt: refused, {exc}")
        return
    print_tally(f"{label}, learnt, photos", read_all(
        photos, lambda img: read(img, learnt)), 3)


FAN_SPREADS = {"wide": (90.0, 130.0), "tight": (45.0, 80.0)}  # degrees, first to last card
# A player sorts a hand by suit, colours alternating, and high to low within a suit; its
# tight fan then shows a suit's ranks side by side, as a hand record prints them.
HELD_SUITS = (Suit.S, Suit.H, Suit.C, Suit.D)
HELD_RANKS = tuple(Rank)


def as_held(hand: list[RealImage]) -> list[RealImage]:
    """The hand sorted as a player holds it (``HELD_SUITS``, ``HELD_RANKS``)."""
    return sorted(hand, key=lambda c: (HELD_SUITS.index(c.card.suit),
                                       HELD_RANKS.index(c.card.rank)))


def snapped(scene: np.ndarray) -> np.ndarray:
    """A composited scene as a phone hands it over: a little blur, then JPEG."""
    _, data = cv2.imencode(".jpg", cv2.GaussianBlur(scene, (0, 0), 0.8),
                           [cv2.IMWRITE_JPEG_QUALITY, 88])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def fanned(cards: list[RealImage], spread: float, rng: np.random.Generator) -> np.ndarray:
    """The cards fanned on a table (``real_cards.fanned_on_a_table``), ``snapped``."""
    return snapped(fanned_on_a_table([load(c) for c in cards], spread, rng))


def fans(deck: str, cards: list[RealImage], read: Callable[[np.ndarray], list],
         seed: int) -> None:
    """A deck's 52 faces shuffled into four hands, each fanned at every FAN_SPREADS, and
    at the tight one sorted as a player holds it (``as_held``)."""
    faces = [c for c in cards if c.card is not None]
    layouts = [(name, spread, False) for name, spread in FAN_SPREADS.items()]
    layouts.append(("tight, sorted", FAN_SPREADS["tight"], True))
    for name, (low, high), sort in layouts:
        rng = np.random.default_rng(seed)
        order = [faces[i] for i in rng.permutation(len(faces))]
        right = wrong = 0
        for k in range(0, len(order), 13):
            hand = as_held(order[k:k + 13]) if sort else order[k:k + 13]
            held = {c.card for c in hand}
            named = Counter(d.card for d in read(fanned(hand, rng.uniform(low, high), rng))
                            if d.card is not None)
            right += sum(1 for card in named if card in held)
            wrong += sum(n for card, n in named.items() if card not in held)
            wrong += sum(n - 1 for card, n in named.items() if card in held)
        print(f"unseen deck {deck}, fanned {name} ({low:.0f}–{high:.0f}°)".ljust(62)
              + f"{len(faces)} cards: named right {right} ({100 * right / len(faces):.1f}%), "
              f"wrong or twice {wrong}")


# A dummy's cards lie this share of a card's height below the one before: a tight column
# and a loose one.
DUMMY_STEPS = (0.22, 0.3)
DUMMY_HANDS = 8  # hands of 13 laid as a dummy, per deck and step: two deals


def dummy(name: str, cards: list[tuple[Card, tuple[np.ndarray, np.ndarray]]],
          read: Callable[[np.ndarray], list], seed: int) -> None:
    """Hands of 13 dealt from ``cards`` (each card with its pixels and alpha), each laid as
    a dummy (``real_cards.laid_as_a_dummy``), suit by suit, high cards first."""
    for step in DUMMY_STEPS:
        rng = np.random.default_rng(seed)
        right = wrong = held_count = 0
        for hand in range(DUMMY_HANDS):
            start = 13 * (hand % 4)
            if start == 0:
                deal = [cards[i] for i in rng.permutation(len(cards))]
            held = deal[start:start + 13]
            columns: dict[str, list] = {}
            for card, image in sorted(held, key=lambda c: (c[0].suit.value,
                                                           HELD_RANKS.index(c[0].rank))):
                columns.setdefault(card.suit.value, []).append(image)
            photo = snapped(laid_as_a_dummy(list(columns.values()), step, rng))
            named = Counter(d.card for d in read(photo) if d.card is not None)
            truth = {card for card, _ in held}
            right += sum(1 for card in named if card in truth)
            wrong += sum(n for card, n in named.items() if card not in truth)
            wrong += sum(n - 1 for card, n in named.items() if card in truth)
            held_count += len(held)
        print(f"{name}, as a dummy, {step:.0%} apart".ljust(62)
              + f"{held_count} cards: named right {right} ({100 * right / held_count:.1f}%), "
              f"wrong or twice {wrong}")


def print_tally(label: str, tally: Tally, show: int = 8) -> None:
    print(tally.line(label))
    for mistake in tally.mistakes[:show]:
        print(f"    {mistake}")


def labelled_photos(folder: Path) -> Iterator[tuple[Path, set[Card]]]:
    """Each photo in ``folder`` (``NAME.jpg``) that has labels (``NAME*labels.json``), and
    the cards they say it shows."""
    for photo in sorted(folder.glob("*.jpg")):
        labels = sorted(folder.glob(f"{photo.stem}*labels.json"))
        if labels:
            yield photo, {parse_card(d["name"]) for d in json.loads(labels[0].read_text())}


def tallied(named: Counter, truth: set[Card]) -> tuple[int, list[str], list[str]]:
    """Of the cards ``named`` in a photo showing ``truth``: how many right, and which named
    wrongly and which twice."""
    return (sum(1 for card in named if card in truth),
            sorted(str(card) for card in named if card not in truth),
            sorted(str(card) for card, n in named.items() if n > 1))


def deals(folder: Path, read: Callable[[np.ndarray], list]) -> None:
    cards = named_right = 0
    for photo, truth in labelled_photos(folder):
        detections = read(cv2.imread(str(photo)))
        right, wrong, twice = tallied(Counter(d.card for d in detections
                                              if d.card is not None), truth)
        print(f"deal {photo.stem:<28} {len(truth)} cards: named right {right} "
              f"({100 * right / len(truth):.1f}%), wrong {wrong}, named twice {twice}, "
              f"found {len(detections)}")
        cards, named_right = cards + len(truth), named_right + right
    print(f"deals, all photos: {cards} cards, named right {named_right} "
          f"({100 * named_right / max(cards, 1):.1f}%)")


BACK_SCENES = 12  # photos of each unseen deck's backs


def backs(deck: str, back: RealImage, read: Callable[[np.ndarray], list], seed: int) -> None:
    """Photos of a deck's backs, two or three overlapping, near and far: cards named."""
    rng = np.random.default_rng(seed)
    named = []
    for _ in range(BACK_SCENES):
        scene = backs_on_a_table([load(back)] * int(rng.integers(2, 4)), rng)
        named += [str(d.card) for d in read(snapped(scene)) if d.card is not None]
    print(f"unseen deck {deck}, backs close up".ljust(62)
          + f"{BACK_SCENES} photos: cards named {len(named)} {sorted(named)}")


# Each deal photo read again as taken worse: each a label and what it does to the photo.
DEGRADED: tuple[tuple[str, Callable[[np.ndarray], np.ndarray]], ...] = (
    ("shrunk to 60% (720 px)", lambda img: cv2.resize(img, None, fx=0.6, fy=0.6,
                                                      interpolation=cv2.INTER_AREA)),
    ("out of focus (blur σ 1.2 px)", lambda img: cv2.GaussianBlur(img, (0, 0), 1.2)),
    ("further out (blur σ 1.6 px)", lambda img: cv2.GaussianBlur(img, (0, 0), 1.6)),
    ("further still (blur σ 2 px)", lambda img: cv2.GaussianBlur(img, (0, 0), 2.0)),
    ("JPEG at quality 40", lambda img: jpeg_round_trip(img, 40)),
    ("darker midtones (gamma 1.3)", lambda img: darker_midtones(img, 1.3)),
    ("darker still (gamma 1.6)", lambda img: darker_midtones(img, 1.6)),
    # A lamp's light with the camera balanced for daylight, as a phone that balances only
    # part of the way leaves it: white card orange.
    ("under a 3,500 K lamp", lambda img: under_a_lamp(img, 3500)),
    ("under a 2,700 K household bulb", lambda img: under_a_lamp(img, 2700)),
    ("a 3,000 K lamp left, daylight right", lambda img: lamp_and_daylight(img, 3000)),
    # The same noise every run.
    ("noisy (σ 12 grey levels)", lambda img: with_noise(img, 12, np.random.default_rng(0))),
    # A deal a third as wide as a 12 MP photo, taken from standing height: the same
    # table every run.
    ("farther off (a third of a 3,600 px photo)",
     lambda img: farther_off(img, 3, np.random.default_rng(0))),
    # Taken from a seat, not from over the table: far cards smaller, every index squashed
    # along the line of sight.
    ("from a seat (depth at 0.8)", lambda img: from_a_seat(img, 0.8)),
    ("from a lower seat (depth at 0.6)", lambda img: from_a_seat(img, 0.6)),
)


def degraded_deals(folder: Path, read: Callable[[np.ndarray], list]) -> None:
    """Each labelled photo read again as each of ``DEGRADED`` takes it: all photos'
    cards named right, and any named wrongly or twice."""
    photos = [(cv2.imread(str(photo)), truth) for photo, truth in labelled_photos(folder)]
    for label, degrade in DEGRADED:
        cards = right = 0
        wrong, twice = [], []
        for img, truth in photos:
            named = Counter(d.card for d in read(degrade(img)) if d.card is not None)
            got, wrong_here, twice_here = tallied(named, truth)
            cards, right = cards + len(truth), right + got
            wrong += wrong_here
            twice += twice_here
        print(f"deals, {label:<30} {cards} cards: named right {right} "
              f"({100 * right / max(cards, 1):.1f}%), wrong {sorted(wrong)}, "
              f"named twice {sorted(twice)}")


# Tiles a photo is cut into, as a share of its size: a camera twice and three times nearer.
CLOSE_UPS = (0.5, 0.35)


def close_ups(folder: Path, read: Callable[[np.ndarray], list]) -> None:
    """Each labelled photo cut into overlapping tiles (``CLOSE_UPS``), each read: cards
    named that the photo does not hold."""
    tiles, wrong = 0, []
    for photo, truth in labelled_photos(folder):
        img = cv2.imread(str(photo))
        height, width = img.shape[:2]
        for share in CLOSE_UPS:
            w, h = int(width * share), int(height * share)
            steps = 2 * round(1 / share) - 1
            for i in range(steps):
                for j in range(steps):
                    x, y = (width - w) * i // (steps - 1), (height - h) * j // (steps - 1)
                    tiles += 1
                    wrong += [f"{photo.stem} {share:.2f} ({x}, {y}): {d.card}"
                              for d in read(img[y:y + h, x:x + w])
                              if d.card is not None and d.card not in truth]
    print(f"deals cut closer, {tiles} tiles: named wrongly {len(wrong)}")
    for line in wrong[:12]:
        print(f"    {line}")


PRINTED_SEED = 424_242


def printed(count: int, read: Callable[[np.ndarray], list]) -> None:
    """``count`` photos of printed text alone: every card named is wrong."""
    printed_text.check_tools()
    named = [str(d.card) for k in range(count)
             for d in read(printed_text.text_on_a_table(np.random.default_rng([PRINTED_SEED, k])))
             if d.card is not None]
    print(f"printed sheets on a table, {count} photos: cards named {len(named)} "
          f"{sorted(named)}")


def print_photos(folder: Path, read: Callable[[np.ndarray], list]) -> None:
    """Real photos of printed matter, as taken and laid on a table: every card named is
    wrong. Printed with the photos that named any, so a regression can be looked at."""
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png"))
    taken: Counter[str] = Counter()
    laid: Counter[str] = Counter()
    for k, path in enumerate(files):
        paper = cv2.imread(str(path))
        if paper is None:
            raise SystemExit(f"--print-photos: {path} is no picture OpenCV can read")
        rng = np.random.default_rng([PRINTED_SEED, k])
        table = table_photo(rng)
        as_taken = [str(d.card) for d in read(paper) if d.card is not None]
        on_table = [str(d.card) for d in read(printed_text.paper_on_a_table(table, paper, rng))
                    if d.card is not None]
        if as_taken or on_table:
            print(f"  {path.name}: as taken {as_taken}, on a table {on_table}")
        taken.update(as_taken)
        laid.update(on_table)
    print(f"real printed matter, {len(files)} photos: cards named as taken "
          f"{sum(taken.values())}, laid on a table {sum(laid.values())}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path)
    parser.add_argument("--split", default="calibration", choices=("calibration", "valid",
                                                                    "test"))
    parser.add_argument("--svg", type=Path)
    parser.add_argument("--photos", type=Path)
    parser.add_argument("--deals", type=Path)
    parser.add_argument("--model", type=Path, help="a corner net to use instead of the shipped")
    parser.add_argument("--fans", action="store_true",
                        help="also fan each unseen deck's cards into hands and read them")
    parser.add_argument("--dummy", action="store_true",
                        help="also lay the unseen decks' and the photos' cards as a dummy")
    parser.add_argument("--learn", action="store_true",
                        help="also learn each deck from a sorted pass and read with it")
    parser.add_argument("--backs", action="store_true",
                        help="also lay each unseen deck's backs on a table, close up")
    parser.add_argument("--degraded", action="store_true",
                        help="also read each deal photo smaller, blurred, compressed, darker")
    parser.add_argument("--close-ups", action="store_true",
                        help="also read each deal photo cut into tiles, as if nearer")
    parser.add_argument("--printed", type=int, default=0, metavar="N",
                        help="read N photos of printed text lying on a table")
    parser.add_argument("--print-photos", type=Path, metavar="DIR",
                        help="real photos of printed matter that shows no card")
    args = parser.parse_args(argv)
    if args.printed < 0:
        parser.error(f"--printed {args.printed}: a number of photos, 0 or more")
    if args.print_photos is not None and not args.print_photos.is_dir():
        parser.error(f"--print-photos {args.print_photos}: no such folder")
    cv2.setNumThreads(1)
    net = None if args.model is None else CornerReader(args.model)
    read_single_card = partial(read_one, reader=net)
    read_table = partial(read_deal, reader=net)
    rng = np.random.default_rng(BENCH_SEED)
    if args.dataset is not None:
        print_tally(f"CC0 {args.split}, tight crops",
                    read_all(dataset_set(args.dataset, args.split), read_single_card))
    if args.svg is not None:
        unseen = [i for i in svg_images(args.svg) if i.design in UNSEEN_SVG_DECKS]
        for deck in UNSEEN_SVG_DECKS:
            cards: list[RealImage] = [i for i in unseen if i.design == deck]
            flat = [(f"{deck}/{i.path.name}", load(i)[0], i.card, i.back) for i in cards]
            print_tally(f"unseen deck {deck}, crops", read_all(flat, read_single_card), 3)
            photos = [(f"{deck}/{i.path.name}", photographed(*load(i), rng), i.card, i.back)
                      for i in cards]
            print_tally(f"unseen deck {deck}, photos", read_all(photos, read_single_card), 3)
            if args.fans:
                fans(deck, cards, read_table, BENCH_SEED)
            if args.dummy:
                dummy(f"unseen deck {deck}", [(i.card, load(i)) for i in cards
                                              if i.card is not None], read_table, BENCH_SEED)
            back = [i for i in cards if i.back]
            if args.backs and back:
                backs(deck, back[0], read_table, BENCH_SEED)
            if args.learn:
                read_learnt(f"unseen deck {deck}",
                            {i.card: load(i)[0] for i in cards if i.card is not None}, photos,
                            read_single_card)
    if args.photos is not None:
        files = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".png"))
        real = [(p.name, cv2.imread(str(p)), _photo_name_card(p.stem),
                 p.stem.lower() == "back") for p in files]
        print_tally("real photos, as crops", read_all(real, read_single_card))
        laid = [(name, photographed(img, np.full(img.shape[:2], 255, np.uint8), rng), truth,
                 back) for name, img, truth, back in real]
        print_tally("real photos, laid on a table", read_all(laid, read_single_card))
        if args.learn:
            read_learnt("real photos", {truth: img for _, img, truth, _ in real
                                        if truth is not None}, laid, read_single_card)
        if args.dummy:
            dummy("real photos", [(truth, (img, np.full(img.shape[:2], 255, np.uint8)))
                                  for _, img, truth, _ in real if truth is not None],
                  read_table, BENCH_SEED)
    if args.deals is not None:
        deals(args.deals, read_table)
        if args.degraded:
            degraded_deals(args.deals, read_table)
        if args.close_ups:
            close_ups(args.deals, read_table)
    if args.printed > 0:
        printed(args.printed, read_table)
    if args.print_photos is not None:
        print_photos(args.print_photos, read_table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
