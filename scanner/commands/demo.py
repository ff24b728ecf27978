"""`tablescan demo`: a simulated pinochle table, printed for people, logged to SQLite.

The deck is shuffled with the OS's secure RNG and dealt in packets of three through the deal
tracker; scripted players bid, name trump and play the tricks out; meld, counters and the
score sheet come from the real rules. ``--expose`` turns a card face up mid-deal to show the
redeal ruling. Everything goes to the event log (``--db``, or the user's data folder), and
the table is rebuilt from the log at the end to show that the log alone is the table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..app import arguments
from ..app.terminal_demo import DemoTable
from ..cards import SUIT_NAMES, Card, Seat, Suit
from ..cli import UsageError
from ..live import LiveTable
from ..log import EventLog, LogError, new_session_name
from ..paths import default_db_path
from ..pinochle.live_game import PinochleGame
from ..pinochle.play import PLAY_ORDER, Trick
from ..pinochle.scoring import SIDES
from ..pinochle.table import HandState, TableState, fold
from ..verdicts import OK, Verdict

# A long evening's play; more is a typo, not a sitting.
MAX_HANDS = 1000
_RANK_TEXT = {rank: ("10" if rank.value == "T" else rank.value) for rank in PLAY_ORDER}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="play simulated pinochle hands through the real rules, logged to SQLite",
        description="Shuffle with the OS's secure RNG, deal in packets of three through the "
                    "deal tracker, and let scripted players bid, name trump and play; meld, "
                    "counters, rulings and the score sheet come from the real rules. Every "
                    "event is logged to SQLite.")
    parser.add_argument("--hands", type=arguments.bounded(1, MAX_HANDS), default=1,
                        help=f"hands to play, 1 to {MAX_HANDS} (default 1); the deal passes "
                             "clockwise")
    parser.add_argument("--expose", action="store_true",
                        help="a card is dealt face up in the first deal: see the redeal ruling")
    parser.add_argument("--db", type=Path,
                        help="event log file (default: tablescan.sqlite in the user's data "
                             "folder)")
    parser.add_argument("--session", help="sitting to log into (default: a new one)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    db = args.db or default_db_path()
    session = args.session or new_session_name()
    try:
        table = LiveTable(lambda: EventLog(db, session=session), PinochleGame())
    except LogError as exc:
        raise UsageError(f"--db: {exc}") from None
    say = print
    try:
        say("tablescan demo: simulated pinochle (scripted players; deck shuffled with the OS's "
            "secure RNG)")
        say(f"log: {db} (sitting {session})")
        state = DemoTable(table, TextReporter(say)).play(args.hands, args.expose)
        print_sheet(state, say)
    finally:
        table.close()
    with EventLog(db, session=session) as log:
        logged = [event for _, event in log.replay(session=session)]
    same = fold(logged).to_dict() == state.to_dict()
    say(f"\nreplayed the {len(logged)} events logged in this sitting: table rebuilt "
        f"{'identically' if same else 'DIFFERENTLY: please report this'}")
    print(f"tablescan demo: logged to {db}, sitting {session}", file=sys.stderr)
    return 0 if same else 1


def show_hand(cards: Sequence[Card]) -> str:
    """``♠ A 10 K  ♥ Q J 9 …`` in pinochle rank order."""
    parts = []
    for suit in Suit:
        ranks = sorted((c.rank for c in cards if c.suit == suit), key=PLAY_ORDER.index)
        parts.append(f"{suit.symbol} {' '.join(_RANK_TEXT[r] for r in ranks) or '-'}")
    return "  ".join(parts)


class TextReporter:
    """Prints each step of a simulated hand for the people at the table."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say

    def hand_started(self, state: TableState, deal: int) -> None:
        hand = state.hand
        again = f", deal {deal} (redeal, same dealer)" if deal > 1 else ""
        self.say(f"\n== Game {state.game}, hand {hand.number}{again}: {hand.dealer} deals, "
                 f"packets of 3 clockwise from {hand.dealer.left} ==")

    def ruling(self, verdict: Verdict, hands: dict[Seat, list[Card]]) -> None:
        if verdict.status == OK:
            self.say(f"deal: ok ({verdict.rule}: {verdict.reason})")
            for seat in Seat:
                self.say(f"  {seat}  {show_hand(hands[seat])}")
            return
        dealt = sum(len(cards) for cards in hands.values())
        self.say(f"deal stopped after {dealt} cards. RULING: {verdict.status}")
        self.say(f"  rule:     {verdict.rule}")
        self.say(f"  reason:   {verdict.reason}")
        self.say(f"  evidence: deal event(s) {', '.join(map(str, verdict.evidence))}")
        self.say(f"  remedy:   {verdict.remedy}")

    def auction_over(self, hand: HandState) -> None:
        calls = ", ".join(
            f"{c.seat} {'pass' if c.amount is None else c.amount}{' (stuck)' if c.forced else ''}"
            for c in hand.auction.calls)
        self.say(f"auction: {calls}")
        self.say(f"  {hand.declarer} declares at {hand.contract}")

    def meld_shown(self, hand: HandState) -> None:
        self.say(f"trump: {SUIT_NAMES[hand.trump]} {hand.trump.symbol}, named by {hand.declarer}")
        self.say("meld:")
        for seat in Seat:
            meld = hand.meld[seat]
            parts = "; ".join(f"{item.name} {item.points} [{' '.join(map(str, item.cards))}]"
                              for item in meld.items) or "none"
            self.say(f"  {seat} {meld.total:>3}  {parts}")
        teams = hand.team_meld
        needed = hand.to_dict()["counters_needed"]
        self.say(f"  team meld: NS {teams['NS']}, EW {teams['EW']}; "
                 f"{hand.declaring_side} need {needed} counter(s) and a trick to make "
                 f"{hand.contract}")

    def played(self, hand: HandState, tricks: Sequence[Trick]) -> None:
        won = {side: sum(1 for t in tricks if (t.winner in (Seat.N, Seat.S)) == (side == "NS"))
               for side in SIDES}
        self.say(f"play (scripted players, legal play trick by trick): NS {won['NS']} tricks, "
                 f"EW {won['EW']} tricks; last trick to {tricks[-1].winner}")

    def scored(self, state: TableState) -> None:
        score = state.hand.score
        taken = state.hand.taken
        self.say(f"counters: NS {taken['NS'].points}, EW {taken['EW'].points}")
        verdict = {"made": "made it", "set": "went SET", "conceded": "conceded"}[score.outcome]
        saved = [side for side in SIDES if not score.saved[side]]
        unsaved = f"; {', '.join(saved)} took no trick, so no meld" if saved else ""
        self.say(f"result: {score.declaring_side} bid {score.bid} and {verdict}{unsaved}: "
                 f"NS {score.points['NS']:+d}, EW {score.points['EW']:+d} -> "
                 f"NS {state.totals['NS']}, EW {state.totals['EW']}")
        if state.winner:
            self.say(f"*** {state.winner} win game {state.game} ***")
        self.say(f"next dealer: {state.next_dealer}")


def print_sheet(state: TableState, say: Callable[[str], None]) -> None:
    say("\nScore sheet")
    say(f"  {'game':>4} {'hand':>4} {'dealer':>6}  {'contract':<10} {'trump':<5} "
        f"{'result':<10} {'NS':>5} {'EW':>5}   {'total NS':>8} {'total EW':>8}")
    for row in state.sheet:
        contract = f"{row.declarer} {row.bid}" if row.declarer else "-"
        trump = row.trump.symbol if row.trump else "-"
        points = row.points or {"NS": 0, "EW": 0}
        say(f"  {row.game:>4} {row.hand:>4} {row.dealer.value:>6}  {contract:<10} {trump:<5} "
            f"{row.outcome:<10} {points['NS']:>+5} {points['EW']:>+5}   "
            f"{row.totals['NS']:>8} {row.totals['EW']:>8}")
    if state.winner:
        say(f"  game {state.game} won by {state.winner}")
