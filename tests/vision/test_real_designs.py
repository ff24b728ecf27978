"""The reader on real deck designs: Debian's SVG decks (drawn after real patterns),
rasterised at test time, read as tight crops and as photos of a card lying on a table.

The decks come from ``gnome-cards-data`` and ``librsvg2-bin``, which ``.ci/run`` installs;
the CC0 photographs the net also learnt from may not be committed here, so these real
designs stand in for them in the suite (``bench/vision_real.py`` measures the photos).
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.cards import BRIDGE_52, parse_card
from scanner.vision import table
from scanner.vision.backside import back_confidence
from scanner.vision.corner_net import NET_PATH, CornerReader
from scanner.vision.index import CANONICAL_SIZE, canonical
from scanner.vision.indices import find_index_corners
from scanner.vision.profile import learn, learn_order
from scanner.vision.reading import THRESHOLD, Reading, read_card_images
from scanner.vision.synthetic import render
from scanner.vision.table import card_at_a_slant, card_filling, read_single_card, read_table
from scanner.vision.training.real_cards import (
    fanned_on_a_table,
    laid_as_a_dummy,
    table_surface,
)
from scanner.vision.training.svg_decks import _render, card_ids

DECK = Path("/usr/share/aisleriot/cards/anglo.svgz")
pytestmark = pytest.mark.skipif(
    shutil.which("rsvg-convert") is None or not DECK.exists(),
    reason="needs Debian's librsvg2-bin and gnome-cards-data (.ci/run installs them)")

COURTS = ("KS", "QH", "JD", "KC", "QS", "JH")
PIPS = ("2C", "7D", "9S", "TH", "AS", "5H")
SIXES_AND_NINES = ("6H", "9H")  # one turned half round is much the other
# Two columns of a dummy whose outlines the locator takes for one long card each.
COLUMNS = (("5D", "4D", "3D"), ("9C", "6C", "2C"))


@pytest.fixture(scope="module")
def anglo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """BGRA images of a few cards and the back of the anglo deck, about 420 px tall."""
    svg = tmp_path_factory.mktemp("anglo") / "anglo.svg"
    svg.write_bytes(gzip.decompress(DECK.read_bytes()))
    ids = card_ids(svg.read_text())
    names = (*COURTS, *PIPS, *SIXES_AND_NINES, *{n for c in COLUMNS for n in c}, "back")
    return {name: _render(svg, ids[f"{name}.png"], 1.3) for name in names}


def flat(bgra: np.ndarray) -> np.ndarray:
    alpha = bgra[..., 3:4].astype(np.float32) / 255
    return (bgra[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)


def laid_on_a_table(bgra: np.ndarray, degrees: float, seed: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The card lying on a table in a 1600×1200 photo, turned ``degrees``, and its
    outline there."""
    rng = np.random.default_rng(seed)
    photo = table_surface(rng, 1200, 1600)
    h, w = bgra.shape[:2]
    scale = 600 / h
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    a = np.deg2rad(degrees)
    quad = half @ np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]).T + (800, 600)
    quad = quad.astype(np.float32)
    return render.place_card(photo, flat(bgra), bgra[..., 3], quad), quad


def on_a_table(bgra: np.ndarray, degrees: float, seed: int) -> np.ndarray:
    """The card lying on a table in a 1600×1200 photo, turned ``degrees``."""
    return laid_on_a_table(bgra, degrees, seed)[0]


@pytest.mark.parametrize("name", COURTS)
def test_a_court_card_is_a_face_never_a_back(anglo, name):
    """Its picture is as textured as a back, but its corners carry an index."""
    for picture in (flat(anglo[name]), on_a_table(anglo[name], 30, seed=1)):
        reading = read_single_card(picture)
        assert reading.face == "up"
        assert reading.card in (parse_card(name), None)


