"""Typed shoe faults. Each carries the machine's state as last reported, so a prompt can say
where the machine stands (which state, what the sensors saw, how many cards each pocket holds)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import (
    FIRST_POCKET_CHUTE,
    POCKET_NAMES,
    FaultCode,
    Flag,
    MachineState,
    describe_jam_where,
)


@dataclass(frozen=True)
class MachineSnapshot:
    """The machine as its latest ``status`` described it (or ``offline`` when never reached)."""

    state: str = "offline"
    flags: frozenset[Flag] = frozenset()
    counts: tuple[int, int, int, int] = (0, 0, 0, 0)
    last_action_seq: int | None = None
    last_result: int = 0
    fault_where: int = 0
    boot_id: int | None = None

    @property
    def card_at_station(self) -> bool:
        return Flag.CARD_AT_STATION in self.flags

    def describe(self) -> str:
        flags = ", ".join(f.name.lower().replace("_", " ") for f in sorted(self.flags)) or "none"
        counts = " ".join(f"{p}:{n}" for p, n in zip(POCKET_NAMES, self.counts, strict=True))
        return f"state {self.state}; sensors: {flags}; pocket counts {counts}"


@dataclass
class ShoeFault(Exception):
    """A stop the operator must see. ``resumable`` faults clear with the operator and ``resume``."""

    message: str
    machine: MachineSnapshot = field(default_factory=MachineSnapshot)
    where: str = ""
    resumable: bool = True
    kind: str = "fault"
    # True once the driver has handed this fault to its event sink (it is in the log).
    reported: bool = False

    def __str__(self) -> str:
        return f"{self.message} ({self.machine.describe()})"


class Jam(ShoeFault):
    pass


class DoubleFeed(ShoeFault):
    pass


class HopperEmpty(ShoeFault):
    pass


class DoorOpen(ShoeFault):
    pass


class EmergencyStop(ShoeFault):
    pass


class LinkLost(ShoeFault):
    """No valid block for the protocol's give-up time, or the port could not be reopened."""


class ProtocolError(ShoeFault):
    """The shoe refused a command or answered something the protocol does not allow."""


class UncertainDelivery(ShoeFault):
    """The shoe reset while a card was on its way to a pocket: only a person can say where it
    is, so the host stops rather than guess."""


@dataclass(frozen=True)
class FaultRow:
    """How one fault code surfaces on the host: error type, name and what the operator does."""

    error: type[ShoeFault]
    kind: str
    remedy: str
    resumable: bool = True


FAULTS: dict[FaultCode, FaultRow] = {
    FaultCode.JAM: FaultRow(Jam, "jam", "clear the jammed card, close the door, then resume"),
    FaultCode.DOUBLE_FEED: FaultRow(
        DoubleFeed, "double-feed",
        "separate the two cards: leave the first on the read station, put the second back on "
        "top of the hopper, close the door, then resume"),
    FaultCode.HOPPER_EMPTY: FaultRow(
        HopperEmpty, "hopper-empty", "put the rest of the deck in the hopper, then resume"),
    FaultCode.DOOR_OPEN: FaultRow(DoorOpen, "door-open", "close the door, then resume"),
    FaultCode.ESTOP: FaultRow(
        EmergencyStop, "estop", "release the emergency stop once it is safe, then resume"),
    FaultCode.BAD_STATE: FaultRow(
        ProtocolError, "bad-state", "the host and the shoe disagree; reconnect", False),
    FaultCode.BAD_ARGUMENT: FaultRow(
        ProtocolError, "bad-argument", "a host bug: report it", False),
    FaultCode.UNKNOWN_COMMAND: FaultRow(
        ProtocolError, "unknown-command", "the firmware is older than the host; update it", False),
}


# Where a card stops in a jam decides what the operator does with it (firmware/machine/).
JAM_REMEDIES: dict[int, str] = {
    0: "free the top card at the feed roller and square the deck in the hopper",
    1: "take the card off the read station's throat and lay it flat on the station",
    2: "take the card out of the router and lay it back on the read station",
}
CHUTE_REMEDY = "push the card down into pocket {pocket}: the pocket has already counted it"


def jam_remedy(where: int) -> str:
    pocket = where - FIRST_POCKET_CHUTE
    if where in JAM_REMEDIES:
        action = JAM_REMEDIES[where]
    elif 0 <= pocket < len(POCKET_NAMES):
        action = CHUTE_REMEDY.format(pocket=POCKET_NAMES[pocket])
    else:
        action = "clear the jammed card"
    return f"{action}, close the door, then resume"


def fault_from_code(code: int, where: int, action: str, machine: MachineSnapshot) -> ShoeFault:
    """Build the typed error for a ``fault`` answer or a ``status.last_result``."""
    try:
        row = FAULTS[FaultCode(code)]
    except (ValueError, KeyError):
        return ProtocolError(f"{action}: unknown fault code {code}", machine, str(where),
                             resumable=False, kind="unknown-fault")
    remedy = row.remedy
    if row.error is Jam:
        place = describe_jam_where(where)
        remedy = jam_remedy(where)
    elif FaultCode(code) is FaultCode.BAD_STATE and where in MachineState._value2member_map_:
        place = f"in state {MachineState(where).name.lower()}"
    else:
        place = str(where)
    message = f"{action}: {row.kind} ({place}): {remedy}"
    return row.error(message, machine, place, resumable=row.resumable, kind=row.kind)
