"""Rendered hand deals: what a reading shoe's camera and a camera over the table would film.

A script lists the draws as they happen: which card(s) leave the shoe, which seat they go to,
face down or up; then meld laid down. ``render_deal`` films it with two cameras in step, one
frame each per tick, at ``FPS``: the shoe's window (640×480) and the table (1280×720) with the
seat zones drawn by the renderer's table scenes. Both are written as real video files that
``cv2.VideoCapture`` reads back, with the zones' calibration and the truth beside them.

Per card: a tick in the shoe's window, then an empty window while the card lands in its zone
(crossing the table first, with ``travel``) and lies still for a tick. Every frame carries
its own sensor noise, as a real camera's does (a frame identical to the one before is a
frozen camera).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ..cards import DECK_FOR_GAME, Card, Seat
from ..vision.synthetic import render, scene
from .zones import SeatZones, marker_image

FPS = 10.0
STATION_SIZE = (640, 480)
TABLE_SIZE = (1280, 720)
CARD_HEIGHT = 120  # pixels on the table: a camera about a metre above the cloth
STYLE = "standard"
BACK = "lattice-blue"
# The seat zones as the table's calibration stores them: (x0, y0, x1, y1).
ZONE_BOXES = {Seat.N: (320, 10, 960, 200), Seat.S: (320, 520, 960, 710),
              Seat.W: (10, 150, 300, 570), Seat.E: (980, 150, 1270, 570)}
# Where meld goes in each zone, beside the pile: offsets from the zone's centre along its
# length (the table's edge), up to four cards.
MELD_OFFSETS = (-260, -170, 170, 260)
MELD_OFFSETS_SIDE = (-150, 150, -75, 75)
NOISE = 3  # grey levels of sensor noise
MARKER_SIDE = 48  # pixels: an ArUco seat marker about 4 cm across


@dataclass(frozen=True)
class Draw:
    """One draw from the shoe: usually one card, two in a double draw. ``to`` is where the
    dealer puts it; ``face_up`` lands it face up."""

    cards: tuple[Card, ...]
    to: Seat
    face_up: bool = False
    lands: int | None = None  # how many of the cards land (None: all; 0: all put back)


@dataclass(frozen=True)
class DealScript:
    game: str
    dealer: Seat
    draws: tuple[Draw, ...]
    meld: dict[Seat, tuple[Card, ...]] = field(default_factory=dict)


def shuffled(game: str, seed: int) -> list[Card]:
    cards = list(DECK_FOR_GAME[game].cards())
    order = np.random.default_rng(seed).permutation(len(cards))
    return [cards[i] for i in order]


def right_deal(game: str, dealer: Seat, seed: int) -> DealScript:
    """The deck dealt by the rules: packets of three (pinochle) or one (bridge), clockwise
    from the dealer's left."""
    packet = 3 if game == "pinochle" else 1
    seats = dealer.left.clockwise_from()
    draws = tuple(Draw((card,), seats[(i // packet) % 4])
                  for i, card in enumerate(shuffled(game, seed)))
    return DealScript(game, dealer, draws)


def dealt_hands(script: DealScript) -> dict[Seat, list[Card]]:
    hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
    for draw in script.draws:
        hands[draw.to].extend(draw.cards[:draw.lands])
    return hands


def with_draw(script: DealScript, index: int, draw: Draw | None) -> DealScript:
    """The script with draw ``index`` replaced (None: removed)."""
    draws = list(script.draws)
    if draw is None:
        del draws[index]
    else:
        draws[index] = draw
    return replace(script, draws=tuple(draws))


def zones() -> SeatZones:
    boxes = {seat: np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
             for seat, (x0, y0, x1, y1) in ZONE_BOXES.items()}
    return SeatZones(TABLE_SIZE, boxes)


@dataclass
class Footage:
    station: Path
    table: Path
    zones: Path
    truth: dict[str, object]
    frames: int


class _Cards:
    """Each card's flat face, rendered once; the back too."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.faces: dict[Card, np.ndarray] = {}
        self.back = render.render_card(None, STYLE, seed=seed, back=BACK)
        self.mask = render.card_alpha(STYLE)

    def face(self, card: Card) -> np.ndarray:
        if card not in self.faces:
            self.faces[card] = render.render_card(card, STYLE, seed=self.seed + card.index)
        return self.faces[card]


class _Noise:
    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.bank = {size: [rng.integers(-NOISE, NOISE + 1, (size[1], size[0], 3), np.int16)
                            for _ in range(5)] for size in (STATION_SIZE, TABLE_SIZE)}
        self.tick = 0

    def add(self, image: np.ndarray) -> np.ndarray:
        size = (image.shape[1], image.shape[0])
        noise = self.bank[size][self.tick % len(self.bank[size])]
        return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def shots(script: DealScript, *, seed: int = 0, markers: bool = False, travel: bool = False
          ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each tick's two frames, the reading shoe's and the table's, as the script plays.
    ``markers`` lays the ArUco seat markers on the table; ``travel`` shows each card
    crossing the table for a tick before it lands."""
    rng = np.random.default_rng(seed)
    cards = _Cards(seed)
    noise = _Noise(seed)
    station_bg = np.full((STATION_SIZE[1], STATION_SIZE[0], 3), 22, np.uint8)
    table = scene.BACKGROUNDS["cloth"](rng, TABLE_SIZE[1], TABLE_SIZE[0])
    if markers:
        _lay_markers(table)
    ticks = itertools.count()

    def shot(station: np.ndarray, on_table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        noise.tick = next(ticks)
        return noise.add(station), noise.add(on_table)

    aspect = cards.mask.shape[1] / cards.mask.shape[0]
    for n, draw in enumerate(script.draws):
        for k, card in enumerate(draw.cards):
            # Dealt face down, the card shows its face to the lens at the shoe's mouth.
            flat = cards.face(card)
            if (n + k) % 2:
                flat = np.ascontiguousarray(flat[::-1, ::-1])
            quad = _station_quad(rng, flat.shape[1], flat.shape[0])
            yield shot(render.place_card(station_bg, flat, cards.mask, quad), table)
        for card in draw.cards[:draw.lands]:
            if travel:
                travelling = table.copy()
                corners = scene.card_corners((640 + rng.uniform(-30, 30), 360), CARD_HEIGHT,
                                             aspect, rng.uniform(0, 180))
                scene.paste_card(travelling, cards.back, cards.mask, corners)
                yield shot(station_bg, travelling)
            flat = cards.face(card) if draw.face_up else cards.back
            scene.paste_card(table, flat, cards.mask, _pile_corners(rng, draw.to, aspect))
            yield shot(station_bg, table)
            yield shot(station_bg, table)
        if draw.lands == 0:
            # Put back: the window empties before the next draw.
            yield shot(station_bg, table)
            yield shot(station_bg, table)
    for seat, shown in script.meld.items():
        for i, card in enumerate(shown):
            scene.paste_card(table, cards.face(card), cards.mask,
                             _meld_corners(rng, seat, i, aspect))
            for _ in range(3):
                yield shot(station_bg, table)
    for _ in range(3):
        yield shot(station_bg, table)


def render_deal(script: DealScript, folder: Path, *, seed: int = 0, markers: bool = False,
                travel: bool = False, table_camera: bool = True) -> Footage:
    """Film ``script`` (see ``shots``) into ``folder`` as ``station.avi`` and ``table.avi``
    (MJPG), with ``zones.json`` and ``truth.json``; without ``table_camera`` only the
    reading shoe is filmed."""
    folder.mkdir(parents=True, exist_ok=True)
    fourcc = cv2.VideoWriter_fourcc(*"MJPG")
    station_out = cv2.VideoWriter(str(folder / "station.avi"), fourcc, FPS, STATION_SIZE)
    table_out = (cv2.VideoWriter(str(folder / "table.avi"), fourcc, FPS, TABLE_SIZE)
                 if table_camera else None)
    ticks = 0
    for station, on_table in shots(script, seed=seed, markers=markers, travel=travel):
        station_out.write(station)
        if table_out is not None:
            table_out.write(on_table)
        ticks += 1
    station_out.release()
    if table_out is not None:
        table_out.release()
    zones_path = folder / "zones.json"
    zones_path.write_text(json.dumps(zones().to_dict()), encoding="utf-8")
    truth = {"game": script.game, "dealer": script.dealer.value,
             "hands": {s.value: [str(c) for c in h] for s, h in dealt_hands(script).items()},
             "meld": {s.value: [str(c) for c in m] for s, m in script.meld.items()},
             "exposed": [str(c) for d in script.draws if d.face_up for c in d.cards]}
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return Footage(folder / "station.avi", folder / "table.avi", zones_path, truth, ticks)


def _station_quad(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Where the card shows in the shoe's window: centred, a little play."""
    fw, fh = STATION_SIZE
    scale = 0.84 * fh / h
    centre = np.array([fw / 2, fh / 2]) + rng.uniform(-1, 1, 2) * np.array([20.0, 8.0])
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    angle = np.deg2rad(rng.uniform(-2, 2))
    return (render.turned(half, angle) + centre).astype(np.float32)


def _zone_centre(seat: Seat) -> tuple[float, float]:
    x0, y0, x1, y1 = ZONE_BOXES[seat]
    return (x0 + x1) / 2, (y0 + y1) / 2


def _across(seat: Seat) -> float:
    """A card's angle in a seat's zone: its long side towards the player."""
    return 90.0 if seat in (Seat.E, Seat.W) else 0.0


def _pile_corners(rng: np.random.Generator, seat: Seat, aspect: float) -> np.ndarray:
    cx, cy = _zone_centre(seat)
    return scene.card_corners((cx + rng.uniform(-20, 20), cy + rng.uniform(-20, 20)), CARD_HEIGHT,
                              aspect, _across(seat) + rng.uniform(-15, 15))


def _meld_corners(rng: np.random.Generator, seat: Seat, i: int, aspect: float) -> np.ndarray:
    """Meld lies in a row beside the pile, along the table's edge."""
    cx, cy = _zone_centre(seat)
    if seat in (Seat.E, Seat.W):
        centre = (cx, cy + MELD_OFFSETS_SIDE[i])
    else:
        centre = (cx + MELD_OFFSETS[i], cy)
    return scene.card_corners(centre, CARD_HEIGHT, aspect, _across(seat) + rng.uniform(-2, 2))


def _lay_markers(table: np.ndarray) -> None:
    """The four seat markers, each where its seat's pile will lie."""
    for seat in Seat:
        marker = cv2.cvtColor(marker_image(seat, MARKER_SIDE), cv2.COLOR_GRAY2BGR)
        cx, cy = (round(v) for v in _zone_centre(seat))
        h, w = marker.shape[:2]
        table[cy - h // 2:cy - h // 2 + h, cx - w // 2:cx - w // 2 + w] = marker


def ticks_of(script: DealScript, travel: bool = False) -> list[int]:
    """How many ticks each draw takes, for tests that pull the camera at a given card."""
    return [(4 if travel else 3) * len(d.cards) for d in script.draws]
