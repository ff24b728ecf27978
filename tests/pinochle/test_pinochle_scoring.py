"""Scoring one hand and the game (reference: "Scoring the play")."""

import pytest

from scanner.pinochle.options import OLD_COUNT, TableOptions
from scanner.pinochle.scoring import (
    ScoreError,
    Taken,
    counters_needed,
    game_winner,
    score_concession,
    score_play,
)

OPTIONS = TableOptions()


def play(bid, meld, taken, declaring="NS", options=OPTIONS):
    return score_play(declaring, bid, meld, {side: Taken(*t) for side, t in taken.items()},
                      options)


def test_modern_count_is_25_in_all():
    assert OPTIONS.counters.total == 25


def test_old_count_is_250_in_all():
    assert OLD_COUNT.total == 250


def test_declarers_make_the_bid_with_meld_plus_counters_and_score_what_they_made():
    score = play(30, {"NS": 20, "EW": 6}, {"NS": (12, 7), "EW": (13, 5)})
    assert score.outcome == "made"
    assert score.points == {"NS": 32, "EW": 19}


def test_declarers_short_of_the_bid_are_set_and_lose_the_bid():
    score = play(30, {"NS": 10, "EW": 6}, {"NS": (12, 7), "EW": (13, 5)})
    assert score.outcome == "set"
    assert score.points["NS"] == -30


def test_the_other_side_always_scores_what_it_made():
    score = play(30, {"NS": 10, "EW": 6}, {"NS": (12, 7), "EW": (13, 5)})
    assert score.points["EW"] == 19


def test_meld_is_saved_only_by_taking_a_trick():
    score = play(20, {"NS": 30, "EW": 8}, {"NS": (25, 12), "EW": (0, 0)})
    assert score.saved == {"NS": True, "EW": False}
    assert score.points["EW"] == 0


def test_a_trick_without_counters_still_saves_meld():
    score = play(20, {"NS": 30, "EW": 8}, {"NS": (25, 11), "EW": (0, 1)})
    assert score.points["EW"] == 8


def test_unsaved_declarer_meld_does_not_count_toward_the_bid():
    score = play(21, {"NS": 30, "EW": 0}, {"NS": (0, 0), "EW": (25, 12)})
    assert score.outcome == "set"


def test_counters_must_add_up_to_the_whole_count():
    with pytest.raises(ScoreError, match="add up to 24"):
        play(20, {"NS": 0, "EW": 0}, {"NS": (12, 6), "EW": (12, 6)})


def test_tricks_must_add_up_to_twelve():
    with pytest.raises(ScoreError, match="tricks add up to 11"):
        play(20, {"NS": 0, "EW": 0}, {"NS": (12, 6), "EW": (13, 5)})


def test_no_counters_without_a_trick():
    with pytest.raises(ScoreError, match="EW took 1 points in 0 tricks"):
        play(20, {"NS": 0, "EW": 0}, {"NS": (24, 12), "EW": (1, 0)})


def test_old_count_scores_in_its_own_units():
    options = TableOptions(counters=OLD_COUNT)
    score = play(300, {"NS": 200, "EW": 60}, {"NS": (130, 7), "EW": (120, 5)},
                 options=options)
    assert score.points == {"NS": 330, "EW": 180}


def test_concession_loses_the_bid_and_opponents_score_their_meld():
    score = score_concession("EW", 27, {"NS": 9, "EW": 14})
    assert score.outcome == "conceded"
    assert score.points == {"EW": -27, "NS": 9}


def test_counters_needed_is_the_bid_less_the_declaring_sides_meld():
    assert counters_needed(30, 18) == 12
    assert counters_needed(20, 35) == 0


def test_game_is_won_at_150():
    assert game_winner({"NS": 150, "EW": 149}, "EW", OPTIONS) == "NS"
    assert game_winner({"NS": 149, "EW": 10}, "NS", OPTIONS) is None


def test_both_reaching_game_on_one_hand_the_declaring_side_wins():
    assert game_winner({"NS": 160, "EW": 151}, "EW", OPTIONS) == "EW"


def test_the_game_target_is_a_table_option():
    assert game_winner({"NS": 120, "EW": 0}, "NS", TableOptions(game_target=100)) == "NS"
