"""Real deck designs as vector art: the SVG decks Debian ships, rasterised card by card.

    python -m scanner.vision.training.svg_decks --out DIR

``kdegames-card-data-kf5`` (``/usr/share/carddecks/svg-*``) and ``gnome-cards-data``
(``/usr/share/aisleriot/cards``) hold about 45 decks drawn after real patterns (anglo,
bellot, paris, dondorf, berlin, tigullio, …), each one SVG with every card, the jokers and
a back as named objects. ``rsvg-convert`` (Debian ``librsvg2-bin``) draws one object at a
time; the card is cut out by its alpha and saved as ``DIR/DECK/CARD.png`` (``back.png``,
``joker.png``), so the training scripts read plain images. Training only: nothing at the
table reads an SVG.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from ...cards import Card, Rank, Suit

DECK_FOLDERS = (Path("/usr/share/carddecks"), Path("/usr/share/aisleriot/cards"))
DEBIAN_PACKAGES = ("librsvg2-bin", "kdegames-card-data-kf5", "gnome-cards-data")
CARD_HEIGHT = 420  # pixels of a rasterised card: more than the reader's canonical 360

_SUIT_WORDS = {"spade": Suit.S, "heart": Suit.H, "diamond": Suit.D, "club": Suit.C}
_RANK_WORDS = {"1": Rank.A, "king": Rank.K, "queen": Rank.Q, "jack": Rank.J, "10": Rank.T,
               **{str(n): Rank(str(n)) for n in range(2, 10)}}
_CARD_ID = re.compile(r"(?:(?P<s1>spade|heart|diamond|club)_(?P<r1>\d+|king|queen|jack)"
                      r"|(?P<r2>\d+|king|queen|jack)_(?P<s2>spade|heart|diamond|club))")


@dataclass(frozen=True)
class SvgDeck:
    name: str  # unique: the package's folder for KDE decks, the file's stem for GNOME's
    path: Path


def installed_decks() -> list[SvgDeck]:
    """Every SVG deck installed, by a name unique across both packages."""
    decks = []
    for path in sorted(Path("/usr/share/carddecks").glob("svg-*/*.svg*")):
        decks.append(SvgDeck(path.parent.name.removeprefix("svg-"), path))
    for path in sorted(Path("/usr/share/aisleriot/cards").glob("*.svg*")):
        decks.append(SvgDeck(f"gnome-{path.name.split('.')[0]}", path))
    return decks


def card_ids(svg_text: str) -> dict[str, str]:
    """File name (``AS.png``, ``back.png``, ``joker.png``) → object id, for the cards found."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg_text))
    out: dict[str, str] = {}
    for object_id in ids:
        m = _CARD_ID.fullmatch(object_id)
        if m is None:
            continue
        suit = _SUIT_WORDS[m["s1"] or m["s2"]]
        rank = _RANK_WORDS.get(m["r1"] or m["r2"])
        if rank is not None:
            out[f"{Card(rank, suit)}.png"] = object_id
    if "back" in ids:
        out["back.png"] = "back"
    joker = next((j for j in ("joker_black", "black_joker", "joker") if j in ids), None)
    if joker is not None:
        out["joker.png"] = joker
    return out


def _render(svg: Path, object_id: str, zoom: float) -> np.ndarray | None:
    """The object drawn alone at ``zoom``, cut to its alpha's box (BGRA), or None."""
    done = subprocess.run(["rsvg-convert", "-i", object_id, "-z", f"{zoom:.4f}", str(svg)],
                          capture_output=True, check=False)
    if done.returncode != 0 or not done.stdout:
        return None
    img = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    ys, xs = np.nonzero(img[..., 3] > 8)
    if len(xs) == 0:
        return None
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _rasterise(job: tuple[SvgDeck, Path]) -> tuple[str, int]:
    deck, out = job
    folder = out / deck.name
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "deck.svg"
        raw = deck.path.read_bytes()
        svg.write_bytes(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        ids = card_ids(svg.read_text(errors="replace"))
        probe = _render(svg, ids.get("KS.png", next(iter(ids.values()), "")), 1.0)
        if probe is None:
            return deck.name, 0
        zoom = CARD_HEIGHT / max(probe.shape[0], probe.shape[1])
        folder.mkdir(parents=True, exist_ok=True)
        written = 0
        for name, object_id in ids.items():
            img = _render(svg, object_id, zoom)
            # A card object is the card: about 0.55–0.8 as wide as tall. Anything else is a
            # part of one (a lone pip, a picture) and is no card to learn from.
            if img is None or not 0.5 <= img.shape[1] / img.shape[0] <= 0.85:
                continue
            cv2.imwrite(str(folder / name), img)
            written += 1
    return deck.name, written


def _have_tools() -> bool:
    return shutil.which("rsvg-convert") is not None and all(d.exists() for d in DECK_FOLDERS)


def check_tools() -> None:
    """Install the Debian packages the decks and rsvg-convert come from, when missing."""
    install_debian_packages(DEBIAN_PACKAGES, _have_tools)


def install_debian_packages(packages: tuple[str, ...], present: Callable[[], bool]) -> None:
    """Install ``packages`` when what they bring is not ``present`` (as root, or through
    sudo); a machine where that cannot be done is told what to install."""
    if present():
        return
    as_root = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if shutil.which("apt-get") and (not as_root or shutil.which("sudo")):
        print("installing " + " ".join(packages), file=sys.stderr)
        subprocess.run([*as_root, "apt-get", "update", "-qq"], check=False)
        subprocess.run([*as_root, "apt-get", "install", "-y", "--no-install-recommends",
                        *packages], check=False)
    if not present():
        raise SystemExit("needs Debian packages: apt-get install -y " + " ".join(packages))


def rasterise_all(out: Path, workers: int = 2) -> Iterator[tuple[str, int]]:
    check_tools()
    jobs = [(deck, out) for deck in installed_decks()]
    with Pool(workers) as pool:
        yield from pool.imap_unordered(_rasterise, jobs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for DECK/CARD.png")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    for name, written in rasterise_all(args.out, args.workers):
        print(f"{name}: {written} images", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
