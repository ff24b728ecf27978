"""The virtual deck file every simulated shoe loads: one card per line, top card first.

``AS`` is a card face up (as a shoe deals it), ``AS down`` a card that sits face down in the
hopper. Blank lines and ``#`` comments are ignored. Errors name the file and the line, never
what the line holds: a simulator's control channel loads whatever path it is sent, and its
error must not show a stranger the first line of someone else's file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..cards import Card, CardError, parse_card

FACES = ("up", "down")
# Two decks' worth of lines with room for comments; a longer file is not a deck.
MAX_DECK_BYTES = 64 * 1024


class VirtualDeckError(ValueError):
    """A deck file that cannot be loaded; the message names the file and line."""


@dataclass(frozen=True)
class DeckCard:
    """One physical card of the virtual deck and which way up it lies."""

    card: Card
    face: str = "up"

    def __str__(self) -> str:
        return f"{self.card} {self.face}"


def parse_virtual_deck(text: str, source: str = "<deck>") -> list[DeckCard]:
    cards: list[DeckCard] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        try:
            if len(tokens) > 2 or (len(tokens) == 2 and tokens[1].lower() not in FACES):
                raise CardError("too many words")
            card = parse_card(tokens[0])
        except CardError:
            raise VirtualDeckError(
                f"{source}, line {number}: not a card: expected a card, optionally followed "
                "by 'down' (e.g. 'AS' or 'AS down')") from None
        face = tokens[1].lower() if len(tokens) == 2 else "up"
        cards.append(DeckCard(card, face))
    return cards


def load_virtual_deck(path: str | Path) -> list[DeckCard]:
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        raise VirtualDeckError(f"cannot read deck file {str(path)!r}: "
                               f"{exc.strerror or exc}") from None
    if len(data) > MAX_DECK_BYTES:
        raise VirtualDeckError(f"deck file {str(path)!r} is over {MAX_DECK_BYTES} bytes: "
                               "not a deck")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise VirtualDeckError(f"deck file {str(path)!r} is not UTF-8 text") from None
    return parse_virtual_deck(text, str(path))


def format_virtual_deck(cards: list[DeckCard]) -> str:
    return "".join(f"{c.card}{' down' if c.face == 'down' else ''}\n" for c in cards)
