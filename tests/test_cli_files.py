"""Files the commands write and read: never over an input or an existing file unasked, never
half written, and a set file with no board or a cut-off board is refused by every command
(issue 21, cases 9, 10, 11, 17 and 19)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from scanner.bridge.dealset import generate
from scanner.bridge.formats import write_boards
from scanner.cli import main

REPO = Path(__file__).resolve().parents[2]
SET_COMMANDS = ("records", "convert", "verify", "audit")


def _set(tmp_path: Path, name: str = "set.pbn", count: int = 4) -> Path:
    path = tmp_path / name
    write_boards(path, generate(range(1, count + 1), seed="issue 21"))
    return path


def _run_set_command(command: str, path: Path, tmp_path: Path) -> int:
    """Run a command that reads one set file; its output, if any, goes to a fresh name."""
    argv = {"records": ["records", str(path), str(tmp_path / "out.html")],
            "convert": ["convert", str(path), str(tmp_path / "out.lin")],
            "verify": ["verify", str(path), "--observed", str(path)],
            "audit": ["audit", str(path)]}[command]
    return main(argv)


# ---- case 9: no command writes over its own input or an existing file unasked

def test_case_9_records_refuses_to_write_over_its_own_set(tmp_path, capsys) -> None:
    path = _set(tmp_path)
    before = path.read_bytes()
    assert main(["records", str(path), str(path)]) == 2
    assert "own input" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_case_9_records_refuses_its_own_set_even_with_force(tmp_path, capsys) -> None:
    path = _set(tmp_path)
    before = path.read_bytes()
    assert main(["records", str(path), str(path), "--force"]) == 2
    assert path.read_bytes() == before


def test_case_9_records_refuses_an_existing_out_unless_forced(tmp_path, capsys) -> None:
    path = _set(tmp_path)
    out = tmp_path / "records.html"
    out.write_text("keep me")
    assert main(["records", str(path), str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert out.read_text() == "keep me"
    assert main(["records", str(path), str(out), "--force"]) == 0
    assert "<html" in out.read_text().lower()


def test_case_9_convert_refuses_to_write_over_its_input_by_another_name(tmp_path) -> None:
    path = _set(tmp_path)
    alias = tmp_path / "alias.pbn"
    alias.symlink_to(path)
    before = path.read_bytes()
    assert main(["convert", str(path), str(alias), "--force"]) == 2
    assert path.read_bytes() == before


# ---- case 10: writes are atomic

def _convert_with_file_size_limit(source: Path, out: Path,
                                  limit: int) -> subprocess.CompletedProcess:
    """Run `convert --force` where no file may grow past ``limit`` bytes: a disk that fills
    during the write."""
    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c",
                           "import signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
                           "from scanner.cli import main; sys.exit(main(sys.argv[1:]))",
                           "convert", str(source), str(out), "--force"],
                          capture_output=True, text=True, env=env, preexec_fn=limit_files,
                          timeout=60)


def test_case_10_a_write_that_fails_midway_leaves_the_old_file_whole(tmp_path) -> None:
    small = _set(tmp_path, "small.pbn", count=1)
    big = _set(tmp_path, "big.pbn", count=64)
    before = small.read_bytes()
    done = _convert_with_file_size_limit(big, small, limit=len(before) + 100)
    assert done.returncode == 2, done.stderr
    assert "old file is unchanged" in done.stderr
    assert small.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pbn", "small.pbn"]


def test_case_10_the_written_file_appears_whole_under_its_name(tmp_path) -> None:
    source = _set(tmp_path, "a.pbn", count=8)
    assert main(["convert", str(source), str(tmp_path / "b.dup")]) == 0
    assert (tmp_path / "b.dup").stat().st_size == 8 * 156
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn", "b.dup"]


# ---- case 11: a set with no board, or a cut-off board, is refused by every command

EMPTY_KINDS = ("pbn", "dlm", "dup", "bri", "dge", "lin", "csv")


@pytest.mark.parametrize("command", SET_COMMANDS)
@pytest.mark.parametrize("suffix", EMPTY_KINDS)
def test_case_11_an_empty_file_is_not_a_set(tmp_path, capsys, command, suffix) -> None:
    path = tmp_path / f"empty.{suffix}"
    path.write_bytes(b"")
    assert _run_set_command(command, path, tmp_path) == 2
    assert "empty" in capsys.readouterr().err
    assert not (tmp_path / "out.html").exists() and not (tmp_path / "out.lin").exists()


@pytest.mark.parametrize("command", SET_COMMANDS)
def test_case_11_nul_bytes_are_not_a_set(tmp_path, capsys, command) -> None:
    path = tmp_path / "zeros.pbn"
    path.write_bytes(b"\0" * 2000)
    assert _run_set_command(command, path, tmp_path) == 2
    assert "NUL" in capsys.readouterr().err


@pytest.mark.parametrize("command", SET_COMMANDS)
def test_case_11_random_bytes_are_not_a_lin_set(tmp_path, capsys, command) -> None:
    path = tmp_path / "noise.lin"
    path.write_bytes(bytes((i * 7919 + 13) % 251 for i in range(2000)).replace(b"|", b"!"))
    assert _run_set_command(command, path, tmp_path) == 2
    assert "no board found" in capsys.readouterr().err


def test_case_11_utf16_lin_is_named_as_utf16(tmp_path, capsys) -> None:
    text = _set(tmp_path, "s.lin").read_text()
    path = tmp_path / "wide.lin"
    path.write_text(text, encoding="utf-16")
    assert main(["convert", str(path), str(tmp_path / "out.pbn")]) == 2
    assert "UTF-16" in capsys.readouterr().err


@pytest.mark.parametrize("command", SET_COMMANDS)
def test_case_11_a_dup_cut_inside_its_first_board_is_refused(tmp_path, capsys, command) -> None:
    whole = _set(tmp_path, "whole.dup")
    path = tmp_path / "cut.dup"
    path.write_bytes(whole.read_bytes()[:57])
    assert _run_set_command(command, path, tmp_path) == 2
    assert "cut off" in capsys.readouterr().err


@pytest.mark.parametrize("command", SET_COMMANDS)
def test_case_11_a_pbn_cut_inside_board_3_is_refused(tmp_path, capsys, command) -> None:
    text = _set(tmp_path, "whole.pbn").read_text()
    path = tmp_path / "cut.pbn"
    path.write_text(text[:text.index('[Board "3"]')])  # ends just inside board 3's game
    assert _run_set_command(command, path, tmp_path) == 2
    assert "cut off" in capsys.readouterr().err


# ---- case 17: output paths that cannot be written exit 2 with a message

@pytest.mark.parametrize("out", ["missing/out.pbn", "folder", "/dev/full"])
def test_case_17_an_unwritable_output_path_exits_2_naming_it(tmp_path, capsys, out) -> None:
    (tmp_path / "folder").mkdir()
    target = out if out.startswith("/") else str(tmp_path / out)
    source = _set(tmp_path)
    assert main(["convert", str(source), target, "--force"]) == 2
    assert target in capsys.readouterr().err
    assert main(["generate", target, "--force"]) == 2
    assert main(["records", str(source), target, "--force"]) == 2


# ---- case 19: messages that say what is really wrong

def test_case_19_a_folder_given_as_a_board_file_is_called_a_folder(tmp_path, capsys) -> None:
    assert main(["convert", str(tmp_path), str(tmp_path / "out.pbn")]) == 2
    err = capsys.readouterr().err
    assert "folder" in err and "no such file" not in err


def test_case_19_a_huge_set_that_a_dup_cannot_hold_is_named_in_ranges(tmp_path, capsys) -> None:
    source = tmp_path / "big.pbn"
    write_boards(source, generate(range(1, 2001), seed="big"))
    assert main(["convert", str(source), str(tmp_path / "big.dup")]) == 2
    err = capsys.readouterr().err
    assert "1-2000" in err and len(err) < 500
