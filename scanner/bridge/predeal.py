"""Pre-dealing a duplicate set through the shoe (Law 6E, Law 6F): every copy of every board.

For each board and copy the operator puts a shuffled deck in the hopper; the shoe feeds each
card to its read station, the camera reads it and the card goes to the pocket the set file
says, whatever order the deck is in (``TargetDeal``). The dealing loop itself is the shoe's
(``scanner.shoe.dealing.ShoeDeal``): it logs every read and delivery before acting and stops
rather than guesses — an unreadable card, a duplicate read, a card from another deck, a card
the board does not hold, a miscount at the pockets.

Each copy is a deal keyed by the board's deal, its number and the copy, so a run that was
killed or unplugged is picked up from the log alone: finished copies are skipped, the copy in
hand resumes at the exact card, and nothing is dealt or logged twice — whichever --boards
the next run names, and however many --copies (asking for more copies later deals only the
new ones). Every finished copy is
recorded in the deal history under the session (Law 6D2), and a board already played in
another session is flagged before it is dealt.

Blind mode keeps the hands from the operator: no result, prompt or log line names a card.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..cards import BRIDGE_52, SEATS
from ..events import AuditResult, BoardResult, BoardStarted, HandStarted
from ..history import DealHistory
from ..log import EventLog
from ..shoe.cameras import CameraError
from ..shoe.control import ControlChannelError
from ..shoe.deal_plan import TargetDeal
from ..shoe.dealing import DEAL_KEY_PREFIX, DealOutcome, DeckCheckLike, ShoeDeal
from ..shoe.driver import Shoe
from ..shoe.virtual_camera import StationCamera
from ..vision.reading import Reading
from .board import Board
from .repeats import record, repeat_flag
from .set_audit import audit_event

RULE_COPIES = "Law 6F"
KEY_PREFIX = "predeal:"
# A station camera that cannot give a frame: a real one unplugged, a simulator gone.
CAMERA_ERRORS = (CameraError, ControlChannelError)

DEALT = "dealt"
STOPPED = "stopped"
REFUSED = "refused"
RULE_HISTORY = "Law 6D2"

# What a stop says in blind mode, by the loop's reason: the same instruction without the card's
# name or the pocket it was meant for, since either would show part of a hand.
BLIND_STOPS: dict[str, str] = {
    "duplicate": "a card already dealt in this deck was read again: take it out of the read "
                 "station and call the director",
    "foreign": "a card that does not belong to this deck: take it out of the read station and "
               "call the director",
    "not-in-plan": "a card this board does not hold (another deck, or read twice): take it out "
                   "of the read station and check the deck",
    "misrouted": "a card fell into the wrong pocket: call the director before anyone picks up "
                 "a hand",
    "count-mismatch": "the pockets' counts differ from the log: count the pockets by hand",
}


@dataclass(frozen=True)
class Step:
    """One copy of one board: the unit the operator loads a deck for."""

    board: Board
    copy: int
    copies: int
    position: int
    total: int

    def describe(self) -> str:
        return (f"board {self.board.number}, copy {self.copy} of {self.copies} "
                f"({self.position} of {self.total})")


def board_identity(board: Board) -> str:
    """A short digest of a board's number and deal: the same board of the same set always
    resumes the same copies, and another deal never can."""
    owners = "".join(seat.value for seat in board.owners())
    return hashlib.sha256(f"{board.number}:{owners}".encode()).hexdigest()[:16]


def steps_for(boards: Sequence[Board], copies: int) -> list[Step]:
    """Every copy of every board, board by board (copies of one board in a row, as a club
    duplicates them)."""
    if copies < 1:
        raise ValueError(f"--copies must be 1 or more, not {copies}")
    total = len(boards) * copies
    return [Step(board, copy, copies, i * copies + copy, total)
            for i, board in enumerate(boards) for copy in range(1, copies + 1)]


class Operator(Protocol):
    """The person (or the hook standing in for one) at the shoe."""

    def load_deck(self, step: Step) -> None:
        """Return once the next shuffled deck is in the hopper and the pockets are empty."""

    def resumed(self, step: Step, at_card: int) -> None:
        """The log holds ``at_card`` cards of ``step`` already: dealing goes on from there."""

    def progress(self, step: Step, cards_done: int) -> None:
        """``cards_done`` cards of ``step`` are in their pockets (0 when the copy starts)."""


@dataclass
class CopyOutcome:
    """What became of one copy: the JSON line the command prints for it."""

    step: Step
    status: str
    deal: DealOutcome | None = None
    resumed_at: int | None = None
    history: dict[str, Any] | None = None
    skipped: bool = False

    def to_dict(self, blind: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"board": self.step.board.number, "copy": self.step.copy,
                               "status": self.status, "rule": RULE_COPIES}
        if self.skipped:
            out["note"] = "already dealt in this log"
        if self.resumed_at is not None:
            out["resumed_at_card"] = self.resumed_at + 1
        if self.history:
            out["history"] = self.history
        if self.status == REFUSED:
            out.update(rule=RULE_HISTORY, prompt=f"board {self.step.board.number}: "
                       f"{self.history['reason'] if self.history else ''}: {REFUSAL_REMEDY}")
        if self.deal is not None:
            out["cards_dealt"] = self.deal.position
            out["retransmits"] = self.deal.retransmits
            if self.status == STOPPED:
                out.update(reason=self.deal.reason, prompt=stop_prompt(self.deal, blind),
                           resumable=self.deal.resumable, machine=self.deal.machine)
            if not blind:
                out["pockets"] = self.deal.pockets
        return out


def stop_prompt(deal: DealOutcome, blind: bool) -> str:
    """The stop as the operator reads it; in blind mode without any card's name."""
    if blind and deal.reason in BLIND_STOPS:
        return f"card {deal.position + 1} of {BRIDGE_52.size}: {BLIND_STOPS[deal.reason]}"
    return deal.prompt


