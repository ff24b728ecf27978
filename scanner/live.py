"""A live table: the event log, the game state folded from it, and a signal when it changes.

The log is the only source of truth. An operator's action goes through ``act``: the game
checks it against its rules and only then is it appended. Facts from the table (cards read
and delivered by the shoe's dealing loop, possibly in another thread or process) are appended
to the same log by whoever saw them; the live table follows the log and folds in whatever
its sitting gained, each new event once. Readers wait on ``wait_for_change`` and read a
``snapshot``; a reader that was away catches up from the version (the log's sequence number).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from .cards import Card, CardError, parse_card
from .events import Event
from .log import LogConflict


class ActionRefused(Exception):
    """An action the rules forbid now (a bid out of turn, trump named twice). Nothing changed."""

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


class TableBusy(ActionRefused):
    """An action refused because the table changed under it at every check: cards arriving
    as fast as it could be checked against them. Nothing changed; unlike a refusal by the
    rules, the same action may simply be tried again."""


class MalformedAction(ValueError):
    """An action whose name or parameters are not understood; the message names the field."""


def card_param(params: Mapping[str, Any], name: str = "card") -> Card:
    """The card an action names in ``params[name]`` (``QS``, ``10h``), or MalformedAction
    naming the field and what is wrong with it."""
    text = params.get(name)
    if not isinstance(text, str) or not text.strip():
        raise MalformedAction(f"{name!r} must be given as text, e.g. QS")
    try:
        return parse_card(text)
    except CardError as exc:
        raise MalformedAction(f"{name!r}: {exc}") from None


class Game(Protocol):
    """What a game supplies to run live: its empty state, one event folded into a state, a view
    of the state, and its commands.

    ``apply`` takes every event the sitting logs, in order, and never raises: an event the rules
    refuse is recorded in the state it returns. The live table calls it once per new event, so
    the cost of a card does not grow with the length of the evening.
    """

    def initial(self) -> Any: ...

    def apply(self, state: Any, event: Event) -> Any: ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def command(self, state: Any, action: str, params: Mapping[str, Any]) -> list[Event]: ...


class EventSink(Protocol):
    session: str

    def append_many(self, events: Sequence[Event], keys: Sequence[str | None] | None = None,
                    *, expected_version: int | None = None) -> list[int]: ...

    def replay(self, from_seq: int = 0, session: str | None = None,
               ) -> Iterable[tuple[int, Event]]: ...

    def sessions(self) -> list[str]: ...

    def close(self) -> None: ...


T = TypeVar("T")

# Operator actions are logged under keys with this prefix, so that a writer can tell another
# operator's action from a fact of the table.
ACTION_KEY = "act/"
# Times an action is checked again when facts from the table keep arriving meanwhile.
ACT_ATTEMPTS = 5

# How often the live table looks for events other writers appended. Well inside the page's
# 100 ms event-to-screen budget, and a cheap indexed query on an idle log.
FOLLOW_INTERVAL = 0.02


class LiveTable:
    """One table's log and state, safe to share between the web server's threads.

    A SQLite connection belongs to the thread that opened it, so the log is opened, used and
    closed on one dedicated thread; callers from any thread wait for it there.
    """

    def __init__(self, open_log: Callable[[], EventSink], game: Game,
                 follow_interval: float = FOLLOW_INTERVAL,
                 open_sitting: Callable[[str], EventSink] | None = None) -> None:
        """``open_sitting``, when given, makes the table follow writers to new sittings: when
        a sitting starts in the log after this table looked (say `deal-deck` opened one), the
        table switches to it, opened with ``open_sitting(name)``."""
        self._io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tablescan-log")
        self._log = self._on_log_thread(open_log)
        self._open_sitting = open_sitting
        self._known_sittings = set(self._on_log_thread(self._log.sessions))
        self._game = game
        self._changed = threading.Condition()
        self._version = 0
        self._state = game.initial()
        self._catch_up()
        self._closed = threading.Event()
        self._follower = threading.Thread(target=self._follow, args=(follow_interval,),
                                          name="tablescan-follow", daemon=True)
        self._follower.start()

    @property
    def session(self) -> str:
        return self._log.session

    def close(self) -> None:
        self._closed.set()
        self._follower.join()
        self._on_log_thread(self._log.close)
        self._io.shutdown()

    def _follow(self, interval: float) -> None:
        while not self._closed.wait(interval):
            self._catch_up()

    def _catch_up(self) -> None:
        """Fold in what other writers appended to this sitting since our version."""
        with self._changed:
            if self._open_sitting is not None:
                self._follow_new_sitting(self._open_sitting)
            after = self._version + 1
            fresh = self._on_log_thread(
                lambda: list(self._log.replay(from_seq=after, session=self._log.session)))
            if not fresh:
                return
            for _, event in fresh:
                self._state = self._game.apply(self._state, event)
            self._version = fresh[-1][0]
            self._changed.notify_all()

    def _follow_new_sitting(self, open_sitting: Callable[[str], EventSink]) -> None:
        names = self._on_log_thread(self._log.sessions)
        new = [name for name in names if name not in self._known_sittings]
        self._known_sittings.update(new)
        if not new or new[-1] == self._log.session:
            return
        old, self._log = self._log, self._on_log_thread(lambda: open_sitting(new[-1]))
        self._on_log_thread(old.close)
        # Folded from the new sitting's first event by the catch-up that follows.
        self._version = 0
        self._state = self._game.initial()

    def _on_log_thread(self, work: Callable[[], T]) -> T:
        return self._io.submit(work).result()

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        with self._changed:
            return self._version, self._game.snapshot(self._state)

    @property
    def state(self) -> Any:
        with self._changed:
            return self._state

    def act(self, action: str, params: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        """Apply an operator's action, or raise ActionRefused/MalformedAction changing nothing.

        The action is checked against the state at our version and appended only if the
        sitting is still at that version, in one transaction. If facts from the table (cards
        read and dealt) came in meanwhile, the action is checked again against them; if
        another operator's action came in (a second server on the same log), this one is
        refused, not logged on top of a state its operator never saw.
        """
        with self._changed:
            for _ in range(ACT_ATTEMPTS):
                checked_at = self._version
                events = self._game.command(self._state, action, params)
                try:
                    self._append(events, key=f"{ACTION_KEY}{uuid.uuid4().hex}",
                                 expected_version=checked_at)
                except LogConflict as exc:
                    self._catch_up()
                    actions = [seq for seq, key in exc.gained
                               if key and key.startswith(ACTION_KEY)]
                    if actions:
                        raise ActionRefused(
                            f"the table changed while {action!r} was being checked: another "
                            f"operator's action was logged (event {actions[-1]}) after the "
                            f"state it was checked against (version {checked_at}). Nothing "
                            "was logged; look at the table again and repeat the action if "
                            "it still stands") from None
                    continue
                return self._version, self._game.snapshot(self._state)
            raise TableBusy(f"the table is changing too fast to check {action!r} against "
                                "it: nothing was logged; try again")

    def record(self, events: Iterable[Event], key: str | None = None) -> int:
        """Append events that happened at the table (cards read, delivered) and fold them in."""
        with self._changed:
            self._append(list(events), key)
            return self._version

    def wait_for_change(self, version: int, timeout: float) -> int:
        """Block until the log moves past ``version`` or the timeout ends; return the version."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout=timeout)
            return self._version

    def _append(self, events: list[Event], key: str | None = None,
                expected_version: int | None = None) -> None:
        keys = [f"{key}/{i}" if key else None for i in range(len(events))]
        self._on_log_thread(lambda: self._log.append_many(
            events, keys, expected_version=expected_version))
        # Read back from the log rather than trusting our own list: another writer may have
        # appended in between, and a keyed retransmission appends nothing.
        self._catch_up()