@pytest.mark.parametrize("name", COURTS)
def test_a_court_card_with_one_index_cut_off_is_still_a_face(anglo, name):
    """One corner's index is evidence enough that it is no back, but too little to name
    a card on: a patch of the picture may pass for an index once."""
    card = flat(anglo[name])
    h = card.shape[0]
    for part in (card[: int(0.7 * h)], card[int(0.3 * h):]):
        reading = read_single_card(part)
        assert reading.face == "up"
        assert reading.card in (parse_card(name), None)


class CountingReader(CornerReader):
    """The shipped net, counting the corner windows it is asked to read."""

    def __init__(self) -> None:
        super().__init__()
        self.windows = 0

    def probabilities(self, windows, temperature=None):
        self.windows += len(windows)
        return super().probabilities(windows, temperature)


def test_each_corner_goes_through_the_net_once_even_on_a_court_card(anglo):
    """A court's picture is textured like a back, so its corners are asked whether they
    show an index; the same beliefs then name it, rather than a second pass."""
    cards = [flat(anglo[name]) for name in (*COURTS, "back")]
    assert any(back_confidence(canonical(card)) >= THRESHOLD for card in cards[:-1])
    reader = CountingReader()
    readings = read_card_images(cards, reader=reader)
    assert reader.windows == 2 * len(cards)
    assert [r.face for r in readings] == ["up"] * len(COURTS) + ["down"]
    assert all(r.card in (parse_card(n), None) for n, r in zip(COURTS, readings, strict=False))


def test_a_real_back_is_read_as_a_back_never_as_a_face(anglo):
    for picture in (flat(anglo["back"]), on_a_table(anglo["back"], 110, seed=2)):
        reading = read_single_card(picture)
        assert reading.card is None
        assert reading.face == "down"


def test_tight_crops_of_a_real_design_are_read(anglo):
    names = (*COURTS, *PIPS)
    readings = {name: read_single_card(flat(anglo[name])) for name in names}
    assert all(r.card in (parse_card(n), None) for n, r in readings.items()), readings
    assert sum(r.card == parse_card(n) for n, r in readings.items()) >= len(names) - 1


def test_a_tight_crop_squashed_square_as_a_dataset_picture_is_still_read(anglo):
    square = cv2.resize(flat(anglo["7D"]), (224, 224), interpolation=cv2.INTER_AREA)
    assert read_single_card(square).card == parse_card("7D")


@pytest.mark.parametrize("degrees", [0, 90, 180, 270, 37, -140])
def test_a_photo_of_a_card_on_a_table_is_read_at_any_rotation(anglo, degrees):
    readings = [read_single_card(on_a_table(anglo[name], degrees, seed=3)) for name in PIPS]
    truth = [parse_card(name) for name in PIPS]
    assert all(r.card in (t, None) for r, t in zip(readings, truth, strict=True))
    assert sum(r.card == t for r, t in zip(readings, truth, strict=True)) >= len(PIPS) - 1


