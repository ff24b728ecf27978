"""Over a line that corrupts 1 % of the bytes both ways, with the host retransmitting, every
card still lands in the pocket it was routed to, once (PROTOCOL.md §2)."""

from __future__ import annotations

from scanner.app.firmware_wire import DONE, FEED, ROUTE, NoisyLink, ShoeTarget

CARDS = ["AS", "KH", "TD", "QC", "9S", "8H", "7D", "6C", "5S", "4H", "3D", "2C"]


def test_corrupted_bytes_never_misroute_or_double_drop_a_card(noisy_shoe: ShoeTarget) -> None:
    link = NoisyLink(noisy_shoe, corruption=0.01, seed=4)
    link.identify()
    plan = {pocket: [] for pocket in "NESW"}
    for index, card in enumerate(CARDS):
        assert link.act(bytes((FEED,))).payload[0] == DONE, card
        pocket = index % 4
        done = link.act(bytes((ROUTE, pocket)))
        assert done.payload[0] == DONE, card
        plan["NESW"[pocket]].append(card)
        assert done.payload[4] == len(plan["NESW"[pocket]])
    expected = " ".join(f"{p}:{','.join(cards)}" for p, cards in plan.items())
    assert noisy_shoe.control("pockets") == f"ok {expected}"


def test_heavy_corruption_makes_the_host_retransmit(noisy_shoe: ShoeTarget) -> None:
    link = NoisyLink(noisy_shoe, corruption=0.05, seed=11)
    link.identify()
    for _ in range(3):
        assert link.act(bytes((FEED,))).payload[0] == DONE
        assert link.act(bytes((ROUTE, 2))).payload[0] == DONE
    assert link.retransmits > 0
    assert noisy_shoe.control("pockets") == "ok N: E: S:AS,KH,TD W:"
