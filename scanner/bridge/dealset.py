"""Deal sets: wholly random boards (Law 6E4), from the OS CSPRNG or from a published seed.

No deal is ever filtered by pattern: Law 6E4 asks for wholly random deals, and rejecting
"wild" hands would bias every set. Every deal is an unbiased Fisher–Yates shuffle of the
pack in card-index order (♠A…♠2, ♥A…♥2, ♦A…♦2, ♣A…♣2) — for i = 51 down to 1, swap card
i with card j = randbelow(i + 1) — after which North takes positions 0–12, East 13–25,
South 26–38 and West 39–51. Dealer and vulnerability follow from the board number.

``randbelow`` comes from one of two sources:

* ``secrets.randbelow`` (the OS CSPRNG), the default;
* a seeded stream, so a set can be re-derived and audited after play. For board *b* and
  seed text *s* (UTF-8 bytes), block *k* (k = 0, 1, 2, …) is

      SHA-256( b"tablescan-deal-v1" ‖ u32be(len(s)) ‖ s ‖ u32be(b) ‖ u64be(k) )

  Each 32-byte block is read as eight big-endian 32-bit words, in order. ``randbelow(n)``
  takes the next word w and accepts it when w < 2**32 − (2**32 mod n), returning w mod n;
  otherwise it rejects w and takes the next word, so every value is equally likely.

Publishing SHA-256(s) before play commits the director to the seed without revealing it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable

from ..cards import ALL_CARDS
from .board import HAND_SIZE, Board, Hand

DOMAIN = b"tablescan-deal-v1"
WORD_BYTES = 4
WORD_RANGE = 1 << 32

RandBelow = Callable[[int], int]


class SeededStream:
    """Unbiased integers for one board, derived from a published seed by SHA-256."""

    def __init__(self, seed: str, board: int) -> None:
        seed_bytes = seed.encode("utf-8")
        self._prefix = (DOMAIN + len(seed_bytes).to_bytes(4, "big") + seed_bytes
                        + board.to_bytes(4, "big"))
        self._counter = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._words = [int.from_bytes(block[i:i + WORD_BYTES], "big")
                           for i in range(len(block) - WORD_BYTES, -1, -WORD_BYTES)]
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"randbelow needs n ≥ 1, not {n}")
        limit = WORD_RANGE - WORD_RANGE % n
        while True:
            word = self._next_word()
            if word < limit:
                return word % n


def shuffled_deal(randbelow: RandBelow) -> tuple[Hand, Hand, Hand, Hand]:
    """One wholly random deal: Fisher–Yates over the pack, then 13 cards to each seat."""
    pack = list(ALL_CARDS)
    for i in range(len(pack) - 1, 0, -1):
        j = randbelow(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    hands = [tuple(sorted(pack[k:k + HAND_SIZE], key=lambda c: c.index))
             for k in range(0, len(pack), HAND_SIZE)]
    return (hands[0], hands[1], hands[2], hands[3])


def generate(numbers: Iterable[int], seed: str | None = None) -> list[Board]:
    """Boards ``numbers``, each a wholly random deal: from the OS CSPRNG, or from ``seed``."""
    boards = []
    for number in numbers:
        randbelow = secrets.randbelow if seed is None else SeededStream(seed, number).randbelow
        boards.append(Board.standard(number, shuffled_deal(randbelow)))
    return boards


def seed_commitment(seed: str) -> str:
    """SHA-256 of the seed, hex: publish it before play, the seed itself after."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
