"""Exposures and meld read from the table camera on real deck art (Debian's anglo design,
rasterised at test time: real card art, not a photograph; see ``real_deck``).

Meld is laid in a row, each card over the last so that only the index corners show; the
table reader names each card once by its corner, pinochle's two copies of a card twice. The
meld is then checked against what that player was dealt: a card not dealt to that player is
a verdict for the director (pinochle Setup & Deal).
"""

from __future__ import annotations

import random

import pytest
from real_deck import MELD_AT, NEEDS_DECK, SIDE_AT, RealDeck, empty_table, filmed, table_zones

from scanner.cards import PINOCHLE_48, Seat, parse_card
from scanner.events import HandStarted
from scanner.handdeal.arrivals import ZoneWatch
from scanner.handdeal.deal import HandDeal
from scanner.handdeal.passes import CardPass
from scanner.log import EventLog
from scanner.pinochle.deal_rules import THE_DEAL
from scanner.verdicts import DIRECTOR

pytestmark = NEEDS_DECK

DOUBLE_PINOCHLE = ["QS", "JD", "KS", "QS", "JD"]  # a double pinochle, with the king of spades


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> RealDeck:
    return RealDeck(tmp_path_factory.mktemp("anglo"))


def arrivals(frames, meld: bool = False):
    watch = ZoneWatch(table_zones(), copies=2)
    watch.meld = meld
    return [arrival for frame in frames for arrival in watch.feed(frame)]


def meld_laid(deck: RealDeck, seat: Seat, names: list[str], seed: int):
    """The table empty, then the row of meld laid down in ``seat``'s zone."""
    table = empty_table(seed)
    frames = filmed([(table, 3), (deck.row(table, names, MELD_AT[seat]), 4)], seed)
    return arrivals(frames, meld=True)


def test_meld_overlapped_in_a_row_is_read_each_card_once_and_pinochles_twin_twice(deck):
    [arrival] = meld_laid(deck, Seat.S, DOUBLE_PINOCHLE, seed=1)
    assert arrival.seat is Seat.S
    assert sorted(map(str, arrival.faces)) == sorted(DOUBLE_PINOCHLE)


def test_a_real_card_landing_face_up_in_a_zone_is_read(deck):
    table = empty_table(2)
    landed = deck.lay(table, "AH", SIDE_AT[Seat.W], degrees=90)
    [arrival] = arrivals(filmed([(table, 3), (landed, 4)], seed=2))
    assert (arrival.seat, arrival.faces) == (Seat.W, (parse_card("AH"),))


def dealt_so(log, south: list[str]) -> HandDeal:
    """A pinochle deal by North through the reading shoe in which South is dealt ``south``
    among its twelve."""
    rest = PINOCHLE_48.cards()
    for name in south:
        rest.remove(parse_card(name))
    random.Random(5).shuffle(rest)
    order = [s for _ in range(4) for s in Seat.N.left.clockwise_from() for _ in range(3)]
    wanted = iter(parse_card(n) for n in south)
    others = iter(rest)
    hand = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session))
    hand.start()
    for seat in order:
        card = next(wanted, None) if seat is Seat.S else None
        hand.on_pass(CardPass("up", card or next(others), 1.0, (), 0, 0))
    hand.end_of_bidding()
    return hand


def test_meld_read_from_the_table_matches_the_dealt_hand_and_is_scored(deck, tmp_path):
    [arrival] = meld_laid(deck, Seat.S, DOUBLE_PINOCHLE, seed=3)
    with EventLog(tmp_path / "log.db") as log:
        hand = dealt_so(log, DOUBLE_PINOCHLE)
        hand.on_arrival(arrival.seat, arrival.faces)
        result = hand.result()
    assert (result["status"], result["rule"]) == ("ok", THE_DEAL)
    [meld] = result["meld"]
    assert (meld["seat"], sorted(meld["cards"]), meld["not_dealt"]) == (
        "S", sorted(DOUBLE_PINOCHLE), [])
    assert meld["points"] >= 30 and meld["tally"] >= meld["points"]  # double pinochle: 30


def test_a_meld_card_not_dealt_to_that_player_is_a_verdict_for_the_director(deck, tmp_path):
    [arrival] = meld_laid(deck, Seat.S, DOUBLE_PINOCHLE, seed=4)
    with EventLog(tmp_path / "log.db") as log:
        hand = dealt_so(log, ["QS", "JD", "QS", "JD"])  # the king of spades went elsewhere
        hand.on_arrival(arrival.seat, arrival.faces)
        result = hand.result()
    assert (result["status"], result["rule"]) == (DIRECTOR, THE_DEAL)
    assert result["reason"] == "S shows KS in meld, not dealt to that seat"
    assert result["remedy"].startswith("call the director")
    assert result["evidence"]
