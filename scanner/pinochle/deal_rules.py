"""Pinochle's rules of the deal, as data for the deal tracker.

Source: the table rules of partnership pinochle, "Setup & Deal" (shuffle and cut, the deal,
stick the dealer). Every card is dealt, twelve
to each player, no widow; the dealer distributes clockwise starting at the dealer's left, in
packets of the agreed size (three by default) used consistently. A fault found before bidding
ends means gathering the cards and redealing with the same dealer; found later, the table's
correction policy applies.
"""

from __future__ import annotations

from ..cards import PINOCHLE_48
from ..events import TrumpNamed
from ..rules import SAME, DealRules, Fault, SortedPattern, rank_of, suit_of
from ..verdicts import CORRECTION_POLICY, NEEDS_REREAD, OK, REDEAL_SAME_DEALER

THE_DEAL = "Setup & Deal: The deal"
SHUFFLE_AND_CUT = "Setup & Deal: Shuffle and cut"

# Packets that divide a twelve-card hand evenly: the only sizes that can be "used consistently".
PACKET_SIZES = (1, 2, 3, 4, 6)
DEFAULT_PACKET = 3

_REDEAL = Fault(THE_DEAL, REDEAL_SAME_DEALER, CORRECTION_POLICY)

FAULTS = {
    "packet-size": _REDEAL,
    "first-packet-seat": Fault(SHUFFLE_AND_CUT, REDEAL_SAME_DEALER, CORRECTION_POLICY),
    "rotation": Fault(SHUFFLE_AND_CUT, REDEAL_SAME_DEALER, CORRECTION_POLICY),
    "exposed": _REDEAL,
    "count": _REDEAL,
    "missing": _REDEAL,
    "extra-copy": _REDEAL,
    "foreign": _REDEAL,
    "unread": Fault(THE_DEAL, NEEDS_REREAD, NEEDS_REREAD),
    "late-card": Fault(THE_DEAL, CORRECTION_POLICY, CORRECTION_POLICY),
    "unshuffled": Fault(SHUFFLE_AND_CUT, REDEAL_SAME_DEALER, CORRECTION_POLICY),
    # The pinochle rules say nothing about a deal seen in an earlier sitting.
    "repeat": Fault(THE_DEAL, OK, OK),
}

# A shuffled 48-card pinochle deck shows about 11 same-suit and 7 same-rank neighbours in 47;
# a deck sorted by suit shows 44, one sorted by rank 42.
SORTED_PATTERNS = (
    SortedPattern("sorted by suit", suit_of(PINOCHLE_48), SAME, min_pairs=30, shuffled_mean=11.0),
    SortedPattern("sorted by rank", rank_of(PINOCHLE_48), SAME, min_pairs=26, shuffled_mean=7.0),
)

PINOCHLE_DEAL_RULES = DealRules(
    game="pinochle",
    deck=PINOCHLE_48,
    deal_rule=THE_DEAL,
    marker="bidding-ended",
    after_markers=frozenset({"bidding-ended"}),
    after_event_types=(TrumpNamed,),
    packet_sizes=PACKET_SIZES,
    default_packet=DEFAULT_PACKET,
    faults=FAULTS,
    sorted_patterns=SORTED_PATTERNS,
    checks_repeats=False,
)