def cut_round(bgra: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """A picture cut to the box round the card lying turned on a table, so that its
    corners touch the picture's edges, and the card's outline in that picture."""
    photo, quad = laid_on_a_table(bgra, degrees, seed=5)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    return photo[y0:y1, x0:x1], quad - (x0, y0)


@pytest.mark.parametrize("degrees", [8, -13, 21])
def test_a_card_cut_round_turned_is_outlined_though_it_touches_every_edge(anglo, degrees):
    for name in ("QS", "7D"):
        picture, truth = cut_round(anglo[name], degrees)
        outline = card_filling(picture)
        assert outline is not None
        # The same corners, in any order: at most 2% of the card's height off.
        off = np.linalg.norm(outline[:, None, :] - truth[None, :, :], axis=2).min(axis=1)
        assert off.max() < 0.02 * 600
        assert read_single_card(picture).card == parse_card(name)


def test_a_card_cut_round_is_read_straightened_when_the_picture_itself_is_not(
        anglo, monkeypatch):
    # As in a real phone photo cut round a turned card: no outline is found (its corners
    # touch the edges), and the picture read as it is abstains; only the card
    # straightened from the stock filling it, at the reader's canonical size, is read.
    real = table.read_card_images
    monkeypatch.setattr(table, "locate_cards", lambda photo: [])
    monkeypatch.setattr(table, "read_station", lambda *a, **kw: Reading("none", None, 1.0))

    def picture_unread(cards, **kw):
        straightened = [c.shape[:2] == CANONICAL_SIZE[::-1] for c in cards]
        readings = real(cards, **kw)
        return [r if ok else Reading("up", None, 0.0)
                for r, ok in zip(readings, straightened, strict=True)]
    monkeypatch.setattr(table, "read_card_images", picture_unread)
    monkeypatch.setattr(table, "one_card_by_both_indices", lambda *a, **kw: None)
    # Nor is the card taken for one seen at a slant, which would name it as well.
    monkeypatch.setattr(table, "card_at_a_slant", lambda picture: None)
    picture, _ = cut_round(anglo["QS"], 13)
    assert read_single_card(picture).card == parse_card("QS")
    monkeypatch.setattr(table, "card_filling", lambda picture: None)
    assert read_single_card(picture).card is None


def test_no_card_fills_a_picture_of_the_table_or_of_a_card_lying_small_on_it(anglo):
    table = table_surface(np.random.default_rng(2), 600, 800)
    assert card_filling(table) is None
    assert card_filling(on_a_table(anglo["7D"], 15, seed=2)) is None


def seen_steeply(bgra: np.ndarray, degrees: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The card lying on a dark table, photographed from a phone held low: its far end
    shrunk to 0.6 of its near end and the card foreshortened to under half its height,
    then turned ``degrees`` in the photo; the photo and the card's outline there."""
    photo = np.clip(table_surface(np.random.default_rng(seed), 1200, 1600) * 0.45,
                    0, 255).astype(np.uint8)
    near, far, tall = 300.0, 180.0, 190.0
    quad = np.array([[-far, -tall], [far, -tall], [near, tall], [-near, tall]], np.float64)
    a = np.deg2rad(degrees)
    quad = quad @ np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]).T + (800, 600)
    quad = quad.astype(np.float32)
    return render.place_card(photo, flat(bgra), bgra[..., 3], quad), quad


@pytest.mark.parametrize("name, degrees", [("7D", 0), ("QH", 35), ("AS", -120)])
def test_a_card_seen_steeply_is_named_though_it_has_no_card_s_proportions(
        anglo, name, degrees):
    photo, quad = seen_steeply(anglo[name], degrees, seed=5)
    assert table.locate_cards(photo) == [], "the locator wants a card's proportions"
    outline = card_at_a_slant(photo)
    assert outline is not None
    height = float(np.linalg.norm(quad[3] - quad[0]))
    assert min(np.linalg.norm(outline - np.roll(quad, k, axis=0), axis=1).max()
               for k in range(4)) < 0.05 * height
    assert read_single_card(photo).card == parse_card(name)


def test_a_card_seen_steeply_is_named_only_through_its_slanted_outline(anglo, monkeypatch):
    photo, _ = seen_steeply(anglo["QH"], 35, seed=5)
    monkeypatch.setattr(table, "card_at_a_slant", lambda picture: None)
    assert read_single_card(photo).card is None


def test_a_card_flattened_both_ways_is_named_only_when_one_way_names_it(anglo, monkeypatch):
    photo, _ = seen_steeply(anglo["7D"], 0, seed=5)
    monkeypatch.setattr(table, "one_card_by_both_indices", lambda *a, **kw: None)
    two = [Reading("up", parse_card("7D"), 1.0), Reading("up", parse_card("6C"), 1.0)]
    real = table.read_card_images

    def each_way_another_card(cards, **kwargs):
        return two if len(cards) == 2 else real(cards, **kwargs)

    monkeypatch.setattr(table, "read_card_images", each_way_another_card)
    assert read_single_card(photo).card is None


