"""Fixtures for the shoe tests: deck files, and simulated shoes on all three targets."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scanner.cards import BRIDGE_52, PINOCHLE_48, Card
from scanner.shoe import targets
from scanner.shoe.control import ControlChannel
from scanner.shoe.virtual_deck import DeckCard, format_virtual_deck

# The C targets run their simulated time faster than the wall clock (simavr flat out, the
# native core 20x) so tests stay short; the host's wall-clock timeouts only get slacker that
# way, never tighter. SHOE_SIMAVR_SPEED=1 runs the AVR image at its real pace.
TARGET_ARGS: dict[str, tuple[str, ...]] = {
    "python": (),
    "native": ("--speed", "20"),
    "simavr": ("--speed", os.environ.get("SHOE_SIMAVR_SPEED", "0")),
}
TARGET_NAMES = tuple(TARGET_ARGS)


def shuffled(cards: list[Card], seed: int) -> list[Card]:
    out = list(cards)
    random.Random(seed).shuffle(out)
    return out


@pytest.fixture
def bridge_deck() -> Callable[[int], list[Card]]:
    """A shuffled 52-card deck for a seed."""
    return lambda seed=1: shuffled(BRIDGE_52.cards(), seed)


@pytest.fixture
def pinochle_deck() -> Callable[[int], list[Card]]:
    """A shuffled 48-card pinochle deck for a seed."""
    return lambda seed=1: shuffled(PINOCHLE_48.cards(), seed)


@pytest.fixture
def write_deck(tmp_path: Path) -> Callable[..., Path]:
    """Write a virtual deck file; ``down`` lists the positions (0-based) lying face down."""
    counter = iter(range(1000))

    def write(cards: list[Card], down: tuple[int, ...] = ()) -> Path:
        path = tmp_path / f"deck{next(counter)}.txt"
        deck = [DeckCard(c, "down" if i in down else "up") for i, c in enumerate(cards)]
        path.write_text(format_virtual_deck(deck), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def build_once() -> Callable[[str], None]:
    """Build a C target with ``make -C firmware`` the first time a test needs it."""
    outcome: dict[str, targets.TargetError | None] = {}

    def build(name: str) -> None:
        if name not in outcome:
            try:
                targets.build(targets.TARGETS[name])
                outcome[name] = None
            except targets.TargetError as exc:
                outcome[name] = exc
        if outcome[name] is not None:
            raise outcome[name]

    return build


@pytest.fixture(params=TARGET_NAMES)
def start_target(request: pytest.FixtureRequest, build_once: Callable[[str], None]
                 ) -> Iterator[Callable[[Path], targets.RunningTarget]]:
    """Start the parametrised target with a deck; stopped at the end of the test."""
    build_once(request.param)
    started: list[targets.RunningTarget] = []

    def start(deck: Path) -> targets.RunningTarget:
        running = targets.start(request.param, deck, TARGET_ARGS[request.param])
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()


@pytest.fixture
def control_of() -> Iterator[Callable[[str], ControlChannel]]:
    opened: list[ControlChannel] = []

    def connect(address: str) -> ControlChannel:
        channel = ControlChannel(address)
        opened.append(channel)
        return channel

    yield connect
    for channel in opened:
        channel.close()


@pytest.fixture
def run_deal(tmp_path: Path):
    """Deal one deck through a shoe URL with the virtual camera of ``control``; the same log
    file across calls, so a second call resumes a stopped deal."""
    from scanner.events import HandStarted
    from scanner.log import EventLog
    from scanner.shoe.deal_plan import LiveDeal
    from scanner.shoe.dealing import deal_deck, deck_check_for
    from scanner.shoe.driver import Shoe
    from scanner.shoe.virtual_camera import VirtualCamera

    def run(shoe_url: str, control: str, game: str = "bridge", dealer: str = "N",
            plan=None, timing=None, db: Path | None = None, on_shoe=None):
        from scanner.cards import parse_seat

        seat = parse_seat(dealer)
        plan = plan or LiveDeal.for_game(game, seat)
        log = EventLog(db or tmp_path / "deal.db")
        camera = VirtualCamera(control)
        shoe = Shoe(shoe_url, timing=timing)
        shoe.connect()
        if on_shoe is not None:
            on_shoe(shoe)
        try:
            return deal_deck(shoe, camera, plan, log,
                             hand=HandStarted(game, seat, getattr(plan, "packet", 1)),
                             deck_check_factory=lambda: deck_check_for(plan.deck))
        finally:
            shoe.close()
            camera.close()
            log.close()

    return run


@pytest.fixture
def logged_deliveries(tmp_path: Path):
    """Every CardDelivered in the deal log, by pocket, in log order."""
    from scanner.events import CardDelivered
    from scanner.log import EventLog

    def read(db: Path | None = None) -> dict[str, list[str]]:
        pockets: dict[str, list[str]] = {p: [] for p in "NESW"}
        with EventLog(db or tmp_path / "deal.db") as log:
            for _, event in log.replay():
                if isinstance(event, CardDelivered):
                    pockets[event.to.value].append(str(event.card))
        return pockets

    return read
