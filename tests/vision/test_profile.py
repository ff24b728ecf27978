"""Deck profiles: one sorted deck teaches the reader a design it could not read before."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scanner.cards import BRIDGE_52, PINOCHLE_48, Card, Rank, Suit, parse_card
from scanner.cli import main
from scanner.vision.glyphs import MatchThresholds
from scanner.vision.index import SUIT_INKS, read_corners
from scanner.vision.profile import (
    ProfileError,
    _sorted_glyphs,
    learn,
    learn_order,
    load_profile,
)
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
    assert summary["learnt_from_the_others"] == []  # every card showed its index
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


@pytest.fixture(scope="module")
def nordic_pass():
    return rectified(learn_order(BRIDGE_52))


def test_a_card_with_no_index_to_cut_is_learnt_from_the_deck_s_other_cards(nordic_pass):
    cards = list(nordic_pass)
    cards[0] = np.full_like(cards[0], 235)  # the ace of spades, its index lost to glare
    profile = learn(cards, BRIDGE_52)
    assert profile.uncut == (parse_card("AS"),)
    frame = render.render_station_frame(parse_card("AS"), STYLE, seed=41)
    assert read_station(frame, profile).card == parse_card("AS")


def test_a_pass_with_many_cards_showing_no_index_is_refused_naming_them(nordic_pass):
    cards = [np.full_like(c, 235) if i % 3 == 0 else c for i, c in enumerate(nordic_pass)]
    with pytest.raises(ProfileError, match=r"18 cards .*card 1 \(AS\).*check focus and light"):
        learn(cards, BRIDGE_52)


def test_a_rank_with_no_index_cut_anywhere_is_refused_by_name(nordic_pass):
    cards = [np.full_like(c, 235) if card.rank is Rank.Q else c
             for c, card in zip(nordic_pass, learn_order(BRIDGE_52), strict=True)]
    with pytest.raises(ProfileError, match="no index with rank Q"):
        learn(cards, BRIDGE_52)


TRUST = MatchThresholds(0.87, 0.05)


def _glyphs(rng, looks):
    """Unit rank glyphs, ``looks`` of rank → one typical glyph, one per card, 4 a rank."""
    positions, cards, features = [], [], []
    for k, (rank, look) in enumerate(looks.items()):
        for i, suit in enumerate(Suit):
            glyph = look + 0.05 * rng.standard_normal(look.shape)
            positions.append(4 * k + i)
            cards.append(Card(rank, suit))
            features.append(glyph / np.linalg.norm(glyph))
    return positions, cards, np.array(features)


def test_a_glyph_like_no_rank_of_the_deck_is_dropped_not_taken_for_a_wrong_order():
    rng = np.random.default_rng(3)
    positions, cards, glyphs = _glyphs(rng, {r: rng.standard_normal(64) for r in
                                             (Rank.R4, Rank.R5, Rank.R6)})
    glyphs[5] = rng.standard_normal(64)  # the 5 of hearts cut together with a pip
    glyphs[5] /= np.linalg.norm(glyphs[5])
    assert _sorted_glyphs(positions, cards, glyphs, TRUST) == [i for i in range(12) if i != 5]


def test_a_glyph_between_two_ranks_is_dropped_not_taken_for_a_wrong_order():
    rng = np.random.default_rng(6)
    four = rng.standard_normal(64)
    five = four + 0.5 * rng.standard_normal(64)  # alike, as a 4 and a 5 never are this much
    positions, cards, glyphs = _glyphs(rng, {Rank.R4: four, Rank.R5: five,
                                             Rank.R6: rng.standard_normal(64)})
    between = glyphs[0] + glyphs[4] * 1.1  # a blurred 4 of spades, a shade nearer the 5s
    glyphs[0] = between / np.linalg.norm(between)
    assert _sorted_glyphs(positions, cards, glyphs, TRUST) == list(range(1, 12))


def test_two_ranks_the_learner_cannot_tell_apart_are_refused_as_look_alikes():
    rng = np.random.default_rng(4)
    six = rng.standard_normal(64)
    positions, cards, glyphs = _glyphs(rng, {Rank.R6: six, Rank.R9: six,
                                             Rank.R4: rng.standard_normal(64)})
    with pytest.raises(ProfileError, match="look alike"):
        _sorted_glyphs(positions, cards, glyphs, TRUST)


def test_a_card_out_of_place_is_unlike_every_card_of_its_stated_rank():
    rng = np.random.default_rng(5)
    looks = {r: rng.standard_normal(64) for r in (Rank.R4, Rank.R5, Rank.R6)}
    positions, cards, glyphs = _glyphs(rng, looks)
    glyphs[[1, 5]] = glyphs[[5, 1]]  # the 4 and the 5 of hearts swapped in the pass
    with pytest.raises(ProfileError, match=r"card 2 of the deck .* more like the deck's 5s"):
        _sorted_glyphs(positions, cards, glyphs, TRUST)


def _blue(card):
    """The card reprinted with its ink in blue, as a four-colour deck prints spades."""
    dark = 1 - card.min(axis=2, keepdims=True).astype(np.float32) / 255
    return (255 - dark * np.array([60, 190, 255], np.float32)).astype(np.uint8)


def test_a_profile_learns_the_ink_its_deck_prints_each_suit_in(nordic_pass, tmp_path):
    order = learn_order(BRIDGE_52)
    cards = [_blue(c) if card.suit is Suit.S else c
             for c, card in zip(nordic_pass, order, strict=True)]
    assert "blue" not in SUIT_INKS[Suit.S]
    assert {c.suit_ink for c in read_corners(cards[6])} == {"blue"}  # the 8 of spades
    profile = learn(cards, BRIDGE_52)
    assert "blue" in profile.inks[Suit.S] and profile.inks[Suit.H] == SUIT_INKS[Suit.H]
    path = tmp_path / "four-colour.npz"
    profile.save(path)
    loaded = load_profile(path)
    assert loaded.inks == profile.inks
    frame = render.render_station_frame(parse_card("8S"), STYLE, seed=43)
    [seen] = rectified([parse_card("8S")], seed=43)
    assert loaded.read(_blue(seen), None)[0] == parse_card("8S")
    assert read_station(frame, loaded).card == parse_card("8S")


def test_a_profile_file_of_the_first_format_reads_with_the_usual_inks(nordic_profile, tmp_path):
    path = tmp_path / "old.npz"
    labels = nordic_profile.model.template_labels()
    learnt = [i for i, label in enumerate(labels) if label.startswith(("rank:", "suit:"))]
    np.savez_compressed(path, format=np.array(1), deck=np.array("bridge-52"),
                        features=nordic_profile.model.features[learnt].astype(np.float16),
                        labels=np.array([labels[i] for i in learnt]))
    assert dict(load_profile(path).inks) == SUIT_INKS


def test_a_profile_file_with_an_unknown_ink_is_refused_naming_it(nordic_profile, tmp_path):
    path = tmp_path / "inks.npz"
    nordic_profile.save(path)
    with np.load(path) as data:
        fields = dict(data)
    fields["inks"] = np.array(["S:neutral", "S:plaid"])
    np.savez_compressed(path, **fields)
    with pytest.raises(ProfileError, match=r"inks\.npz: inks \['S:plaid'\]"):
        load_profile(path)