def test_no_card_is_seen_steeply_on_a_bare_table():
    assert card_at_a_slant(table_surface(np.random.default_rng(3), 600, 800)) is None


def fanned(cards: list[np.ndarray], seed: int, spread: float = 80.0) -> np.ndarray:
    """Cards fanned as a hand is held down on a table, ``spread`` degrees from first to
    last, so only their left strips and index corners show."""
    return fanned_on_a_table([(flat(c), c[..., 3]) for c in cards], spread,
                             np.random.default_rng(seed))


def test_a_fanned_hand_names_each_card_once_by_its_corner(anglo):
    names = ("2C", "7D", "9S", "TH", "AS", "5H", "KS", "QH", "JD")
    detections = read_table(fanned([anglo[n] for n in names], seed=4))
    named = [d.card for d in detections if d.card is not None]
    assert len(named) == len(set(named)), "a card named twice"
    assert set(named) <= {parse_card(n) for n in names}
    assert len(set(named)) >= len(names) - 2



def test_a_dummy_laid_in_columns_names_each_card_once_by_its_index_strip(anglo):
    """A bridge dummy: a column a suit, each card over the one before, so that above each
    index lies the strip of the card before, with its pips. A 9 turned half round over
    such a pip reads as a 6 (``indices._read_both_ways_up``)."""
    columns = [["AS", "KS", "9S"], ["QH", "JH", "TH", "9H", "6H", "5H"], ["JD", "7D"],
               ["KC", "2C"]]
    photo = laid_as_a_dummy([[(flat(anglo[n]), anglo[n][..., 3]) for n in column]
                             for column in columns], 0.22, np.random.default_rng(0))
    named = [d.card for d in read_table(photo) if d.card is not None]
    assert len(named) == len(set(named)), "a card named twice"
    assert set(named) <= {parse_card(n) for column in columns for n in column}
    assert len(named) >= 12


def test_a_column_taken_for_one_card_is_still_searched_for_the_cards_above_its_last(anglo):
    """The outline round a dummy's column is longer than a card's; its last card may be
    named (its corner and its middle agree), and the cards above it show only their
    indices, which are found as on an unread card's outline."""
    photo = laid_as_a_dummy([[(flat(anglo[n]), anglo[n][..., 3]) for n in column]
                             for column in COLUMNS], 0.22, np.random.default_rng(0))
    assert any(table.longer_than_a_card(table.portrait(o)) for o in table.locate_cards(photo))
    named = [str(d.card) for d in read_table(photo) if d.card is not None]
    assert sorted(named) == sorted(n for column in COLUMNS for n in column)


