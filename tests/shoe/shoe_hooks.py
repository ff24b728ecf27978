"""Hooks for ``run_deal``'s ``on_shoe``: faults struck at a chosen card of the deal."""

from __future__ import annotations

from collections.abc import Callable


def before_route(number: int, action: Callable[[], object]) -> Callable[[object], None]:
    """``action`` runs just before the driver routes card ``number`` (counting from 1), so
    a fault lands mid-deck however fast the target deals."""
    def hook(shoe) -> None:
        route = shoe.route
        calls = []

        def counted_route(pocket):
            calls.append(pocket)
            if len(calls) == number:
                action()
            return route(pocket)

        shoe.route = counted_route
    return hook
