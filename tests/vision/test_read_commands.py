"""`tablescan read-card` and `read-table`: the JSON the issue specifies, per-file errors."""

from __future__ import annotations

import json
import struct

import cv2
import numpy as np
import pytest

from scanner.cards import BRIDGE_52, parse_card
from scanner.cli import main
from scanner.vision.profile import learn, learn_order
from scanner.vision.synthetic.render import render_card, render_station_frame
from scanner.vision.synthetic.scene import cards_to_place, compose_scene, outline_matches

STYLE = "standard"


def write_png(path, image):
    ok, buf = cv2.imencode(".png", image)
    assert ok
    path.write_bytes(buf.tobytes())
    return str(path)


def jpeg_with_orientation(image, orientation):
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    data = buf.tobytes()
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 1) + entry + b"\x00" * 4
    payload = b"Exif\x00\x00" + tiff
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:]


def one_card_photo(card, *, seed, back=None, size=(1280, 720), height=(380, 420), style=STYLE):
    items = cards_to_place([card], style, seed=seed, backs=[back])
    return compose_scene(items, seed=seed, background="wood", size=size, card_height=height)


def run_cli(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    return code, lines, captured.err


def test_read_card_reads_a_station_frame(tmp_path, capsys):
    card = parse_card("9H")
    path = write_png(tmp_path / "station.png", render_station_frame(card, STYLE, seed=3))
    code, [out], _ = run_cli(capsys, "read-card", path)
    assert code == 0
    assert out == {"file": path, "face": "up", "card": "9H", "confidence": out["confidence"]}
    assert 0.5 <= out["confidence"] <= 1


def test_read_card_reads_one_card_lying_on_a_table_at_a_rotation(tmp_path, capsys):
    scene = one_card_photo(parse_card("7C"), seed=4)
    path = write_png(tmp_path / "table.png", scene.image)
    code, [out], _ = run_cli(capsys, "read-card", path)
    assert (code, out["face"], out["card"]) == (0, "up", "7C")


def test_read_card_says_down_for_a_back(tmp_path, capsys):
    scene = one_card_photo(parse_card("7C"), seed=5, back="lattice-blue")
    path = write_png(tmp_path / "back.png", scene.image)
    _, [out], _ = run_cli(capsys, "read-card", path)
    assert (out["face"], out["card"]) == ("down", None)


def test_read_card_says_none_for_an_empty_station_window(tmp_path, capsys):
    path = write_png(tmp_path / "empty.png", render_station_frame(None, STYLE, seed=6, empty=True))
    _, [out], _ = run_cli(capsys, "read-card", path)
    assert (out["face"], out["card"]) == ("none", None)


def test_read_card_says_none_for_a_photo_of_an_empty_table(tmp_path, capsys):
    path = write_png(tmp_path / "table.png", compose_scene([], seed=12, background="wood").image)
    _, [out], _ = run_cli(capsys, "read-card", path)
    assert (out["face"], out["card"]) == ("none", None)


def test_read_card_names_no_card_for_a_joker(tmp_path, capsys):
    scene = one_card_photo(None, seed=7)
    path = write_png(tmp_path / "joker.png", scene.image)
    _, [out], _ = run_cli(capsys, "read-card", path)
    assert out["card"] is None


def test_read_card_names_a_french_jack_only_when_told_the_letters_are_french(tmp_path, capsys):
    scene = one_card_photo(parse_card("JH"), seed=14, style="paris")  # a V in the corners
    path = write_png(tmp_path / "valet.png", scene.image)
    _, [unsure], _ = run_cli(capsys, "read-card", path)
    _, [french], _ = run_cli(capsys, "read-card", "--letters", "french", path)
    assert (unsure["face"], unsure["card"]) == ("up", None)
    assert (french["face"], french["card"]) == ("up", "JH")


def test_read_table_passes_the_letter_set_to_the_reader(tmp_path, capsys):
    cards = [parse_card(t) for t in ("JS", "QD")]  # V and D in a French deck
    scene = compose_scene(cards_to_place(cards, "paris", seed=15), seed=15, background="wood",
                          card_height=(300, 340))
    path = write_png(tmp_path / "french.png", scene.image)
    _, [out], _ = run_cli(capsys, "read-table", "--letters", "french", path)
    assert sorted(c["card"] for c in out["cards"]) == ["JS", "QD"]


def test_read_card_reads_a_twelve_megapixel_photo(tmp_path, capsys):
    scene = one_card_photo(parse_card("9H"), seed=8, size=(4000, 3000), height=(1100, 1300))
    path = tmp_path / "big.jpg"
    path.write_bytes(cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1])
    _, [out], _ = run_cli(capsys, "read-card", str(path))
    assert (out["face"], out["card"]) == ("up", "9H")


