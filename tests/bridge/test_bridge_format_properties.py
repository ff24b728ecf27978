"""Properties that hold for any deal, not only the fixture's: every writer's output reads back
as the same deals, and a large file is read as a stream."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scanner.bridge.dealset import generate
from scanner.bridge.formats import load, read_boards, write_boards

SEEDS = st.text(min_size=1, max_size=12)
FIRST = st.integers(min_value=1, max_value=80)


def deals(boards) -> list[tuple]:
    return [(b.number, b.dealer, b.vulnerability, b.complete_hands()) for b in boards]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, first=FIRST, count=st.integers(min_value=1, max_value=20))
def test_any_set_survives_every_writer_and_reader(seed: str, first: int, count: int) -> None:
    boards = generate(range(first, first + count), seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("pbn", "dlm", "dup"):
            path = Path(tmp) / f"set.{ext}"
            write_boards(path, boards)
            assert deals(read_boards(path)) == deals(boards), ext


def test_reading_is_a_stream_that_yields_boards_before_the_end_of_the_file(
        tmp_path: Path) -> None:
    path = tmp_path / "big.pbn"
    write_boards(path, generate(range(1, 3), seed="stream"))
    with path.open("a") as out:
        out.write('\n[Board "3"]\n[Deal "N:this is not a deal"]\n')
    boards = read_boards(path)
    assert next(boards).number == 1  # read before the damaged game is reached
    assert next(boards).number == 2


def test_dlm_with_bare_line_feeds_still_reads(fixtures: Path, tmp_path: Path) -> None:
    text = (fixtures / "test.dlm").read_bytes().replace(b"\r\n", b"\n")
    (tmp_path / "lf.dlm").write_bytes(text)
    loaded = load(tmp_path / "lf.dlm")
    assert not loaded.damage and len(loaded.boards) == 16
