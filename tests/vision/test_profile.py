"""Deck profiles: one sorted deck teaches the reader a design it could not read before."""

from __future__ import annotations

import json

import pytest

from scanner.cards import BRIDGE_52, PINOCHLE_48, Rank, parse_card
from scanner.cli import main
from scanner.vision.profile import ProfileError, learn, learn_order, load_profile
from scanner.vision.station import card_passes, read_station, station_card
from scanner.vision.synthetic import render
from scanner.vision.synthetic.camera import RenderedCamera

STYLE = "nordic"  # Danish letters (E for the ace) in a script font: unknown to the defaults


def rectified(cards, style=STYLE, seed=0):
    cam = RenderedCamera(cards, style, seed=seed, frames_per_card=1)
    return list(card_passes(cam.frames(), cam.one_card_per_frame))


@pytest.fixture(scope="module")
def nordic_profile():
    return learn(rectified(learn_order(BRIDGE_52)), BRIDGE_52)


def test_a_learnt_profile_reads_a_style_the_defaults_do_not(nordic_profile):
    defaults_right = profile_right = 0
    for i, card in enumerate(BRIDGE_52.cards()):
        frame = render.render_station_frame(card, STYLE, seed=5000 + i,
                                            perturb={"noise": 0.4, "rotation": 0.5})
        defaults = read_station(frame)
        learnt = read_station(frame, nordic_profile)
        assert defaults.card in (None, card), "the defaults guessed instead of abstaining"
        defaults_right += defaults.card == card
        profile_right += learnt.card == card
    assert profile_right == 52
    assert defaults_right <= 48  # at least every ace (E) is beyond the defaults


def test_the_learn_order_is_the_sorted_deck():
    assert [str(c) for c in learn_order(BRIDGE_52)[:3]] == ["AS", "KS", "QS"]
    assert [str(c) for c in learn_order(PINOCHLE_48)[:4]] == ["AS", "AS", "TS", "TS"]


def test_a_deck_out_of_order_is_refused_naming_the_card():
    order = learn_order(BRIDGE_52)
    order[4], order[9] = order[9], order[4]  # the ten and the five of spades swapped
    with pytest.raises(ProfileError, match=r"card (5|10) of the deck"):
        learn(rectified(order), BRIDGE_52)


def test_a_deck_with_a_card_missing_is_refused_with_the_count():
    with pytest.raises(ProfileError, match="saw 51 cards"):
        learn(rectified(learn_order(BRIDGE_52)[:51]), BRIDGE_52)


def test_a_profile_survives_a_round_trip_through_its_file(nordic_profile, tmp_path):
    path = tmp_path / "nordic.npz"
    nordic_profile.save(path)
    loaded = load_profile(path)
    assert loaded.deck == "bridge-52"
    frame = render.render_station_frame(parse_card("AH"), STYLE, seed=77)
    assert read_station(frame, loaded).card == parse_card("AH")
    assert path.stat().st_size < 1_000_000


def test_a_file_that_is_no_profile_is_refused_naming_it(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ProfileError, match=r"bad\.npz"):
        load_profile(bad)
    with pytest.raises(ProfileError, match="no such file"):
        load_profile(tmp_path / "absent.npz")


def test_learn_cli_writes_a_profile_from_the_virtual_camera(tmp_path, capsys):
    out = tmp_path / "nordic.npz"
    assert main(["learn", "--source", f"virtual:{STYLE}:pinochle", "--deck", "pinochle",
                 str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["cards"] == 48 and summary["deck"] == "pinochle-48"
    profile = load_profile(out)
    frame = render.render_station_frame(parse_card("AD"), STYLE, seed=9)
    assert read_station(frame, profile).card == parse_card("AD")
    assert station_card(frame) is not None


def test_learn_cli_exits_2_naming_a_bad_source(tmp_path, capsys):
    assert main(["learn", "--source", str(tmp_path / "none"), "--deck", "bridge",
                 str(tmp_path / "p.npz")]) == 2
    assert "--source" in capsys.readouterr().err


def test_learn_cli_exits_2_when_the_deck_does_not_match(tmp_path, capsys):
    assert main(["learn", "--source", f"virtual:{STYLE}:pinochle", "--deck", "bridge",
                 str(tmp_path / "p.npz")]) == 2
    assert "saw 48 cards" in capsys.readouterr().err


def test_a_profile_reads_ranks_the_deck_holds(nordic_profile):
    ranks = {label for label in nordic_profile.model.labels if label.startswith("rank:")}
    assert ranks == {f"rank:{r.value}" for r in Rank}
