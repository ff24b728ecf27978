"""The renderer as a camera at the read station: each card of a list, then an empty window,
as frames of the same kind as a real source's (``sources.Frame``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ...cards import DECK_FOR_GAME, Card
from ..frames import Frame, SourceError
from . import render


@dataclass
class RenderedCamera:
    """The renderer as a camera at the read station: each card, then an empty window."""

    cards: Sequence[Card | None]
    style: str
    seed: int = 0
    back: str | None = None
    perturb: dict[str, float] = field(default_factory=dict)
    fps: float = 30.0
    frames_per_card: int = 2
    one_card_per_frame: bool = False
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.style not in render.STYLES:
            raise SourceError(f"virtual camera: unknown style {self.style!r}; "
                              f"known: {', '.join(render.STYLES)}")
        self.name = f"virtual:{self.style}"

    def frames(self) -> Iterator[Frame]:
        index = 0
        for n, card in enumerate(self.cards):
            for k in range(self.frames_per_card):
                image = render.render_station_frame(
                    card, self.style, seed=self.seed + 1000 * n + k, back=self.back,
                    perturb=self.perturb)
                yield Frame(image, index / self.fps, index, f"{self.name}#{n}")
                index += 1
            empty = render.render_station_frame(None, self.style, seed=self.seed + 1000 * n,
                                                empty=True, perturb=self.perturb)
            yield Frame(empty, index / self.fps, index, f"{self.name}#gap{n}")
            index += 1


def rendered_camera(spec: str) -> RenderedCamera:
    parts = spec.split(":")[1:]
    if not parts or not parts[0]:
        raise SourceError(f"source {spec!r}: expected virtual:STYLE[:DECK][:seed=N][:back=NAME]")
    style, options = parts[0], parts[1:]
    deck = DECK_FOR_GAME["bridge"]
    seed, back = 0, None
    for option in options:
        key, _, value = option.partition("=")
        if option in DECK_FOR_GAME:
            deck = DECK_FOR_GAME[option]
        elif key == "seed" and value.isdigit():
            seed = int(value)
        elif key == "back" and value in render.BACKS:
            back = value
        else:
            raise SourceError(f"source {spec!r}: unknown option {option!r} (DECK is one of "
                              f"{', '.join(DECK_FOR_GAME)}; seed=N; back=NAME)")
    return RenderedCamera(deck.cards(), style, seed=seed, back=back)
