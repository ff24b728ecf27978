"""A pinochle table backed by the event log: what the web page and the demo drive.

Two ways in, because the log records two kinds of event:
- ``observe`` takes what the table *saw* (a card dealt, a card exposed). It is logged first and
  folded after; if the rules refuse it, the refusal is shown in ``state.refused``, and the fact
  stays in the log.
- ``command`` takes what the operator *asks* (bid, pass, trump, counters, redeal, next hand,
  undo). It is checked against the state first; a refused command raises ``GameError`` and is
  neither logged nor applied.
Either way the state is ``fold(log)``: a restarted process rebuilds exactly the same table.
"""

from __future__ import annotations

from ..events import Event
from ..log import EventLog
from .options import DEFAULT_OPTIONS, TableOptions
from .table import TableState, apply, fold


class TableSession:
    """One sitting at the table: the log's session and the state folded from it."""

    def __init__(self, log: EventLog, options: TableOptions = DEFAULT_OPTIONS) -> None:
        self.log = log
        self.options = options
        self.state: TableState = fold(
            (event for _, event in log.replay(session=log.session)), options)

    def observe(self, event: Event) -> TableState:
        """Log a fact from the table, then fold it in."""
        self.log.append(event)
        self.state = fold_one(self.state, event)
        return self.state

    def command(self, event: Event) -> TableState:
        """Apply an operator's action if the rules allow it (GameError if not), then log it."""
        state = apply(self.state, event)
        self.log.append(event)
        self.state = state
        return self.state


def fold_one(state: TableState, event: Event) -> TableState:
    """``fold`` for one more event: a refusal is recorded in the state, not raised."""
    return fold([event], state.options, start=state)
