"""A whole simulated read station, connected: the shoe simulator, the driver talking to it,
its virtual camera and the event log they deal into; and the demos that run on one."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..live import LiveTable
from ..log import EventLog
from ..shoe.driver import Shoe
from ..shoe.simulator import Simulator
from ..shoe.virtual_camera import VirtualCamera
from .worker import Worker


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


class RigDemo(Worker):
    """A demo that plays on its own simulated rig, in a thread, until stopped.

    Subclasses implement ``play(rig)``. An exception ends the demo but not the page that shows
    it: it is kept in ``error`` for the console.
    """

    thread_name = "tablescan-demo"

    def __init__(self, table: LiveTable, db: Path, motion_s: float) -> None:
        self.table = table
        self.db = db
        self.motion_s = motion_s
        self.error: BaseException | None = None
        self.finished = threading.Event()
        super().__init__()

    def play(self, rig: SimulatedRig) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        try:
            with simulated_rig(self.db, self.table.session, self.motion_s) as rig:
                self.play(rig)
        except BaseException as exc:
            self.error = exc
            raise
        finally:
            self.finished.set()
