"""What the middle of a card says: a second witness to what its corner indices say.

The middle of a number card repeats its index large: as many pips as its rank, in its suit's
shape. A blurred index is read by a few pixels (a spade and a club differ there by one or
two); the middle's pips are several times larger and stay apart under the same blur. The
readers ask the middle only when the corners leave room for doubt; it settles that doubt or
vetoes, and never names a card the corners do not already hold likely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..cards import Card, Rank, Suit
from .glyphs import GlyphMatch, GlyphModel, agreed
from .pip_net import PipReader, default_pip_reader
from .pips import pip_matches_of

PIP_SURE = 0.95  # how sure all the pips together must be of their suit to count
# How sure the one pip of a court card or an ace must be of its suit to settle which of
# two suits its corners split between. A pip the net names counts at the net's own
# probability, which cleared the threshold no calibration pip was named wrongly at, so it
# is sure enough alone; glyph templates (a learnt deck's) are at 0.5 at their threshold,
# and a lone pip they name must be surer still. An ace's pip is the largest on any card.
LONE_PIP_SURE = 0.85
PIPS_OF_RANK = MappingProxyType({
    Rank.A: 1, Rank.T: 10, Rank.R9: 9, Rank.R8: 8, Rank.R7: 7, Rank.R6: 6, Rank.R5: 5,
    Rank.R4: 4, Rank.R3: 3, Rank.R2: 2})
COURT_PIPS = 2  # a court card's picture holds a pip or two, never a field of them


@dataclass(frozen=True)
class Middle:
    """The suit all the middle's pips agree on surely (None if they do not), how many
    pip-sized shapes it holds, how many of those look like a suit's pip, and the suit of
    the one pip an ace or a court card's picture holds, when that is all the middle
    shows."""

    suit: Suit | None
    shapes: int
    pips: int
    lone_suit: Suit | None = None  # the suit of a lone pip, sure as ``LONE_PIP_SURE``

    def fits(self, rank: Rank) -> bool:
        """Whether the middle fits the rank: exactly a number card's count of pips, or no
        more pips than a court card's picture holds (an 8 blurred to look like a Dutch B
        shows eight)."""
        if rank in PIPS_OF_RANK:
            return self.shapes == PIPS_OF_RANK[rank]
        return self.pips <= COURT_PIPS

    def shows(self, card: Card) -> bool:
        """Whether the middle shows exactly this number card: its count of pips, surely
        in its suit."""
        return card.rank in PIPS_OF_RANK and self.suit == card.suit and self.fits(card.rank)

    def rules_out(self, card: Card | None) -> bool:
        """Whether the middle contradicts the card: pips sure of another suit, or a count of
        them that no such card shows."""
        if card is None:
            return True
        return (self.suit is not None and self.suit != card.suit) or not self.fits(card.rank)

    def vetoes(self, card: Card) -> bool:
        """Whether the middle forbids naming the card: it shows another suit for the card's
        rank (``suit_for``: the lone pip of an ace or a court card counts), or the card is
        a court card and the middle holds a field of pips. A number card's count is no
        veto: a blurred pip missed or two merged would stop right reads."""
        seen = self.suit_for(card.rank)
        return ((seen is not None and seen != card.suit)
                or (card.rank not in PIPS_OF_RANK and not self.fits(card.rank)))

    def suit_for(self, rank: Rank) -> Suit | None:
        """The suit the middle shows for a card of this rank: the lone pip of a court card
        or of an ace counts at its own sureness. An ace's is its lone pip or nothing: an
        ace's large club whose lobes part is three diamonds and a stem, not diamonds."""
        if rank == Rank.A or (self.suit is None and rank not in PIPS_OF_RANK):
            return self.lone_suit
        return self.suit


def look_at_middle(card: np.ndarray, model: GlyphModel | PipReader | None = None) -> Middle:
    """The middle of a canonical card, its pips read by ``model``: the shipped pip net
    unless given (a bench may give glyph templates built without a style)."""
    return look_at_middles([card], model)[0]


def look_at_middles(cards: Sequence[np.ndarray], model: GlyphModel | PipReader | None = None
                    ) -> list[Middle]:
    """``look_at_middle`` for each of several cards at once."""
    return [_middle(matches) for matches in pip_matches_of(cards, model or default_pip_reader())]


def _middle(matches: list[GlyphMatch]) -> Middle:
    shape = agreed(matches)
    suit = shape.meaning if shape is not None and shape.confidence >= PIP_SURE else None
    named = [m for m in matches if m.meaning is not None]
    lone = named[0].meaning if len(named) == 1 and named[0].confidence >= LONE_PIP_SURE else None
    return Middle(suit if isinstance(suit, Suit) else None, len(matches), len(named),
                  lone if isinstance(lone, Suit) else None)