def test_bad_files_get_their_own_error_and_the_batch_goes_on(tmp_path, capsys):
    good = write_png(tmp_path / "good.png", render_station_frame(parse_card("9H"), STYLE, seed=3))
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.png"
    text.write_text("not pixels")
    truncated = tmp_path / "cut.png"
    truncated.write_bytes((tmp_path / "good.png").read_bytes()[:500])
    missing = tmp_path / "missing.jpg"
    paths = [str(empty), str(text), good, str(truncated), str(missing)]
    code, lines, err = run_cli(capsys, "read-card", *paths)
    assert code == 0
    assert [line["file"] for line in lines] == paths
    errors = {line["file"]: line.get("error") for line in lines}
    assert "empty" in errors[str(empty)]
    assert "not an image" in errors[str(text)]
    assert "truncated" in errors[str(truncated)]
    assert "no such file" in errors[str(missing)]
    assert errors[good] is None and lines[2]["card"] == "9H"
    assert "cut.png" in err


def test_exit_code_is_2_only_when_no_file_could_be_read(tmp_path, capsys):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    code, lines, err = run_cli(capsys, "read-card", str(empty), str(tmp_path / "gone.png"))
    assert code == 2
    assert len(lines) == 2 and all("error" in line for line in lines)
    assert "no image could be read" in err


def test_read_table_prints_face_card_confidence_and_a_four_point_outline(tmp_path, capsys):
    cards = [parse_card(t) for t in ("9H", "7C", "KD")]
    items = cards_to_place(cards, STYLE, seed=9, backs=[None, None, "dots-green"])
    scene = compose_scene(items, seed=9, background="cloth", card_height=(300, 340))
    path = write_png(tmp_path / "table.png", scene.image)
    code, [out], _ = run_cli(capsys, "read-table", path)
    assert code == 0 and set(out) == {"file", "cards"}
    assert len(out["cards"]) == 3
    for found in out["cards"]:
        assert set(found) == {"face", "card", "confidence", "outline", "seen"}
        assert len(found["outline"]) == 4 and all(len(p) == 2 for p in found["outline"])
    faces = sorted((c["face"], c["card"] or "") for c in out["cards"])
    assert faces == [("down", ""), ("up", "7C"), ("up", "9H")]


def test_read_table_outlines_follow_the_exif_orientation(tmp_path, capsys):
    cards = [parse_card(t) for t in ("9H", "7C")]
    scene = compose_scene(cards_to_place(cards, STYLE, seed=10), seed=10, background="plain",
                          card_height=(300, 340))
    # The camera stored its pixels turned 90° anticlockwise and says so in EXIF (tag 6).
    stored = cv2.rotate(scene.image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    path = tmp_path / "phone.jpg"
    path.write_bytes(jpeg_with_orientation(stored, 6))
    _, [out], _ = run_cli(capsys, "read-table", str(path))
    outlines = [np.array(c["outline"], np.float32) for c in out["cards"]]
    for truth in scene.cards:
        assert any(outline_matches(o, truth.outline) for o in outlines)
    assert sorted(c["card"] for c in out["cards"]) == ["7C", "9H"]


@pytest.mark.parametrize("background", ["plain", "wood", "cloth", "cluttered"])
def test_read_table_finds_nothing_on_an_empty_table(tmp_path, capsys, background):
    scene = compose_scene([], seed=11, background=background)
    path = write_png(tmp_path / "empty.png", scene.image)
    _, [out], _ = run_cli(capsys, "read-table", path)
    assert out["cards"] == []


def test_a_learnt_profile_reads_table_cards_of_a_design_the_defaults_cannot(tmp_path, capsys):
    style = "nordic"  # Danish letters in a script font: the shipped model abstains on it
    profile = learn([render_card(card, style, seed=i)
                     for i, card in enumerate(learn_order(BRIDGE_52))], BRIDGE_52)
    profile_path = tmp_path / "nordic.npz"
    profile.save(profile_path)
    cards = [parse_card(t) for t in ("AS", "KH", "QD")]
    scene = compose_scene(cards_to_place(cards, style, seed=13), seed=13, background="cloth",
                          card_height=(300, 340))
    path = write_png(tmp_path / "nordic.png", scene.image)
    _, [plain], _ = run_cli(capsys, "read-table", path)
    _, [learnt], _ = run_cli(capsys, "read-table", "--profile", str(profile_path), path)
    assert sorted(c["card"] for c in learnt["cards"]) == ["AS", "KH", "QD"]
    assert sorted(str(c["card"]) for c in plain["cards"]) != ["AS", "KH", "QD"]


def test_a_missing_profile_is_unusable_input(tmp_path, capsys):
    image = write_png(tmp_path / "s.png", render_station_frame(parse_card("9H"), STYLE, seed=3))
    code, lines, err = run_cli(capsys, "read-card", "--profile", str(tmp_path / "no.npz"), image)
    assert code == 2 and lines == []
    assert "no.npz" in err