@dataclass
class Predeal:
    """Deals ``steps`` through one shoe into the log; ``run`` stops at the first stopped copy."""

    shoe: Shoe
    camera: StationCamera
    log: EventLog
    operator: Operator
    deck_check_factory: Callable[[], DeckCheckLike]
    boards: Sequence[Board]
    copies: int = 1
    blind: bool = True
    allow_repeats: bool = False

    def __post_init__(self) -> None:
        self.history = DealHistory(self.log)

    def _token(self, step: Step) -> str:
        return f"{KEY_PREFIX}{board_identity(step.board)}:{step.copy}"

    def run(self, on_outcome: Callable[[CopyOutcome], None]) -> list[CopyOutcome]:
        outcomes = []
        for step in steps_for(self.boards, self.copies):
            outcome = self.deal_copy(step)
            outcomes.append(outcome)
            on_outcome(outcome)
            if outcome.status != DEALT:
                break
        return outcomes

    def log_audit(self) -> AuditResult:
        """The set's shuffle audit, logged once per set for the page (Law 6E4)."""
        event = audit_event(self.boards)
        digest = hashlib.sha256("".join(sorted(map(board_identity, self.boards))).encode())
        self.log.append(event, key=f"{KEY_PREFIX}audit:{digest.hexdigest()[:16]}")
        return event

    def deal_copy(self, step: Step) -> CopyOutcome:
        """Deal one copy, or resume it at the exact card, or skip it when the log says it is
        done. A copy whose last card was placed but whose result is not logged yet is run
        once more: the loop then only checks the pockets' counts against the log."""
        token = self._token(step)
        flag = repeat_flag(self.history, step.board, self.log.session)
        if self.log.seq_of(f"{token}:result") is not None:
            return CopyOutcome(step, DEALT, history=flag, skipped=True)
        deal = self._shoe_deal(step)
        started = self.log.seq_of(DEAL_KEY_PREFIX + token)
        if started is None and _played_elsewhere(flag) and not self.allow_repeats:
            return self._refuse(step, token, flag)
        resumed_at = None
        if started is None:
            self.operator.load_deck(step)
            self._log_start(step, token)
            deal.start(token)
        else:
            deal.resume_from(started)
            resumed_at = len(deal.delivered)
            self.operator.resumed(step, resumed_at)
        self.operator.progress(step, len(deal.delivered))
        try:
            result = deal.run()
        except CAMERA_ERRORS as exc:
            result = self._camera_stop(deal, exc)
        self.operator.progress(step, len(deal.delivered))
        outcome = self._finish(step, token, result, flag)
        outcome.resumed_at = resumed_at
        return outcome

    def _shoe_deal(self, step: Step) -> ShoeDeal:
        hands = dict(zip(SEATS, step.board.complete_hands(), strict=True))
        hand = HandStarted("bridge", step.board.dealer, 1, session=self.log.session)
        camera = _CountingCamera(self.camera, lambda n: self.operator.progress(step, n))
        deal = ShoeDeal(self.shoe, camera, TargetDeal(hands, BRIDGE_52), self.log,
                        self.deck_check_factory, hand)
        camera.deal = deal
        return deal

    def _camera_stop(self, deal: ShoeDeal, exc: Exception) -> DealOutcome:
        """The camera failed (unplugged, no frame): nothing was read, so nothing is guessed;
        the card waits at the station and the same command resumes there."""
        pockets: dict[str, list[str]] = {seat.value: [] for seat in SEATS}
        for card, seat in deal.delivered:
            pockets[seat.value].append(str(card))
        position = len(deal.delivered)
        return DealOutcome(STOPPED, pockets, "camera",
                          f"card {position + 1}: the camera failed ({exc}): check it, then run "
                          "the same command again", position, self.shoe.retransmits, True,
                          self.shoe.machine.describe(), deal.deal_key)

    def _log_start(self, step: Step, token: str) -> None:
        self.log.append(BoardStarted(step.board.number, "deal", step.copy, step.position,
                                     step.total), key=f"{token}:started")

    def _refuse(self, step: Step, token: str, flag: dict[str, Any]) -> CopyOutcome:
        """Law 6D2: no result may stand for a deal played in another session, so dealing it
        again is wasted work at best; the director decides (``allow_repeats``)."""
        self.log.append(BoardResult(step.board.number, REFUSED, "deal", step.copy, RULE_HISTORY,
                                    detail=flag["reason"], remedy=REFUSAL_REMEDY,
                                    history=flag_text(flag)), key=f"{token}:refused")
        return CopyOutcome(step, REFUSED, history=flag)

    def _finish(self, step: Step, token: str, result: DealOutcome,
                flag: dict[str, Any] | None) -> CopyOutcome:
        history = flag_text(flag)
        if result.status == "complete":
            record(self.history, step.board, self.log.session, "dealt")
            self.log.append(BoardResult(step.board.number, DEALT, "deal", step.copy,
                                        RULE_COPIES, history=history),
                            key=f"{token}:result")
            return CopyOutcome(step, DEALT, result, history=flag)
        self.log.append(BoardResult(step.board.number, STOPPED, "deal", step.copy, RULE_COPIES,
                                    detail=stop_prompt(result, self.blind), history=history),
                        key=f"{token}:stop:{result.position}:{result.reason}")
        return CopyOutcome(step, STOPPED, result, history=flag)


