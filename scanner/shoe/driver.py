"""The host side of the shoe: handshake, stop-and-wait delivery, resynchronisation, faults.

Modelled on OctoPrint's printer link: the machine's state is an explicit state machine whose legal
transitions are a table, and every change goes through one checked function. Modelled on Klipper's
host: one outstanding block, retransmitted byte-for-byte until acknowledged, and the shoe's
``status`` (its expected SEQ, ``boot_id``, the card-at-station sensor) decides, after a timeout, an
unplugged cable or a reset, whether the outstanding action was carried out. An action is never
sent under a new sequence number unless the shoe provably did not act on the old one.

Every machine event (a fault, a reset, the door, the emergency stop) is handed to ``on_event``
before the driver returns or raises, so the dealing loop can log it before it acts.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ..cards import Seat
from ..events import MachineFault
from .errors import (
    LinkLost,
    MachineSnapshot,
    ProtocolError,
    UncertainDelivery,
    fault_from_code,
)
from .link import Link, LinkDown, PortOpener, open_serial
from .protocol import (
    POCKET_NAMES,
    PROTOCOL_VERSION,
    Block,
    EventCode,
    FaultCode,
    MachineState,
    Message,
    ProtocolViolation,
    Timing,
    answer,
    command,
    decode_message,
    encode_block,
    flags_set,
    seq_add,
)

REOPEN_INTERVAL_S = 0.2
UNANSWERED_ACKS_BEFORE_STATUS = 2


class HostState(Enum):
    OFFLINE = "offline"
    CONNECTING = "connecting"
    IDLE = "idle"
    FEEDING = "feeding"
    AT_STATION = "at_station"
    ROUTING = "routing"
    FAULT = "fault"


_S = HostState
# Every state may fall back to CONNECTING (resynchronise) or OFFLINE (closed, link lost).
TRANSITIONS: dict[HostState, frozenset[HostState]] = {
    _S.OFFLINE: frozenset({_S.CONNECTING}),
    _S.CONNECTING: frozenset({_S.IDLE, _S.FEEDING, _S.AT_STATION, _S.ROUTING, _S.FAULT}),
    _S.IDLE: frozenset({_S.FEEDING, _S.IDLE, _S.FAULT}),
    _S.FEEDING: frozenset({_S.AT_STATION, _S.FAULT}),
    _S.AT_STATION: frozenset({_S.ROUTING, _S.AT_STATION, _S.FAULT}),
    _S.ROUTING: frozenset({_S.IDLE, _S.FAULT}),
    _S.FAULT: frozenset({_S.IDLE, _S.AT_STATION, _S.FAULT}),
}
FROM_MACHINE: dict[MachineState, HostState] = {
    MachineState.IDLE: _S.IDLE,
    MachineState.FEEDING: _S.FEEDING,
    MachineState.AT_STATION: _S.AT_STATION,
    MachineState.ROUTING: _S.ROUTING,
    MachineState.FAULT: _S.FAULT,
}


@dataclass(frozen=True)
class ActionRule:
    """Which host states may start an action, the state while it runs and after it is done.

    ``after`` None means: ask the shoe (``resume`` leaves a card at the station or not)."""

    allowed_from: frozenset[HostState]
    running: HostState | None
    after: HostState | None


ACTIONS: dict[str, ActionRule] = {
    "feed": ActionRule(frozenset({_S.IDLE}), _S.FEEDING, _S.AT_STATION),
    "route": ActionRule(frozenset({_S.AT_STATION}), _S.ROUTING, _S.IDLE),
    "clear_counts": ActionRule(frozenset({_S.IDLE, _S.AT_STATION}), None, None),
    "resume": ActionRule(frozenset({_S.FAULT, _S.IDLE, _S.AT_STATION}), None, None),
}
EVENT_KINDS: dict[int, str] = {
    EventCode.RESET: "reset",
    EventCode.DOOR_OPENED: "door-opened",
    EventCode.DOOR_CLOSED: "door-closed",
    EventCode.ESTOP_PRESSED: "estop-pressed",
    EventCode.ESTOP_RELEASED: "estop-released",
}

EventSink = Callable[[MachineFault, str], None]


@dataclass(frozen=True)
class Identity:
    firmware: str
    protocol: int
    pockets: int
    hopper_capacity: int
    path_width_mm: int
    max_card_length_mm: int
    boot_id: int


@dataclass
class Counters:
    retransmits: int = 0
    resyncs: int = 0
    resets_seen: int = 0
    actions: int = 0


@dataclass
class _Pending:
    """The one outstanding action and what the host knows about it."""

    seq: int
    message: Message
    block: bytes
    acked: bool = False
    want_status: bool = False
    status_block: bytes = b""
    retransmit_s: float = 0.0
    next_send: float = 0.0
    unanswered_acks: int = 0


class _Resend(Exception):
    """The shoe provably did not act on the pending block: send it again as ``seq``."""

    def __init__(self, seq: int) -> None:
        self.seq = seq


class Shoe:
    """A connected dealing shoe. ``feed``/``route`` return when the card is where it should be."""

    def __init__(self, url: str, *, timing: Timing | None = None,
                 on_event: EventSink | None = None, open_port: PortOpener = open_serial) -> None:
        self.url = url
        self.timing = timing or Timing()
        self.on_event: EventSink = on_event or (lambda event, key: None)
        self.link = Link(url, open_port)
        self.state = HostState.OFFLINE
        self.machine = MachineSnapshot()
        self.identity: Identity | None = None
        self.counters = Counters()
        self._seq = 0
        self._boot_id: int | None = None
        self._counts_this_boot = [0, 0, 0, 0]
        self._counts_earlier_boots = [0, 0, 0, 0]
        # A restarted shoe acts on nothing until identified (PROTOCOL.md §2).
        self._needs_identify = False

    # -- public API ---------------------------------------------------------------------------

    def connect(self) -> Identity:
        """Open the port, identify the shoe (taking its SEQ as ours) and read its status."""
        self._enter(HostState.CONNECTING)
        try:
            self.link.open()
        except LinkDown as exc:
            self.state = HostState.OFFLINE
            raise LinkLost(str(exc), self.machine, resumable=False, kind="link-lost") from None
        identity = self._query("identify")
        if identity["protocol"] != PROTOCOL_VERSION:
            self.close()
            raise ProtocolError(
                f"shoe speaks protocol {identity['protocol']}, this host speaks "
                f"{PROTOCOL_VERSION}: update one of them", self.machine, resumable=False,
                kind="protocol-version")
        self.identity = Identity(
            f"{identity['fw_major']}.{identity['fw_minor']}.{identity['fw_patch']}",
            identity["protocol"], identity["pockets"], identity["hopper_capacity"],
            identity["path_width_mm"], identity["max_card_length_mm"], identity["boot_id"])
        self._boot_id = identity["boot_id"]
        self.refresh()
        return self.identity

    def close(self) -> None:
        self.link.close()
        self.state = HostState.OFFLINE

    def refresh(self) -> MachineSnapshot:
        """Ask for ``status``; the shoe's answer is authoritative for the host's state."""
        self._query("status")
        return self.machine

    def feed(self) -> None:
        """Bring the next card to the read station."""
        self._act(command("feed"))

    def route(self, pocket: Seat | int) -> int:
        """Drop the card at the station into ``pocket``; return that pocket's new count."""
        index = pocket.index if isinstance(pocket, Seat) else int(pocket)
        done = self._act(command("route", pocket=index))
        return done["arg2"]

    def clear_counts(self) -> None:
        self._act(command("clear_counts"))
        self._counts_this_boot = [0, 0, 0, 0]
        self._counts_earlier_boots = [0, 0, 0, 0]

    def resume(self) -> None:
        """After the operator cleared a fault: the shoe checks the cause is gone."""
        self._act(command("resume"))

    @property
    def counts(self) -> dict[str, int]:
        """Cards counted into each pocket since ``clear_counts``, across shoe resets."""
        return {p: self._counts_earlier_boots[i] + self._counts_this_boot[i]
                for i, p in enumerate(POCKET_NAMES)}

    @property
    def retransmits(self) -> int:
        return self.counters.retransmits

    # -- state machine ------------------------------------------------------------------------

    def _enter(self, new: HostState) -> None:
        if new in (HostState.CONNECTING, HostState.OFFLINE):
            self.state = new
            return
        if new not in TRANSITIONS[self.state]:
            raise ProtocolError(
                f"shoe state cannot go from {self.state.value} to {new.value}", self.machine,
                resumable=False, kind="bad-transition")
        self.state = new

    # -- queries ------------------------------------------------------------------------------

    def _query(self, name: str) -> Message:
        """Send a query until its answer comes; queries change nothing, so resending is safe."""
        block = encode_block(self._seq, command(name).encode())
        retransmit = self.timing.retransmit_initial
        last_valid = time.monotonic()
        self._send(block)
        next_send = time.monotonic() + retransmit
        while True:
            try:
                received = self.link.receive(next_send)
            except LinkDown:
                self._check_alive(last_valid, time.monotonic())
                self._reopen(last_valid)
                self._send(block)
                next_send = time.monotonic() + retransmit
                continue
            now = time.monotonic()
            if received is None:
                self._check_alive(last_valid, now)
                retransmit = min(retransmit * 2, self.timing.retransmit_max)
                self.counters.retransmits += 1
                self._send(block)
                next_send = now + retransmit
                continue
            message = self._decode(received)
            if message is None:
                # A pure ack proves the shoe is there; a block we cannot decode does not
                # (on loop:// it is our own query coming back).
                last_valid = now if received.is_pure_ack else last_valid
                continue
            last_valid = now
            if message.name == "event":
                self._machine_event(message, received.seq)
                continue
            if message.name == ("identity" if name == "identify" else "status"):
                self._seq = received.seq
                if message.name == "status":
                    self._adopt_status(message, received.seq)
                return message

    # -- actions ------------------------------------------------------------------------------

    def _act(self, message: Message) -> Message:
        rule = ACTIONS[message.name]
        if self.state not in rule.allowed_from:
            raise ProtocolError(
                f"cannot {message.name} while the shoe is {self.state.value}", self.machine,
                resumable=False, kind="bad-state")
        before = self.state
        self._identify_if_restarted()
        if rule.running is not None:
            self._enter(rule.running)
        self.counters.actions += 1
        pending = self._pending(self._seq, message)
        while True:
            try:
                result = self._exchange(pending)
                break
            except _Resend as resend:
                pending = self._pending(resend.seq, message)
                self._back_to_running(message)
        self._seq = seq_add(pending.seq, 1)
        if result.name == "fault":
            self._raise_fault(pending, result)
        if message.name == "route":
            self._counts_this_boot[result["arg1"]] = result["arg2"]
        if rule.after is not None:
            self._enter(rule.after)
        elif message.name == "clear_counts":
            self._enter(before)
        else:
            self.refresh()
        return result

    def _identify_if_restarted(self) -> bool:
        """Identify a shoe that restarted since this host last did; True if it was needed."""
        if not self._needs_identify:
            return False
        self._needs_identify = False
        self._query("identify")
        return True

    def _back_to_running(self, message: Message) -> None:
        """A status taken mid-action shows the state before it; the action is still ours."""
        running = ACTIONS[message.name].running
        if running is not None and running in TRANSITIONS[self.state]:
            self._enter(running)

    def _pending(self, seq: int, message: Message) -> _Pending:
        return _Pending(seq, message, encode_block(seq, message.encode()))

    def _exchange(self, pending: _Pending) -> Message:
        """Send the action until its result comes back; return ``done`` or ``fault``."""
        last_valid = time.monotonic()
        pending.retransmit_s = self.timing.retransmit_initial
        self._send(pending.block)
        pending.next_send = time.monotonic() + pending.retransmit_s
        while True:
            try:
                received = self.link.receive(pending.next_send)
            except LinkDown:
                self._check_alive(last_valid, time.monotonic())
                self._reopen(last_valid)
                self._ask_status(pending)
                continue
            now = time.monotonic()
            if received is None:
                self._check_alive(last_valid, now)
                self._on_timeout(pending, now)
                continue
            if received.payload and self._decode(received) is None:
                continue
            last_valid = now
            result = self._on_block(pending, received)
            if result is not None:
                return result

    def _on_timeout(self, pending: _Pending, now: float) -> None:
        self.counters.retransmits += 1
        if pending.want_status:
            pending.retransmit_s = min(pending.retransmit_s * 2, self.timing.retransmit_max)
            self._send(pending.status_block)
            pending.next_send = now + pending.retransmit_s
        elif not pending.acked:
            pending.retransmit_s = min(pending.retransmit_s * 2, self.timing.retransmit_max)
            self._send(pending.block)
            pending.next_send = now + pending.retransmit_s
        else:
            # Acknowledged but no result in time: the same bytes again make the shoe repeat
            # its cached result (or acknowledge again if the card is still moving).
            self._send(pending.block)
            pending.next_send = now + self.timing.action_result[pending.message.name]

    def _on_block(self, pending: _Pending, received: Block) -> Message | None:
        message = self._decode(received) if received.payload else None
        if message is not None:
            if message.name in ("done", "fault") and message["action_seq"] == pending.seq \
                    and message["action"] == pending.message.spec.id and not pending.want_status:
                return message
            if message.name == "event":
                if self._machine_event(message, received.seq):
                    self._ask_status(pending)
                return None
            if message.name == "status" and pending.want_status:
                return self._settle(pending, message, received.seq)
            if message.name in ("identity", "status") and self._boot_id is not None \
                    and message["boot_id"] != self._boot_id:
                self._ask_status(pending)
            return None
        if received.seq == seq_add(pending.seq, 1):
            if not pending.acked:
                pending.acked = True
                pending.next_send = (time.monotonic()
                                     + self.timing.action_result[pending.message.name])
        elif pending.want_status:
            pass
        elif received.seq != pending.seq:
            # The shoe expects a sequence that is neither this block nor the next: it reset,
            # or this is a stale acknowledgement. Only its status can tell.
            self._ask_status(pending)
        else:
            # A shoe that keeps expecting this very SEQ without acting may have restarted
            # and be waiting for an identify (PROTOCOL.md §2).
            pending.unanswered_acks += 1
            if pending.unanswered_acks >= UNANSWERED_ACKS_BEFORE_STATUS:
                pending.unanswered_acks = 0
                self._ask_status(pending)
        return None

    def _ask_status(self, pending: _Pending) -> None:
        self.counters.resyncs += 1
        pending.want_status = True
        pending.status_block = encode_block(pending.seq, command("status").encode())
        pending.retransmit_s = self.timing.retransmit_initial
        self._send(pending.status_block)
        pending.next_send = time.monotonic() + pending.retransmit_s

    def _settle(self, pending: _Pending, status: Message, shoe_seq: int) -> Message | None:
        """Decide from ``status`` what became of the pending action (PROTOCOL.md §2, §4)."""
        pending.want_status = False
        rebooted = status["boot_id"] != self._boot_id
        self._adopt_status(status, shoe_seq)
        if rebooted:
            return self._settle_after_reset(pending, shoe_seq)
        if shoe_seq == seq_add(pending.seq, 1):
            pending.acked = True
            if status["state"] in (MachineState.FEEDING, MachineState.ROUTING):
                pending.next_send = (time.monotonic()
                                     + self.timing.action_result[pending.message.name])
                return None
            # Finished: the same block makes the shoe send its cached result again.
            self._send(pending.block)
            pending.next_send = time.monotonic() + self.timing.retransmit_initial
            return None
        if shoe_seq == pending.seq:
            # Not accepted: perhaps a restart this host has already seen but not yet
            # answered with an identify (it may have been noticed by a status query).
            pending.acked = False
            if self._identify_if_restarted():
                raise _Resend(self._seq)
            self._back_to_running(pending.message)
            self._send(pending.block)
            pending.next_send = time.monotonic() + pending.retransmit_s
            return None
        raise _Resend(shoe_seq)

    def _settle_after_reset(self, pending: _Pending, shoe_seq: int) -> Message | None:
        """The shoe restarted and forgot the action; the sensors say what physically happened."""
        name = pending.message.name
        at_station = self.machine.card_at_station
        spec_id = pending.message.spec.id
        if name == "feed" and at_station:
            return _synthetic_done(pending.seq, spec_id)
        if name == "clear_counts":
            return _synthetic_done(pending.seq, spec_id)
        # A restarted shoe acts on nothing until it has been identified (PROTOCOL.md §2), so
        # the old block, should it still be on the wire, cannot feed or drop a card again.
        self._identify_if_restarted()
        shoe_seq = self._seq
        if name == "route" and not at_station:
            pocket = POCKET_NAMES[pending.message["pocket"]]
            raise UncertainDelivery(
                f"the shoe reset while routing a card to pocket {pocket}: the card left the read "
                f"station but no pocket counted it. Look at the top card of pocket {pocket} and "
                "at the router; put the card in pocket " + pocket + " if it is not there, then "
                "resume", self.machine, f"pocket {pocket}", kind="uncertain-delivery")
        raise _Resend(shoe_seq)

    # -- what the shoe tells ------------------------------------------------------------------

    def _adopt_status(self, status: Message, shoe_seq: int) -> None:
        if self._boot_id is not None and status["boot_id"] != self._boot_id:
            self._note_reset(status["boot_id"])
        self._boot_id = status["boot_id"]
        self._seq = shoe_seq
        counts = (status["count_N"], status["count_E"], status["count_S"], status["count_W"])
        self._counts_this_boot = list(counts)
        try:
            state = MachineState(status["state"])
        except ValueError:
            raise ProtocolError(f"status reports unknown state {status['state']}", self.machine,
                                resumable=False, kind="bad-status") from None
        self.machine = MachineSnapshot(
            state.name.lower(), flags_set(status["flags"]), counts, status["last_action_seq"],
            status["last_result"], status["fault_where"], status["boot_id"])
        self._enter(HostState.CONNECTING)
        self._enter(FROM_MACHINE[state])

    def _note_reset(self, new_boot_id: int) -> None:
        for i, n in enumerate(self._counts_this_boot):
            self._counts_earlier_boots[i] += n
        self._counts_this_boot = [0, 0, 0, 0]
        self.counters.resets_seen += 1
        self._needs_identify = True
        self.on_event(MachineFault("reset", f"the shoe restarted (boot {self._boot_id} → "
                                   f"{new_boot_id})", self.state.value),
                      f"reset:{new_boot_id}")
        self._boot_id = new_boot_id

    def _machine_event(self, message: Message, shoe_seq: int) -> bool:
        """Log an unsolicited event; True when it means the shoe reset."""
        code = message["code"]
        if code == EventCode.RESET:
            return True
        kind = EVENT_KINDS.get(code, f"event-{code}")
        self.on_event(MachineFault(kind, f"arg {message['arg']}", self.state.value),
                      f"event:{self._boot_id}:{shoe_seq}:{code}:{message['arg']}")
        return False

    def _raise_fault(self, pending: _Pending, result: Message) -> None:
        self.refresh()
        error = fault_from_code(result["code"], result["where"], pending.message.name,
                                self.machine)
        self.on_event(MachineFault(error.kind, error.message, self.machine.state),
                      f"fault:{self._boot_id}:{pending.seq}")
        error.reported = True
        if result["code"] == FaultCode.BAD_STATE:
            error.resumable = False
        raise error

    def _decode(self, received: Block) -> Message | None:
        if not received.payload:
            return None
        try:
            return decode_message(received.payload, from_host=False)
        except ProtocolViolation:
            return None

    # -- the port -----------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        # A failed write closes the port; the read that follows reports the link down and the
        # caller reconnects there.
        with contextlib.suppress(LinkDown):
            self.link.send(data)

    def _check_alive(self, last_valid: float, now: float) -> None:
        if now - last_valid > self.timing.link_lost_after:
            self.close()
            raise LinkLost(
                f"no answer from the shoe on {self.url} for {self.timing.link_lost_after:g} s: "
                "check the cable and the power, then reconnect", self.machine, resumable=True,
                kind="link-lost")

    def _reopen(self, last_valid: float) -> None:
        """The port failed: reopen it until the protocol's give-up time has passed."""
        self._enter(HostState.CONNECTING)
        while True:
            # Pause first: a cable being replugged, or a port that accepts and drops at once,
            # must not turn this into a busy loop.
            time.sleep(REOPEN_INTERVAL_S)
            try:
                self.link.reopen()
                return
            except LinkDown as exc:
                if time.monotonic() - last_valid > self.timing.link_lost_after:
                    self.state = HostState.OFFLINE
                    raise LinkLost(f"{exc}; gave up after {self.timing.link_lost_after:g} s",
                                   self.machine, resumable=True, kind="link-lost") from None


def _synthetic_done(seq: int, action_id: int) -> Message:
    return answer("done", action_seq=seq, action=action_id, arg1=0, arg2=0)
