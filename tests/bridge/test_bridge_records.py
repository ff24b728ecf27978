"""Hand records: every board's diagram, number, dealer and vulnerability; escaped text;
suits told apart by symbol and name, not colour alone; a 32-board set on six A4 pages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scanner.bridge.board import Board
from scanner.bridge.dealset import generate
from scanner.bridge.formats import read_boards, write_boards
from scanner.bridge.formats.reading import SetInfo
from scanner.bridge.records import render
from scanner.cards import ALL_CARDS
from scanner.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_every_board_shows_number_dealer_and_vulnerability(fixtures: Path) -> None:
    html = render(read_boards(fixtures / "test.pbn"), "Club")
    for number, dealer, vul in ((1, "North", "None"), (2, "East", "N-S"), (3, "South", "E-W"),
                                (4, "West", "All"), (16, "West", "E-W")):
        assert f"Board {number} <span class=\"facts\">Dealer {dealer} · Vulnerable {vul}" in html


def test_each_board_has_all_four_hands_with_ten_written_as_10(fixtures: Path) -> None:
    [board] = [b for b in read_boards(fixtures / "test.pbn") if b.number == 1]
    html = render([board], "Club")
    for seat in ("North", "East", "South", "West"):
        assert f'<div class="seat">{seat}</div>' in html
    # North: 65.A53.JT7.AK762
    assert 'aria-label="diamonds">♦</span>J 10 7</div>' in html
    assert html.count('role="img"') == 16


def test_suits_carry_symbol_and_name_so_colour_is_not_the_only_signal(fixtures: Path) -> None:
    html = render(read_boards(fixtures / "test.pbn"), "Club")
    assert 'class="suit red" role="img" aria-label="hearts">♥' in html
    assert 'class="suit" role="img" aria-label="spades">♠' in html


def test_title_and_subtitle_are_escaped(fixtures: Path) -> None:
    board = next(iter(read_boards(fixtures / "test.pbn")))
    html = render([board], "<b>Club</b> & co", "<i>x</i>")
    assert "<b>Club" not in html and "<i>x" not in html
    assert "&lt;b&gt;Club&lt;/b&gt; &amp; co" in html


def test_vulnerable_seats_are_marked_in_words_as_well_as_colour(fixtures: Path) -> None:
    [board] = [b for b in read_boards(fixtures / "test.pbn") if b.number == 2]
    html = render([board], "Club")
    assert 'title="North, vulnerable"' in html and 'title="East, dealer"' in html


def test_a_32_board_set_prints_six_boards_per_sheet(tmp_path: Path) -> None:
    html = render(generate(range(1, 33), seed="records"), "Club")
    assert html.count('<section class="sheet">') == 6
    assert "@page { size: A4" in html


def thirteen_card_suits(number: int) -> Board:
    suits = tuple(ALL_CARDS[k:k + 13] for k in range(0, 52, 13))
    shift = number % 4
    return Board.standard(number, suits[shift:] + suits[:shift])


def nine_card_suits(number: int) -> Board:
    """The widest suit still set at full size (A K Q J 10 9 8 7 6) in every hand."""
    s, h, d, c = (ALL_CARDS[k:k + 13] for k in range(0, 52, 13))
    hands = (s[:9] + h[:4], h[4:] + s[9:], d[:9] + c[:4], c[4:] + d[9:])
    shift = number % 4
    return Board.standard(number, hands[shift:] + hands[:shift])


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (CI installs it)")
def test_no_hand_spills_out_of_its_place_even_with_thirteen_card_suits(tmp_path: Path) -> None:
    boards = [thirteen_card_suits(n) for n in range(1, 5)]
    boards += [nine_card_suits(n) for n in range(5, 9)]
    boards += generate(range(9, 33), seed="records")
    probe = """<script>
    const spilled = [...document.querySelectorAll('.board, .hand')]
      .filter(e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
      .map(e => e.closest('.board').getAttribute('aria-label'));
    document.body.setAttribute('data-spilled', spilled.join(' | ') || 'none');
    </script></body>"""
    page = tmp_path / "records.html"
    page.write_text(render(boards, "Club").replace("</body>", probe))
    dom = subprocess.run([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom",
                          page.as_uri()], check=True, capture_output=True, text=True,
                         timeout=120).stdout
    assert 'data-spilled="none"' in dom


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (CI installs it)")
def test_a_32_board_set_prints_on_six_a4_pages_in_a_real_browser(tmp_path: Path) -> None:
    page = tmp_path / "records.html"
    page.write_text(render(generate(range(1, 33), seed="records"), "Club night"))
    pdf = tmp_path / "records.pdf"
    subprocess.run([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox",
                    "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    data = pdf.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page[^s]", data)) == 6
    # A4 is 595 × 842 points.
    sizes = set(re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data))
    assert {(round(float(w)), round(float(h))) for w, h in sizes} == {(595, 842)}


def test_records_command_writes_the_page(fixtures: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "records.html"
    assert main(["records", str(fixtures / "test.dlm"), str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["sheets"] == 3
    assert out.read_text().count('<article class="board"') == 16


def test_records_command_will_not_show_a_sealed_set_unasked(
        fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_boards(tmp_path / "sealed.dlm", read_boards(fixtures / "test.dlm"), SetInfo(sealed=True))
    out = tmp_path / "records.html"
    assert main(["records", str(tmp_path / "sealed.dlm"), str(out)]) == 2
    assert "Sealed" in capsys.readouterr().err and not out.exists()
    assert main(["records", str(tmp_path / "sealed.dlm"), str(out), "--reveal"]) == 0
