"""A set of boards being pre-dealt and verified, as a live game the table page follows.

``BridgeSetGame`` is what ``scanner.live.LiveTable`` runs for the bridge view. It folds the
log the shoe's loops write (``board-started``, cards delivered, ``board-result``,
``audit-result``, machine faults) into what the page shows: progress board by board, the
current board's pocket counts, each board's result with its evidence, history flags (Law 6D2)
and the shuffle audit. It shows counts and results, never a hand: a difference names a
card only when the verification that logged it did (a set not Sealed, or ``--reveal``).

The operator works the shoe at its console. One action comes from the page: when the shoe
waits for a deck (or a hand) and was told to take the go-ahead from the page
(``predeal --wait-for-page``), ``deck-loaded`` says the hopper is ready. Any other action, or
that one while nothing is awaited, is refused and nothing is logged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import SEATS
from ..events import (
    AuditResult,
    BoardResult,
    BoardStarted,
    CardDelivered,
    DeckLoaded,
    DeckWanted,
    Event,
    MachineFault,
)
from ..live import ActionRefused, MalformedAction
from .verify import MATCH

STOPPED = "stopped"
DEALT = "dealt"

# The banner's title for a board result that needs the director before play.
RESULT_BANNERS: dict[str, str] = {
    STOPPED: "SHOE STOPPED — the operator must act",
    "differs": "BOARD DIFFERS FROM THE RECORD",
    "rotated": "BOARD ROTATED",
    "swapped": "BOARDS SWAPPED",
    "repeat-of-previous": "SET SHIFTED BY ONE BOARD",
    "not-observed": "BOARD NOT READ",
    "refused": "BOARD NOT DEALT — ITS DEAL WAS PLAYED IN ANOTHER SESSION",
}
MODES = {"deal": "dealing", "verify": "verifying"}


@dataclass
class BoardRow:
    """One board as the page lists it: copies dealt, the latest result and its evidence."""

    board: int
    copies_dealt: int = 0
    status: str = "waiting"
    stage: str = "deal"
    rule: str = ""
    differences: list[str] = field(default_factory=list)
    remedy: str = ""
    history: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.board, "status": self.status, "stage": self.stage,
                "copies_dealt": self.copies_dealt, "rule": self.rule,
                "differences": self.differences, "remedy": self.remedy,
                "history": self.history, "ok": self.status in (DEALT, MATCH)}


@dataclass
class SetState:
    current: BoardStarted | None = None
    pockets: dict[str, int] = field(default_factory=lambda: {s.value: 0 for s in SEATS})
    rows: dict[int, BoardRow] = field(default_factory=dict)
    finished: dict[str, set[tuple[int, int]]] = field(
        default_factory=lambda: {"deal": set(), "verify": set()})
    stop: BoardResult | None = None
    fault: MachineFault | None = None
    audit: AuditResult | None = None
    latest_problem: BoardResult | None = None
    wanted: DeckWanted | None = None


def fold(events: Sequence[Event]) -> SetState:
    state = SetState()
    for event in events:
        _apply(state, event)
    return state


def _apply(state: SetState, event: Event) -> None:
    if isinstance(event, DeckWanted):
        state.wanted = event
    elif isinstance(event, DeckLoaded):
        state.wanted = None
    elif isinstance(event, BoardStarted):
        if event.stage == "deal":
            state.wanted = None  # the deal began: whatever was awaited is in the hopper
        state.current = event
        state.pockets = {s.value: 0 for s in SEATS}
        state.stop = state.fault = None
        state.rows.setdefault(event.board, BoardRow(event.board))
    elif isinstance(event, CardDelivered):
        state.pockets[event.to.value] += 1
        state.stop = state.fault = None
    elif isinstance(event, MachineFault):
        state.fault = event
    elif isinstance(event, BoardResult):
        _result(state, event)
    elif isinstance(event, AuditResult):
        state.audit = event


def _result(state: SetState, event: BoardResult) -> None:
    row = state.rows.setdefault(event.board, BoardRow(event.board))
    if event.status == STOPPED:
        state.stop = event
        return
    state.finished[event.stage].add((event.board, event.copy))
    if event.stage == "deal":
        row.copies_dealt += 1
    row.status, row.stage, row.rule, row.remedy = event.status, event.stage, event.rule, \
        event.remedy
    row.differences = event.detail.splitlines() if event.detail else []
    row.history = [event.history] if event.history else []
    if event.status not in (DEALT, MATCH) or event.history:
        state.latest_problem = event


@dataclass(frozen=True)
class BridgeSetGame:
    """The bridge view of a live table: a set dealt and verified at the shoe."""

    def initial(self) -> SetState:
        return SetState()

    def apply(self, state: SetState, event: Event) -> SetState:
        # The set's state is small and changed in place: one event costs the same at the
        # first board as at the last.
        _apply(state, event)
        return state

    def snapshot(self, state: SetState) -> dict[str, Any]:
        return set_view(state)

    def command(self, state: SetState, action: str, params: Mapping[str, Any]) -> list[Event]:
        if action != "deck-loaded":
            raise MalformedAction(f"unknown action {action!r}; known: ['deck-loaded']")
        wanted = state.wanted
        if wanted is None:
            raise ActionRefused("the shoe is not waiting for a deck: the rest is worked from "
                                "its console (tablescan predeal / verify --shoe)", "Law 6E4")
        return [DeckLoaded(wanted.board, wanted.stage, wanted.copy, wanted.seat)]


def set_view(state: SetState) -> dict[str, Any]:
    """The set as the page shows it."""
    current = state.current
    progress = None
    if current is not None:
        progress = {"board": current.board, "copy": current.copy, "stage": current.stage,
                    "position": current.position, "total": current.total,
                    "done": len(state.finished[current.stage])}
    return {
        "game": "bridge",
        "mode": _mode(state),
        "progress": progress,
        "pockets": dict(state.pockets),
        "boards": [state.rows[n].to_dict() for n in sorted(state.rows)],
        "audit": _audit(state.audit),
        "banner": _banner(state),
        "wanted": _wanted(state.wanted),
    }


def _wanted(wanted: DeckWanted | None) -> dict[str, Any] | None:
    if wanted is None:
        return None
    what = (f"a shuffled deck for board {wanted.board}, copy {wanted.copy}"
            if wanted.seat is None else f"hand {wanted.seat} of board {wanted.board}")
    return {"board": wanted.board, "stage": wanted.stage, "copy": wanted.copy,
            "seat": wanted.seat.value if wanted.seat else None,
            "text": f"the shoe waits for {what} in the hopper"}


def _mode(state: SetState) -> str:
    if state.wanted is not None:
        return "waiting for the operator"
    if state.current is None:
        return "waiting for the shoe"
    if state.stop is not None:
        return "stopped"
    stage = state.current.stage
    if len(state.finished[stage]) >= state.current.total:
        return {"deal": "dealt", "verify": "verified"}[stage]
    return MODES[stage]


def _audit(audit: AuditResult | None) -> dict[str, Any] | None:
    if audit is None:
        return None
    return {"alarm": audit.alarm, "false_alarm_rate": audit.false_alarm_rate,
            "tests": audit.tests, "rule": audit.rule, "evidence": audit.evidence,
            "remedy": audit.remedy}


def _banner(state: SetState) -> dict[str, Any] | None:
    if state.stop is not None:
        stop = state.stop
        machine = f" (machine: {state.fault.kind})" if state.fault is not None else ""
        return {"title": f"{RESULT_BANNERS[STOPPED]}: board {stop.board}, copy {stop.copy}",
                "status": STOPPED, "rule": stop.rule, "reason": stop.detail + machine,
                "remedy": "do what the console says, then run the same command again: it "
                          "resumes at this card"}
    if state.audit is not None and state.audit.alarm:
        audit = state.audit
        return {"title": "SHUFFLE AUDIT ALARM", "status": "alarm", "rule": audit.rule,
                "reason": audit.evidence, "remedy": audit.remedy}
    problem = state.latest_problem
    if problem is None:
        return None
    if problem.status in RESULT_BANNERS:
        title = f"{RESULT_BANNERS[problem.status]}: board {problem.board}"
        reason = problem.detail.replace("\n", "; ")
        return {"title": title, "status": problem.status, "rule": problem.rule,
                "reason": reason, "remedy": problem.remedy}
    return {"title": f"DEAL SEEN BEFORE: board {problem.board}", "status": "history",
            "rule": "Law 6D2", "reason": problem.history,
            "remedy": "a deal played in another session gets no result: replace the board "
                      "before play"}