def test_a_hand_half_in_shadow_is_read_in_the_shadow_too(anglo):
    """Ink is judged against the paper around it, and paper against the brightest stock a
    few cards away, not the photo's brightest: a shadow dims both alike."""
    names = ("2C", "7D", "9S", "TH", "AS", "5H", "KS", "QH", "JD")
    photo = fanned([anglo[n] for n in names], seed=4).astype(np.float32)
    h, w = photo.shape[:2]
    shade = np.where(np.arange(w) > w // 2, 0.55, 1.0).astype(np.float32)
    shade = cv2.GaussianBlur(np.tile(shade, (h, 1)), (0, 0), 15)
    detections = read_table(np.clip(photo * shade[..., None], 0, 255).astype(np.uint8))
    named = [d.card for d in detections if d.card is not None]
    assert len(named) == len(set(named)), "a card named twice"
    assert set(named) <= {parse_card(n) for n in names}
    assert len(set(named)) >= len(names) - 2


def test_learn_adapts_the_reader_to_a_real_design_from_one_sorted_pass(tmp_path):
    """``tablescan learn``'s profile, from the neoclassical deck's 52 faces in the learn
    order, cut out every index (tall ones too) and reads the deck's cards photographed on
    a table; a card it cannot read surely it leaves unnamed, never names wrongly."""
    svg = tmp_path / "neoclassical.svg"
    svg.write_bytes(gzip.decompress((DECK.parent / "neoclassical.svgz").read_bytes()))
    ids = card_ids(svg.read_text())
    order = learn_order(BRIDGE_52)
    faces = {card: _render(svg, ids[f"{card}.png"], 1.3) for card in order}
    profile = learn([flat(faces[card]) for card in order], BRIDGE_52)
    photographed = order[::4]
    readings = [read_single_card(on_a_table(faces[card], 25 + 40 * i, seed=i), profile)
                for i, card in enumerate(photographed)]
    assert all(r.card in (card, None) for r, card in zip(readings, photographed, strict=True))
    assert sum(r.card == card for r, card in zip(readings, photographed, strict=True)) >= (
        len(photographed) - 1)


def test_a_tight_fan_names_neighbours_whose_indices_nearly_touch(anglo):
    """Twelve cards over 55 degrees: the next card's index shows inside each one's corner
    window, and each is still a card of its own."""
    names = (*PIPS, *COURTS)
    detections = read_table(fanned([anglo[n] for n in names], seed=5, spread=55))
    named = [d.card for d in detections if d.card is not None]
    assert len(named) == len(set(named)), "a card named twice"
    assert set(named) <= {parse_card(n) for n in names}
    assert len(set(named)) >= len(names) - 2


def reader_sure_of_no_corner_at_first_look(folder: Path, second: float | None = None
                                           ) -> CornerReader:
    """The shipped net with no corner ever sure enough at a first look; its second looks
    kept as calibrated, with its second opinion, or the one just short of sure set to
    ``second`` and none taken further short."""
    shutil.copy(NET_PATH, folder / "net.onnx")
    calibration = json.loads(NET_PATH.with_suffix(".json").read_text())
    other = NET_PATH.with_name(calibration["second_opinion"])
    for path in (other, other.with_suffix(".json")):
        shutil.copy(path, folder / path.name)
    calibration["corner"] = 1.01
    if second is not None:
        calibration["corner_second"] = second
        del calibration["corner_second_low"]
    (folder / "net.json").write_text(json.dumps(calibration))
    return CornerReader(folder / "net.onnx")


def test_corners_just_short_of_sure_are_named_on_a_second_look(anglo, tmp_path):
    """With the first look made never sure, a fanned hand is still read by the second look
    alone, averaging each corner's redrawn windows; and named nothing wrong."""
    names = ("2C", "7D", "9S", "TH", "AS", "5H", "KS", "QH", "JD")
    photo = fanned([anglo[n] for n in names], seed=4)
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    without = reader_sure_of_no_corner_at_first_look(tmp_path / "without", second=1.01)
    assert [d.card for d in read_table(photo, reader=without) if d.card is not None] == []
    reader = reader_sure_of_no_corner_at_first_look(tmp_path / "with")
    named = [d.card for d in read_table(photo, reader=reader) if d.card is not None]
    assert len(named) == len(set(named)), "a card named twice"
    assert set(named) <= {parse_card(n) for n in names}
    assert len(set(named)) >= len(names) - 2


def test_no_second_look_is_taken_inside_a_card_found_whole_but_unread(anglo, tmp_path):
    """A blurred card found whole and not read offers a near miss at every pip and index:
    within it a corner is named at a first look only."""
    names = ("2C", "7D", "9S", "TH", "AS", "5H", "KS", "QH", "JD")
    photo = fanned([anglo[n] for n in names], seed=4)
    reader = reader_sure_of_no_corner_at_first_look(tmp_path)
    h, w = photo.shape[:2]
    everywhere = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    assert find_index_corners(photo, reader=reader) != []
    assert find_index_corners(photo, reader=reader, unread=[everywhere]) == []
