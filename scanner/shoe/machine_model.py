"""The Python model of the shoe: its firmware's protocol handling and the cards' physical path.

It behaves as firmware/PROTOCOL.md says the controller does: it acknowledges every valid block,
acts once per sequence number, caches the last result for a retransmission, and keeps the
physical cards (hopper, read station, pockets) as the ground truth the tests compare against.
Time is passed in, so the model is deterministic; the simulator's server drives it.

Physical choices follow the C machine model the other two targets share (firmware/machine/):
a router jam stops the card in the router and ``clearjam`` puts it back on the read station; a
chute jam stops the card in the pocket's break beam after the beam counted it, and ``clearjam``
pushes it down into that pocket; a double feed stops two cards at the station, and ``clearjam``
leaves the first there and puts the second back on top of the hopper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import (
    DICTIONARY_CRC,
    POCKET_NAMES,
    PROTOCOL_VERSION,
    SILENCE_S,
    Block,
    BlockParser,
    EventCode,
    FaultCode,
    Flag,
    Kind,
    MachineState,
    Message,
    ProtocolViolation,
    answer,
    decode_message,
    encode_block,
    flags_value,
    seq_add,
)
from .virtual_deck import DeckCard

FIRMWARE_VERSION = (1, 0, 0)
HOPPER_CAPACITY = 60
PATH_WIDTH_MM = 66
MAX_CARD_LENGTH_MM = 89
RESET_CAUSE_EXTERNAL = 0x02
# Refusals move nothing and leave the state as it was (PROTOCOL.md §4).
REFUSALS = frozenset({FaultCode.BAD_STATE, FaultCode.BAD_ARGUMENT, FaultCode.UNKNOWN_COMMAND,
                      FaultCode.HOPPER_EMPTY})
RUNNING_STATE = {"feed": MachineState.FEEDING, "route": MachineState.ROUTING}


@dataclass
class Running:
    seq: int
    message: Message
    ends_at: float


@dataclass
class Injected:
    """Faults the control channel armed: they act when the machine next moves a card."""

    jam_feed: bool = False
    jam_router: bool = False
    jam_pockets: set[int] = field(default_factory=set)
    double_feed: bool = False


class ShoeModel:
    """One shoe. Feed it bytes with ``receive``, advance it with ``tick``, collect ``output``."""

    def __init__(self, deck: list[DeckCard] | None = None, motion_s: float = 0.0,
                 boot_id: int = 1) -> None:
        self.motion_s = motion_s
        self.hopper: list[DeckCard] = list(deck or [])
        self.station: list[DeckCard] = []
        self.stuck: list[DeckCard] = []
        self.stuck_in = ""
        self.pockets: dict[str, list[DeckCard]] = {p: [] for p in POCKET_NAMES}
        self.injected = Injected()
        self.door_open = False
        self.estop = False
        self.boot_id = boot_id
        self.output = bytearray()
        self.actions_performed = 0
        self._parser = BlockParser()
        self._last_byte_at = 0.0
        self._boot(cause=None)

    # -- firmware ---------------------------------------------------------------------------

    def _boot(self, cause: int | None) -> None:
        self.expected_seq = 0
        self.counts = [0, 0, 0, 0]
        self.last_action_seq = 0xFF
        self.last_result = FaultCode.OK
        self.fault_where = 0
        self.cached_result: bytes | None = None
        self.running: Running | None = None
        self.identified = False
        self.state = self._resting_state()
        if cause is not None:
            self._send(answer("event", code=EventCode.RESET, arg=cause))

    def _resting_state(self) -> MachineState:
        if self.door_open or self.estop or self.stuck:
            return MachineState.FAULT
        return MachineState.AT_STATION if self.station else MachineState.IDLE

    @property
    def flags(self) -> int:
        flags = set()
        if self.station:
            flags.add(Flag.CARD_AT_STATION)
        if self._hopper_empty:
            flags.add(Flag.HOPPER_EMPTY)
        if self.door_open:
            flags.add(Flag.DOOR_OPEN)
        if self.estop:
            flags.add(Flag.ESTOP)
        return flags_value(flags)

    @property
    def _hopper_empty(self) -> bool:
        return not self.hopper

    def receive(self, data: bytes, now: float) -> None:
        if now - self._last_byte_at > SILENCE_S:
            self._parser.silence()
        self._last_byte_at = now
        for block in self._parser.feed(data):
            self._handle(block, now)
        self.tick(now)

    def _send(self, message: Message | None) -> None:
        payload = message.encode() if message is not None else b""
        self.output += encode_block(self.expected_seq, payload)

    def _handle(self, block: Block, now: float) -> None:
        if block.is_pure_ack:
            return
        try:
            message = decode_message(block.payload, from_host=True)
        except ProtocolViolation:
            self._send(answer("fault", action_seq=block.seq, action=block.payload[0],
                              code=FaultCode.UNKNOWN_COMMAND, where=block.payload[0]))
            return
        if message.spec.kind is Kind.QUERY:
            self.identified = self.identified or message.name == "identify"
            self._send(self._query_answer(message.name))
        elif not self.identified or (self.running is not None
                                     and block.seq == self.expected_seq):
            # Not identified since boot, or busy: not accepted (PROTOCOL.md §2).
            self._send(None)
        elif block.seq == self.expected_seq:
            self.expected_seq = seq_add(self.expected_seq, 1)
            self._send(None)
            self._start(block.seq, message, now)
        elif block.seq == seq_add(self.expected_seq, -1) and self.running is None \
                and self.cached_result is not None:
            self.output += self.cached_result
        else:
            self._send(None)

    def _query_answer(self, name: str) -> Message:
        self._follow_station_sensor()
        if name == "identify":
            major, minor, patch = FIRMWARE_VERSION
            return answer("identity", fw_major=major, fw_minor=minor, fw_patch=patch,
                          protocol=PROTOCOL_VERSION, pockets=len(POCKET_NAMES),
                          hopper_capacity=HOPPER_CAPACITY, path_width_mm=PATH_WIDTH_MM,
                          max_card_length_mm=MAX_CARD_LENGTH_MM, boot_id=self.boot_id,
                          dictionary_crc=DICTIONARY_CRC)
        return answer("status", state=self.state, flags=self.flags,
                      count_N=self.counts[0], count_E=self.counts[1], count_S=self.counts[2],
                      count_W=self.counts[3], last_action_seq=self.last_action_seq,
                      last_result=self.last_result, fault_where=self.fault_where,
                      boot_id=self.boot_id)

    def _follow_station_sensor(self) -> None:
        """Between actions the station sensor is the truth (PROTOCOL.md §4)."""
        if self.state in (MachineState.IDLE, MachineState.AT_STATION):
            self.state = MachineState.AT_STATION if self.station else MachineState.IDLE

    def _start(self, seq: int, message: Message, now: float) -> None:
        refusal = self._refusal(message)
        if refusal is not None:
            self._finish(seq, message, refusal)
            return
        if message.name in RUNNING_STATE:
            self.state = RUNNING_STATE[message.name]
            self.running = Running(seq, message, now + self.motion_s)
            self.tick(now)
        elif message.name == "clear_counts":
            self.counts = [0, 0, 0, 0]
            self._finish(seq, message, None)
        else:
            self._finish(seq, message, self._resume())

    def _refusal(self, message: Message) -> tuple[FaultCode, int] | None:
        if message.name == "clear_counts":
            return None
        if message.name == "route" and message["pocket"] >= len(POCKET_NAMES):
            return FaultCode.BAD_ARGUMENT, 0
        if self.estop:
            return FaultCode.ESTOP, 0
        if self.door_open:
            return FaultCode.DOOR_OPEN, 0
        if message.name == "resume":
            return None
        wanted = {"feed": MachineState.IDLE, "route": MachineState.AT_STATION}[message.name]
        if self.state != wanted:
            return FaultCode.BAD_STATE, int(self.state)
        if message.name == "feed" and self._hopper_empty:
            return FaultCode.HOPPER_EMPTY, 0
        return None

    def _resume(self) -> tuple[FaultCode, int] | None:
        """Refused while a sensor still shows the cause: two cards over the throat (jam at 1)
        or a card in a pocket's break beam (jam at 3+p)."""
        if self.state is not MachineState.FAULT:
            return None
        if self.stuck_in == "station":
            return FaultCode.JAM, 1
        if self.stuck_in == "router":
            return FaultCode.JAM, 2
        if self.stuck_in in self.pockets:
            return FaultCode.JAM, 3 + POCKET_NAMES.index(self.stuck_in)
        self.state = self._resting_state()
        return None

    def tick(self, now: float) -> None:
        running = self.running
        if running is None or now < running.ends_at:
            return
        self.running = None
        if running.message.name == "feed":
            self._finish(running.seq, running.message, self._complete_feed())
        else:
            self._finish(running.seq, running.message, self._complete_route(running.message))

    def _complete_feed(self) -> tuple[FaultCode, int] | None:
        if self.injected.jam_feed:
            return FaultCode.JAM, 0
        if self.injected.double_feed and len(self.hopper) >= 2:
            self.injected.double_feed = False
            self._stick(self.hopper[:2], "station")
            del self.hopper[:2]
            return FaultCode.DOUBLE_FEED, 1
        self.station.append(self.hopper.pop(0))
        self.actions_performed += 1
        return None

    def _complete_route(self, message: Message) -> tuple[FaultCode, int] | None:
        pocket = message["pocket"]
        if self.injected.jam_router:
            self._stick([self.station.pop()], "router")
            return FaultCode.JAM, 2
        if pocket in self.injected.jam_pockets:
            # The card broke the beam (and was counted) but stopped in it.
            self._stick([self.station.pop()], POCKET_NAMES[pocket])
            self.counts[pocket] += 1
            return FaultCode.JAM, 3 + pocket
        self.pockets[POCKET_NAMES[pocket]].append(self.station.pop())
        self.counts[pocket] += 1
        self.actions_performed += 1
        return None

    def _finish(self, seq: int, message: Message, fault: tuple[FaultCode, int] | None) -> None:
        self.last_action_seq = seq
        if fault is None:
            self.last_result = FaultCode.OK
            self.fault_where = 0
            if message.name == "route":
                pocket = message["pocket"]
                result = answer("done", action_seq=seq, action=message.spec.id, arg1=pocket,
                                arg2=self.counts[pocket])
            else:
                result = answer("done", action_seq=seq, action=message.spec.id, arg1=0, arg2=0)
            if message.name != "resume":
                self.state = self._resting_state()
        else:
            code, where = fault
            self.last_result = code
            self.fault_where = where
            if code not in REFUSALS:
                self.state = MachineState.FAULT
            result = answer("fault", action_seq=seq, action=message.spec.id, code=code,
                            where=where)
        start = len(self.output)
        self._send(result)
        self.cached_result = bytes(self.output[start:])

    # -- the physical world (the control channel) --------------------------------------------

    def _abort_running(self, code: FaultCode) -> None:
        running = self.running
        if running is not None:
            self.running = None
            self._finish(running.seq, running.message, (code, 0))

    def set_door(self, is_open: bool) -> None:
        if is_open == self.door_open:
            return
        self.door_open = is_open
        self._send(answer("event", code=EventCode.DOOR_OPENED if is_open
                          else EventCode.DOOR_CLOSED, arg=0))
        if is_open:
            self._abort_running(FaultCode.DOOR_OPEN)
            self.state = MachineState.FAULT

    def set_estop(self, pressed: bool) -> None:
        if pressed == self.estop:
            return
        self.estop = pressed
        self._send(answer("event", code=EventCode.ESTOP_PRESSED if pressed
                          else EventCode.ESTOP_RELEASED, arg=0))
        if pressed:
            self._abort_running(FaultCode.ESTOP)
            self.state = MachineState.FAULT

    def reset(self) -> None:
        """The MCU resets: RAM is lost, the boot counter moves on, the cards stay put."""
        self.boot_id = (self.boot_id + 1) & 0xFFFF
        self._parser = BlockParser()
        self._boot(cause=RESET_CAUSE_EXTERNAL)

    def clear_jam(self) -> None:
        self.injected.jam_feed = self.injected.jam_router = False
        self.injected.jam_pockets.clear()
        stuck, self.stuck = self.stuck, []
        if self.stuck_in in self.pockets:
            self.pockets[self.stuck_in].extend(stuck)
        elif stuck:
            self.station.append(stuck[0])
            self.hopper[:0] = stuck[1:]
        self.stuck_in = ""

    def _stick(self, cards: list[DeckCard], place: str) -> None:
        self.stuck.extend(cards)
        self.stuck_in = place

    def empty_hopper(self) -> None:
        """The operator lifts the rest of the deck out; ``load`` puts cards back."""
        self.hopper.clear()

    def load(self, deck: list[DeckCard]) -> None:
        self.hopper = list(deck)

    def station_card(self) -> DeckCard | None:
        return self.station[0] if self.station else None

