"""Deal sets (Law 6E4): wholly random, never filtered, and reproducible from a published seed
by exactly the derivation the module documents."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from scanner.bridge.board import deal_problems, dealer_for, vulnerability_for
from scanner.bridge.dealset import SeededStream, generate, seed_commitment, shuffled_deal
from scanner.bridge.formats import read_boards
from scanner.cards import ALL_CARDS
from scanner.cli import main


def documented_deal(seed: str, board: int) -> list[int]:
    """The derivation as the module docstring states it, written out independently."""
    s = seed.encode()
    words: list[int] = []
    counter = 0

    def randbelow(n: int) -> int:
        nonlocal counter
        while True:
            if not words:
                block = hashlib.sha256(b"tablescan-deal-v1" + len(s).to_bytes(4, "big") + s
                                       + board.to_bytes(4, "big")
                                       + counter.to_bytes(8, "big")).digest()
                counter += 1
                words.extend(int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4))
            w = words.pop(0)
            if w < 2**32 - 2**32 % n:
                return w % n

    pack = list(range(52))
    for i in range(51, 0, -1):
        j = randbelow(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    owner = [0] * 52
    for position, card in enumerate(pack):
        owner[card] = position // 13
    return owner


def owners(board) -> list[int]:
    return [seat.index for seat in board.owners()]


def test_seeded_deals_follow_the_published_derivation() -> None:
    for number in (1, 2, 17, 32):
        [board] = generate([number], seed="club night 2026-11-30")
        assert owners(board) == documented_deal("club night 2026-11-30", number)


def test_same_seed_gives_the_same_set_and_another_seed_another() -> None:
    assert generate(range(1, 9), "a") == generate(range(1, 9), "a")
    assert [b.hands for b in generate(range(1, 9), "a")] != \
        [b.hands for b in generate(range(1, 9), "b")]


def test_seed_commitment_is_sha256_of_the_seed() -> None:
    assert seed_commitment("hello") == hashlib.sha256(b"hello").hexdigest()


def test_seeded_randbelow_is_uniform() -> None:
    stream = SeededStream("uniformity", 1)
    counts = Counter(stream.randbelow(3) for _ in range(30_000))
    chi2 = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(3))
    assert chi2 < 20  # 2 degrees of freedom: p < 5e-5 by chance


def test_rejection_sampling_discards_words_past_the_last_whole_multiple() -> None:
    words = iter([2**32 - 1, 5])  # 2**32 - 1 ≥ 2**32 - (2**32 mod 3): rejected
    stream = SeededStream("x", 1)
    stream._next_word = lambda: next(words)  # type: ignore[method-assign]
    assert stream.randbelow(3) == 5 % 3


def test_every_generated_board_is_a_regular_deal_with_dealer_and_vulnerability_by_number() -> None:
    for board in generate(range(1, 33)):
        assert deal_problems(board.hands) == []
        assert board.dealer is dealer_for(board.number)
        assert board.vulnerability is vulnerability_for(board.number)


def test_os_csprng_sets_differ() -> None:
    assert generate(range(1, 5)) != generate(range(1, 5))


def test_no_pattern_filter_voids_occur_at_their_natural_rate() -> None:
    # P(a given hand has a void) = 0.0511; 8,000 hands → 409 ± 20. A filter against "wild"
    # hands would starve this count.
    stream = SeededStream("voids", 1)
    hands = [hand for _ in range(2000) for hand in shuffled_deal(stream.randbelow)]
    voids = sum(len({card.suit for card in hand}) < 4 for hand in hands)
    assert 409 - 100 < voids < 409 + 100


def test_shuffle_reaches_every_card_in_every_seat() -> None:
    stream = SeededStream("coverage", 1)
    seen = Counter()
    for _ in range(400):
        for seat, hand in enumerate(shuffled_deal(stream.randbelow)):
            seen.update((card, seat) for card in hand)
    assert len(seen) == len(ALL_CARDS) * 4


# ---- the command line -------------------------------------------------------------------

def test_generate_writes_the_boards_asked_for(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set.dlm"
    assert main(["generate", "--boards", "1-32", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == "os-csprng"
    assert [b.number for b in read_boards(out)] == list(range(1, 33))


def test_generate_with_a_seed_is_reproducible_and_prints_the_commitment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.pbn", "b.pbn"):
        assert main(["generate", "--boards", "1-4", "--seed", "s3cret", str(tmp_path / name)]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert report["seed_sha256"] == hashlib.sha256(b"s3cret").hexdigest()
    assert list(read_boards(tmp_path / "a.pbn")) == list(read_boards(tmp_path / "b.pbn"))


def test_generate_will_not_overwrite_a_set_unasked(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set.pbn"
    out.write_text("keep me")
    assert main(["generate", str(out)]) == 2
    assert out.read_text() == "keep me" and "--force" in capsys.readouterr().err


def test_generate_names_a_bad_board_range(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--boards", "1-x", str(tmp_path / "s.pbn")]) == 2
    assert "--boards" in capsys.readouterr().err


def test_generate_flags_a_set_already_generated_in_another_session(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    base = ["generate", "--boards", "1-2", "--seed", "reused", "--db", db, "--force"]
    assert main([*base, "--session", "s1", str(tmp_path / "a.pbn")]) == 0
    assert json.loads(capsys.readouterr().out)["repeats"] == []
    assert main([*base, "--session", "s2", str(tmp_path / "b.pbn")]) == 0
    repeats = json.loads(capsys.readouterr().out)["repeats"]
    assert [(r["board"], r["status"]) for r in repeats] == [(1, "seen-before"), (2, "seen-before")]


def test_generate_sealed_needs_a_format_that_can_say_sealed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--sealed", str(tmp_path / "s.pbn")]) == 2
    assert "--sealed" in capsys.readouterr().err and not (tmp_path / "s.pbn").exists()
    assert main(["generate", "--sealed", "--boards", "1-4", str(tmp_path / "s.dlm")]) == 0
    assert "Status=Sealed" in (tmp_path / "s.dlm").read_text()
