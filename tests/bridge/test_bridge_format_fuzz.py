"""Whatever bytes a file holds, a reader reports damage; it never crashes. (A crash at the
dealing machine loses the operator's place; a damage report names the board to look at.)"""

from __future__ import annotations

import tempfile
from argparse import ArgumentTypeError
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scanner.app.arguments import board_numbers
from scanner.bridge.formats import FORMATS, load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deal-convert"


def read_any(data: bytes, ext: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"x{ext}"
        path.write_bytes(data)
        for strict in (True, False):
            loaded = load(path, strict=strict)
            for damage in loaded.damage:
                assert damage.problem and damage.where


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=600), ext=st.sampled_from(sorted(FORMATS)))
def test_random_bytes_never_crash_a_reader(data: bytes, ext: str) -> None:
    read_any(data, ext)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ext=st.sampled_from(sorted(FORMATS)), cut=st.integers(0, 3000),
       flips=st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 255)), max_size=4))
def test_damaged_fixtures_never_crash_a_reader(ext: str, cut: int,
                                               flips: list[tuple[int, int]]) -> None:
    source = FIXTURES / f"test{ext}"
    data = bytearray(source.read_bytes())
    for position, value in flips:
        if data:
            data[position % len(data)] = value
    read_any(bytes(data[:cut] if cut < len(data) else data), ext)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from('[]"{}%;\n NESWnesw:.-?0123456789AKQJTx²١'
                                            'BoardDealVulnerable'), max_size=300))
def test_pbn_like_text_never_crashes_the_pbn_reader(text: str) -> None:
    read_any(text.encode("utf-8"), ".pbn")


NOT_ASCII_DIGITS = {
    # str.isdigit() accepts these; int() refuses them.
    ".pbn": '[Board "²"]\n[Deal "N:- - - -"]\n'.encode(),
    ".lin": "qx|o²|md|3SA,,,|\n".encode(),
    ".csv": ('"",' * 16 + '"²","N/-"\n').encode(),
    ".dlm": b"[Document]\r\nStatus=Show\r\nDuplicates=\xb2\r\nFrom board=1\r\nTo board=1\r\n"
            b"Checksum=1\r\n",
}


@pytest.mark.parametrize("ext", sorted(FORMATS))
def test_bytes_no_code_page_defines_are_damage_not_a_crash(ext: str) -> None:
    data = (FIXTURES / f"test{ext}").read_bytes()
    read_any(data[:20] + bytes([0x81, 0x8D, 0x8F, 0x90, 0x9D]) + data[20:], ext)


def test_digits_that_are_not_ascii_are_damage_not_a_crash(tmp_path: Path) -> None:
    for ext, data in NOT_ASCII_DIGITS.items():
        (tmp_path / f"x{ext}").write_bytes(data)
        assert load(tmp_path / f"x{ext}").damage, ext
    dup = bytearray((FIXTURES / "test.dup").read_bytes())
    dup[0] = 0xB2  # '²' in Latin-1, where a BRI card number belongs
    (tmp_path / "x.dup").write_bytes(bytes(dup))
    [damage] = load(tmp_path / "x.dup").damage
    assert damage.board == 1 and "not a card number" in damage.problem


def test_board_range_with_non_ascii_digits_is_refused() -> None:
    with pytest.raises(ArgumentTypeError, match="not a whole number"):
        board_numbers("1-³²")