REFUSAL_REMEDY = ("replace this board's deal (a new set) before play, or deal it anyway with "
                  "--allow-repeat if the director so rules")


def _played_elsewhere(flag: dict[str, Any] | None) -> bool:
    return bool(flag) and flag["status"] == "no-result"


def flag_text(flag: dict[str, Any] | None) -> str:
    """A Law 6D2 flag in one line, as the log and the page carry it."""
    if not flag:
        return ""
    return f"{flag['status']} ({flag['law']}): {flag['reason']}; {flag['remedy']}"


class _CountingCamera:
    """The station camera, reporting each look as progress (the card about to be placed)."""

    def __init__(self, camera: StationCamera, report: Callable[[int], None]) -> None:
        self.source = camera.source
        self._camera = camera
        self._report = report
        self.deal: ShoeDeal | None = None

    def look(self) -> Reading:
        reading = self._camera.look()
        if self.deal is not None:
            self._report(len(self.deal.delivered))
        return reading

    def close(self) -> None:
        self._camera.close()


def run_session_for(db: Path, boards: Sequence[Board]) -> str | None:
    """The session these boards were last pre-dealt in, so a resumed run records its deals in
    the same session (another session would make the set's own deals look like repeats);
    None when the log has never dealt any of them."""
    if not db.exists():
        return None
    with EventLog(db) as log:
        seqs = [log.last_seq_with_key_prefix(f"{DEAL_KEY_PREFIX}{KEY_PREFIX}"
                                             f"{board_identity(board)}:") for board in boards]
        latest = max((seq for seq in seqs if seq is not None), default=None)
        event = log.event_at(latest) if latest is not None else None
    return event.session or None if isinstance(event, HandStarted) else None
