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
    ANSWERS,
    DICTIONARY_CRC,
    POCKET_NAMES,
    PROTOCOL_VERSION,
    Block,
    EventCode,
    FaultCode,
    Kind,
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
_FALL_BACK = frozenset({_S.CONNECTING, _S.OFFLINE})
# Every state may fall back to CONNECTING (resynchronise) or OFFLINE (closed, link lost).
TRANSITIONS: dict[HostState, frozenset[HostState]] = {
    _S.OFFLINE: _FALL_BACK,
    _S.CONNECTING: _FALL_BACK | {_S.IDLE, _S.FEEDING, _S.AT_STATION, _S.ROUTING, _S.FAULT},
    _S.IDLE: _FALL_BACK | {_S.FEEDING, _S.IDLE, _S.FAULT},
    _S.FEEDING: _FALL_BACK | {_S.AT_STATION, _S.FAULT},
    _S.AT_STATION: _FALL_BACK | {_S.ROUTING, _S.AT_STATION, _S.FAULT},
    _S.ROUTING: _FALL_BACK | {_S.IDLE, _S.FAULT},
    _S.FAULT: _FALL_BACK | {_S.IDLE, _S.AT_STATION, _S.FAULT},
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


class Phase(Enum):
    """Where one exchange (a query, or an action and its result) stands."""

    AWAIT_ANSWER = "await-answer"  # a query is out (alone, or a status asked mid-action)
    AWAIT_ACK = "await-ack"  # the action is out and not yet acknowledged
    AWAIT_RESULT = "await-result"  # acknowledged; the card is moving
    LINK_DOWN = "link-down"  # the port failed and is being reopened
    ANSWERED = "answered"


_P = Phase
# Every phase change of an exchange goes through this table (``Shoe._move``).
PHASES: dict[Phase, frozenset[Phase]] = {
    _P.AWAIT_ANSWER: frozenset({_P.AWAIT_ANSWER, _P.AWAIT_ACK, _P.AWAIT_RESULT, _P.LINK_DOWN,
                                _P.ANSWERED}),
    _P.AWAIT_ACK: frozenset({_P.AWAIT_ACK, _P.AWAIT_RESULT, _P.AWAIT_ANSWER, _P.LINK_DOWN,
                             _P.ANSWERED}),
    _P.AWAIT_RESULT: frozenset({_P.AWAIT_RESULT, _P.AWAIT_ANSWER, _P.LINK_DOWN, _P.ANSWERED}),
    _P.LINK_DOWN: frozenset({_P.AWAIT_ANSWER}),
    _P.ANSWERED: frozenset(),
}
# Phases whose block is sent again with a doubling back-off until something answers it.
_BACKING_OFF = frozenset({_P.AWAIT_ANSWER, _P.AWAIT_ACK})


@dataclass
class _Exchange:
    """One query, or one action until its result: the block out and what the host knows.

    ``block`` is the query or the action, resent byte for byte. ``out`` is the block being
    retransmitted now: ``block``, or a ``status`` query asked in the middle of an action.
    """

    seq: int
    message: Message
    block: bytes
    phase: Phase
    out: bytes
    last_valid: float
    backoff_s: float = 0.0
    next_send: float = 0.0
    unanswered_acks: int = 0

    @property
    def is_query(self) -> bool:
        return self.message.spec.kind is Kind.QUERY


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
            self._enter(HostState.OFFLINE)
            raise LinkLost(str(exc), self.machine, resumable=False, kind="link-lost") from None
        try:
            identity = self._identify()
        except ProtocolError as exc:
            if exc.kind in ("protocol-version", "protocol-dictionary"):
                self.close()
            raise
        self.identity = Identity(
            f"{identity['fw_major']}.{identity['fw_minor']}.{identity['fw_patch']}",
            identity["protocol"], identity["pockets"], identity["hopper_capacity"],
            identity["path_width_mm"], identity["max_card_length_mm"], identity["boot_id"])
        self._boot_id = identity["boot_id"]
        self.refresh()
        return self.identity

    def close(self) -> None:
        self.link.close()
        self._enter(HostState.OFFLINE)

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

    # -- the host's view of the machine --------------------------------------------------------

    def _enter(self, new: HostState) -> None:
        """The one way the host state changes: only along ``TRANSITIONS``."""
        if new not in TRANSITIONS[self.state]:
            raise ProtocolError(
                f"shoe state cannot go from {self.state.value} to {new.value}", self.machine,
                resumable=False, kind="bad-transition")
        self.state = new

    # -- one exchange: send, await, retransmit, back off, link down, resync ---------------------

    def _query(self, name: str) -> Message:
        """Ask until the answer comes; queries change nothing, so asking again is safe."""
        query = command(name)
        block = encode_block(self._seq, query.encode())
        return self._run(_Exchange(self._seq, query, block, Phase.AWAIT_ANSWER, block,
                                   time.monotonic()))

    def _run(self, ex: _Exchange) -> Message:
        """The one retransmit loop: wait for a block until ``next_send``, then act on it."""
        ex.backoff_s = self.timing.retransmit_initial
        self._send_out(ex, ex.out, ex.backoff_s)
        while True:
            try:
                received = self.link.receive(ex.next_send)
            except LinkDown:
                self._check_alive(ex.last_valid, time.monotonic())
                self._move(ex, Phase.LINK_DOWN)
                self._reopen(ex.last_valid)
                # Whether an action was carried out while the port was down only the shoe's
                # status can tell; a query is simply asked again.
                self._ask(ex, ex.block if ex.is_query else self._status_block(ex))
                continue
            now = time.monotonic()
            if received is None:
                self._check_alive(ex.last_valid, now)
                self._on_timeout(ex)
                continue
            message = self._decode(received)
            if received.payload and message is None:
                # Not a block the shoe sends (on loop:// it is our own block coming back).
                continue
            ex.last_valid = now
            result = self._on_block(ex, received, message)
            if result is not None:
                self._move(ex, Phase.ANSWERED)
                return result

    def _move(self, ex: _Exchange, phase: Phase) -> None:
        """The one way an exchange changes phase: only along ``PHASES``."""
        if phase not in PHASES[ex.phase]:
            raise ProtocolError(
                f"{ex.message.name} exchange cannot go from {ex.phase.value} to {phase.value}",
                self.machine, resumable=False, kind="bad-transition")
        ex.phase = phase

    def _send_out(self, ex: _Exchange, block: bytes, wait_s: float) -> None:
        """Send ``block`` (again) and wait ``wait_s`` for what answers it."""
        ex.out = block
        self._send(block)
        ex.next_send = time.monotonic() + wait_s

    def _on_timeout(self, ex: _Exchange) -> None:
        self.counters.retransmits += 1
        if ex.phase in _BACKING_OFF:
            ex.backoff_s = min(ex.backoff_s * 2, self.timing.retransmit_max)
            self._send_out(ex, ex.out, ex.backoff_s)
        else:
            # Acknowledged but no result in time: the same bytes again make the shoe repeat
            # its cached result (or acknowledge again if the card is still moving).
            self._send_out(ex, ex.block, self.timing.action_result[ex.message.name])

    def _ask(self, ex: _Exchange, block: bytes) -> None:
        """Send a query (the exchange's own, or a status mid-action) with a fresh back-off."""
        self._move(ex, Phase.AWAIT_ANSWER)
        ex.backoff_s = self.timing.retransmit_initial
        self._send_out(ex, block, ex.backoff_s)

    def _status_block(self, ex: _Exchange) -> bytes:
        self.counters.resyncs += 1
        return encode_block(ex.seq, command("status").encode())

    def _await_result(self, ex: _Exchange) -> None:
        self._move(ex, Phase.AWAIT_RESULT)
        ex.next_send = time.monotonic() + self.timing.action_result[ex.message.name]

    def _send_action(self, ex: _Exchange, seq: int | None = None) -> None:
        """Send the action again; as a new block numbered ``seq`` only when the shoe provably
        did not act on the old one (it restarted, or expects another sequence)."""
        if seq is not None:
            ex.seq, ex.block = seq, encode_block(seq, ex.message.encode())
            ex.last_valid = time.monotonic()
            ex.backoff_s = self.timing.retransmit_initial
        self._move(ex, Phase.AWAIT_ACK)
        ex.unanswered_acks = 0
        self._send_out(ex, ex.block, ex.backoff_s)

    def _on_block(self, ex: _Exchange, received: Block, message: Message | None
                  ) -> Message | None:
        if message is not None and message.name == "event":
            if self._machine_event(message, received.seq) and not ex.is_query:
                self._ask(ex, self._status_block(ex))
            return None
        if ex.is_query:
            wanted = "identity" if ex.message.name == "identify" else "status"
            if message is None or message.name != wanted:
                return None
            self._seq = received.seq
            if message.name == "status":
                self._adopt_status(message, received.seq)
            return message
        if ex.phase is Phase.AWAIT_ANSWER:
            if message is not None and message.name == "status":
                return self._settle(ex, message, received.seq)
            return None
        if message is not None:
            if message.name in ("done", "fault") and message["action_seq"] == ex.seq \
                    and message["action"] == ex.message.spec.id:
                return message
            if message.name in ("identity", "status") and self._boot_id is not None \
                    and message["boot_id"] != self._boot_id:
                self._ask(ex, self._status_block(ex))
            return None
        if received.seq == seq_add(ex.seq, 1):
            if ex.phase is Phase.AWAIT_ACK:
                self._await_result(ex)
        elif received.seq != ex.seq:
            # The shoe expects a sequence that is neither this block nor the next: it reset,
            # or this is a stale acknowledgement. Only its status can tell.
            self._ask(ex, self._status_block(ex))
        else:
            # A shoe that keeps expecting this very SEQ without acting may have restarted
            # and be waiting for an identify (PROTOCOL.md §2).
            ex.unanswered_acks += 1
            if ex.unanswered_acks >= UNANSWERED_ACKS_BEFORE_STATUS:
                ex.unanswered_acks = 0
                self._ask(ex, self._status_block(ex))
        return None

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
        block = encode_block(self._seq, message.encode())
        ex = _Exchange(self._seq, message, block, Phase.AWAIT_ACK, block, time.monotonic())
        result = self._run(ex)
        self._seq = seq_add(ex.seq, 1)
        if result.name == "fault":
            self._raise_fault(ex, result)
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
        self._identify()
        return True

    def _identify(self) -> Message:
        """Ask the shoe who it is; refuse a shoe built from another protocol table.

        Klipper's way: the firmware's ``identity`` carries its table's CRC, so a shoe flashed
        from an older (or newer) table is refused by name before any card moves, even where
        the tables' version numbers agree.
        """
        identity = self._query("identify")
        if identity["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError(
                f"shoe speaks protocol {identity['protocol']}, this host speaks "
                f"{PROTOCOL_VERSION}: update one of them", self.machine, resumable=False,
                kind="protocol-version")
        if identity["dictionary_crc"] != DICTIONARY_CRC:
            raise _other_dictionary(f"its table's CRC is 0x{identity['dictionary_crc']:04X}, "
                                    f"this host's 0x{DICTIONARY_CRC:04X}", self.machine)
        return identity

    def _back_to_running(self, message: Message) -> None:
        """A status taken mid-action shows the state before it; the action is still ours."""
        running = ACTIONS[message.name].running
        if running is not None and running in TRANSITIONS[self.state]:
            self._enter(running)

    def _settle(self, ex: _Exchange, status: Message, shoe_seq: int) -> Message | None:
        """Decide from ``status`` what became of the action (PROTOCOL.md §2, §4)."""
        rebooted = status["boot_id"] != self._boot_id
        self._adopt_status(status, shoe_seq)
        if rebooted:
            return self._settle_after_reset(ex)
        if shoe_seq == seq_add(ex.seq, 1):
            if status["state"] in (MachineState.FEEDING, MachineState.ROUTING):
                self._await_result(ex)
                return None
            # Finished: the same block makes the shoe send its cached result again.
            self._move(ex, Phase.AWAIT_RESULT)
            self._send_out(ex, ex.block, self.timing.retransmit_initial)
            return None
        if shoe_seq == ex.seq:
            # Not accepted: perhaps a restart this host has already seen but not yet
            # answered with an identify (it may have been noticed by a status query).
            renumbered = self._seq if self._identify_if_restarted() else None
            self._back_to_running(ex.message)
            self._send_action(ex, renumbered)
            return None
        self._back_to_running(ex.message)
        self._send_action(ex, shoe_seq)
        return None

    def _settle_after_reset(self, ex: _Exchange) -> Message | None:
        """The shoe restarted and forgot the action; the sensors say what physically happened."""
        name = ex.message.name
        at_station = self.machine.card_at_station
        spec_id = ex.message.spec.id
        if name == "feed" and at_station:
            return _synthetic_done(ex.seq, spec_id)
        if name == "clear_counts":
            return _synthetic_done(ex.seq, spec_id)
        # A restarted shoe acts on nothing until it has been identified (PROTOCOL.md §2), so
        # the old block, should it still be on the wire, cannot feed or drop a card again.
        self._identify_if_restarted()
        if name == "route" and not at_station:
            pocket = POCKET_NAMES[ex.message["pocket"]]
            raise UncertainDelivery(
                f"the shoe reset while routing a card to pocket {pocket}: the card left the read "
                f"station but no pocket counted it. Look at the top card of pocket {pocket} and "
                "at the router; put the card in pocket " + pocket + " if it is not there, then "
                "resume", self.machine, f"pocket {pocket}", kind="uncertain-delivery")
        self._back_to_running(ex.message)
        self._send_action(ex, self._seq)
        return None

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

    def _raise_fault(self, ex: _Exchange, result: Message) -> None:
        self.refresh()
        error = fault_from_code(result["code"], result["where"], ex.message.name,
                                self.machine)
        self.on_event(MachineFault(error.kind, error.message, self.machine.state),
                      f"fault:{self._boot_id}:{ex.seq}")
        error.reported = True
        if result["code"] == FaultCode.BAD_STATE:
            error.resumable = False
        raise error

    def _decode(self, received: Block) -> Message | None:
        if not received.payload:
            return None
        try:
            return decode_message(received.payload, from_host=False)
        except ProtocolViolation as exc:
            if received.payload[0] == ANSWERS["identity"].id:
                # Only a firmware built from another table sends an identity of another
                # length (one from before the table's CRC was in it, say).
                raise _other_dictionary(str(exc), self.machine) from None
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
                    self._enter(HostState.OFFLINE)
                    raise LinkLost(f"{exc}; gave up after {self.timing.link_lost_after:g} s",
                                   self.machine, resumable=True, kind="link-lost") from None


def _other_dictionary(why: str, machine: MachineSnapshot) -> ProtocolError:
    return ProtocolError(f"the shoe's firmware was built from another protocol table ({why}): "
                         "flash the firmware that matches this host (make -C firmware flash)",
                         machine, resumable=False, kind="protocol-dictionary")


def _synthetic_done(seq: int, action_id: int) -> Message:
    return answer("done", action_seq=seq, action=action_id, arg1=0, arg2=0)
