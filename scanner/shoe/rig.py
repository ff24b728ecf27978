"""A whole simulated read station, connected: the shoe simulator, the driver talking to it,
its virtual camera and the event log they deal into. What the demos run on."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..log import EventLog
from .driver import Shoe
from .simulator import Simulator
from .virtual_camera import VirtualCamera


@dataclass(frozen=True)
class SimulatedRig:
    sim: Simulator
    shoe: Shoe
    camera: VirtualCamera
    log: EventLog
    workdir: Path  # for the deck files loaded into the simulator


@contextmanager
def simulated_rig(db: Path, session: str, motion_s: float) -> Iterator[SimulatedRig]:
    """Start the simulator, connect the driver (handshake included) and the camera, open the
    log on ``session``; close them all afterwards, whatever happened."""
    with Simulator(motion_s=motion_s).start() as sim, \
            EventLog(db, session=session) as log, \
            tempfile.TemporaryDirectory() as tmp:
        shoe = Shoe(sim.serial_url)
        shoe.connect()
        camera = VirtualCamera(sim.control_address)
        try:
            yield SimulatedRig(sim, shoe, camera, log, Path(tmp))
        finally:
            camera.close()
            shoe.close()
