"""Trick play, for the simulated table: the legal cards on each turn, tricks, and counters.

The rules of play are the common ones for partnership pinochle (the table's rule text stops
at the opening lead, so these are the reference's background rules):
- the player to the dealer's left leads the first trick; the winner of a trick leads the next;
- a player must follow suit, and must play a card that beats the trick if one can;
- a player who cannot follow suit must trump, beating any trump already played if one can;
  with neither, any card;
- the highest trump wins, else the highest card of the suit led; of two identical cards, the
  one played first wins.
Counters are what ``TableOptions.counters`` says (modern: A, 10, K one each; last trick one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card, Rank, Seat, Suit
from .meld import side_of
from .options import CounterScale
from .scoring import SIDES, Taken

# Play order, high to low.
PLAY_ORDER: tuple[Rank, ...] = (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J, Rank.R9)
_STRENGTH = {rank: len(PLAY_ORDER) - i for i, rank in enumerate(PLAY_ORDER)}


@dataclass(frozen=True)
class Trick:
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat


def beats(card: Card, best: Card, led: Suit, trump: Suit) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (an equal card does not)."""
    if card.suit == best.suit:
        return _STRENGTH[card.rank] > _STRENGTH[best.rank]
    return card.suit == trump


def winning_card(played: Sequence[Card], trump: Suit) -> int:
    """Index of the card that is winning the trick so far."""
    led = played[0].suit
    best = 0
    for i, card in enumerate(played[1:], start=1):
        if beats(card, played[best], led, trump):
            best = i
    return best


def legal_cards(hand: Sequence[Card], played: Sequence[Card], trump: Suit) -> list[Card]:
    """The cards the rules allow from ``hand`` onto a trick holding ``played``."""
    if not played:
        return list(hand)
    led = played[0].suit
    best = played[winning_card(played, trump)]
    following = [c for c in hand if c.suit == led]
    if following:
        if best.suit != led:  # trumped already: following suit cannot win, any of them will do
            return following
        winners = [c for c in following if beats(c, best, led, trump)]
        return winners or following
    trumps = [c for c in hand if c.suit == trump]
    if trumps:
        winners = [c for c in trumps if beats(c, best, led, trump)]
        return winners or trumps
    return list(hand)


# A strategy picks one of the legal cards: (hand, legal, played so far, seats so far, trump).
Strategy = Callable[[Sequence[Card], Sequence[Card], Sequence[Card], Sequence[Seat], Suit], Card]


def simple_strategy(hand: Sequence[Card], legal: Sequence[Card], played: Sequence[Card],
                    seats: Sequence[Seat], trump: Suit) -> Card:
    """Lead high; take the trick cheaply when the partner is not already winning it; else
    play low. Plain heuristics, meant to give plausible counters, not good play."""
    def strength(card: Card) -> tuple[int, int]:
        return (card.suit == trump, _STRENGTH[card.rank])

    if not played:
        return max(legal, key=lambda c: (_STRENGTH[c.rank], c.suit != trump))
    best = winning_card(played, trump)
    partner_winning = seats[best] == seats[-1].left.partner if seats else False
    winners = [c for c in legal if beats(c, played[best], played[0].suit, trump)]
    if winners and not partner_winning:
        return min(winners, key=strength)
    return min(legal, key=strength)


def play_hand(hands: Mapping[Seat, Sequence[Card]], trump: Suit, leader: Seat,
              counters: CounterScale, strategy: Strategy = simple_strategy,
              ) -> tuple[dict[str, Taken], list[Trick]]:
    """Play all tricks out; return each side's counters and tricks, and the tricks."""
    held = {seat: list(cards) for seat, cards in hands.items()}
    tricks: list[Trick] = []
    points = {side: 0 for side in SIDES}
    won = {side: 0 for side in SIDES}
    n_tricks = len(next(iter(held.values())))
    for number in range(n_tricks):
        seats = list(leader.clockwise_from())
        played: list[Card] = []
        for seat in seats:
            legal = legal_cards(held[seat], played, trump)
            card = strategy(held[seat], legal, played, seats[:len(played)], trump)
            if card not in legal:
                raise ValueError(f"{seat} played {card}, which the rules do not allow now")
            held[seat].remove(card)
            played.append(card)
        winner = seats[winning_card(played, trump)]
        side = side_of(winner)
        won[side] += 1
        points[side] += sum(counters.per_rank.get(card.rank, 0) for card in played)
        if number == n_tricks - 1:
            points[side] += counters.last_trick
        tricks.append(Trick(leader, tuple(zip(seats, played, strict=True)), winner))
        leader = winner
    return {side: Taken(points[side], won[side]) for side in SIDES}, tricks
