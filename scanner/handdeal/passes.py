"""Card passes at a reading shoe: the run of frames in which one draw shows in the window.

A reading shoe is a card box the dealer draws from, with a camera at its mouth: each card's
face passes the lens once on its way to a player, face down. In the camera's stream a draw
is a run of frames with something in the window, and an empty window separates two draws.
A run is judged as a whole, from every frame's reading:

* it names one card: that card (the frames that abstained only lost sight of it);
* it names two or more cards: two cards left the shoe in one draw (a double draw);
* it shows only a back: the card lies the wrong way round in the shoe;
* it names nothing: the card is unreadable. Nothing is ever guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..cards import Card
from ..vision.reading import Reading


@dataclass(frozen=True)
class CardPass:
    """One draw past the reading shoe's camera, judged from all its frames."""

    face: str  # "up": a face was seen; "down": only a back
    card: Card | None  # the card named in most frames; None when none was named
    confidence: float
    others: tuple[Card, ...]  # further cards named in the same draw
    first_frame: int
    last_frame: int

    @property
    def double_draw(self) -> bool:
        return bool(self.others)


class PassTracker:
    """Feed it one reading per frame; it hands back each pass as the window empties."""

    def __init__(self) -> None:
        self._run: list[tuple[int, Reading]] = []

    @property
    def in_window(self) -> bool:
        """Whether a draw is in the window now."""
        return bool(self._run)

    def feed(self, frame: int, reading: Reading) -> CardPass | None:
        if reading.face != "none":
            self._run.append((frame, reading))
            return None
        return self.flush()

    def flush(self) -> CardPass | None:
        """The pass in the window, if any, as if the window had emptied (the source ended)."""
        run, self._run = self._run, []
        return judge(run) if run else None


def judge(run: list[tuple[int, Reading]]) -> CardPass:
    """What one run of frames showed: see the module docstring."""
    named = Counter(r.card for _, r in run if r.face == "up" and r.card is not None)
    first, last = run[0][0], run[-1][0]
    if not named:
        face = "up" if any(r.face == "up" for _, r in run) else "down"
        confidence = max(r.confidence for _, r in run)
        return CardPass(face, None, confidence, (), first, last)
    # Most frames first; the earliest seen breaks a tie, so the order is the draw's.
    order = {card: i for i, (_, r) in reversed(list(enumerate(run))) for card in [r.card]}
    cards = sorted(named, key=lambda c: (-named[c], order[c]))
    card = cards[0]
    confidence = max(r.confidence for _, r in run if r.card == card)
    return CardPass("up", card, confidence, tuple(cards[1:]), first, last)
