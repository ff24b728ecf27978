"""`tablescan serve --dealing hand` with both cameras at once, end to end: the reading shoe names
each card as it is drawn, the camera over the table counts where each lands, and the page
rules on the one deal the two make together (pinochle Setup & Deal)."""

from __future__ import annotations

import json
import time
import urllib.request
from dataclasses import replace

from scanner.app.browser import running_server
from scanner.cards import Seat
from scanner.events import CardDelivered, CardRead
from scanner.handdeal import footage
from scanner.log import EventLog
from scanner.pinochle.deal_rules import THE_DEAL

SEED = 7
MISDEALT = 16  # the 17th card, in South's second packet, goes to East instead


def state_of(url: str) -> dict:
    with urllib.request.urlopen(url + "state", timeout=10) as response:
        return json.load(response)["state"]


def wait_for_state(url: str, done, timeout: float = 300.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = state_of(url)
        if done(state):
            return state
        assert time.monotonic() < deadline, f"timed out; the page shows {state}"
        time.sleep(0.5)


def test_the_shoes_reads_and_the_tables_counts_meet_in_one_deal_ruled_a_redeal(tmp_path):
    right = footage.right_deal("pinochle", Seat.N, SEED)
    script = footage.with_draw(right, MISDEALT, replace(right.draws[MISDEALT], to=Seat.E))
    films = footage.render_deal(script, tmp_path / "film", seed=SEED)
    with running_server(tmp_path, "--dealing", "hand", "--dealer", "N",
                        "--station", str(films.station), "--table", str(films.table),
                        "--zones", str(films.zones)) as server:
        state = wait_for_state(server.url, lambda s: s.get("dealt") == 48)
    # The table camera's counts: the card given to East is counted where it lies.
    assert {s["seat"]: s["count"] for s in state["seats"]} == {"N": 12, "E": 13, "S": 11,
                                                              "W": 12}
    assert (state["verdict"]["status"], state["verdict"]["rule"]) == (
        "redeal-same-dealer", THE_DEAL)
    # The reading shoe's reads: every card delivered is the card the shoe named, in the order
    # drawn, and each seat holds what the film dealt it.
    with EventLog(server.db) as log:
        events = [e for _, e in log.replay()]
    reads = [e.card for e in events if isinstance(e, CardRead)]
    delivered = [e for e in events if isinstance(e, CardDelivered)]
    assert reads == [c for d in script.draws for c in d.cards]
    assert [e.card for e in delivered] == reads
    hands = {seat: sorted(str(e.card) for e in delivered if e.to == seat) for seat in Seat}
    assert hands == {Seat(s): sorted(h) for s, h in films.truth["hands"].items()}
    assert str(script.draws[MISDEALT].cards[0]) in hands[Seat.E]
