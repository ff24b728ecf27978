"""The CLI entry point: commands are discovered, and one broken command cannot silence the rest."""

import sys

import pytest

from scanner import cli, commands


@pytest.fixture
def broken_command(monkeypatch, tmp_path):
    """A command module whose import fails, as when an optional stack is missing."""
    (tmp_path / "zz_broken.py").write_text("import module_that_is_not_installed\n")
    monkeypatch.setattr(commands, "__path__", [*commands.__path__, str(tmp_path)])
    monkeypatch.setitem(sys.modules, "scanner.commands.zz_broken", None)
    yield "zz-broken"


@pytest.mark.parametrize("command", ["check-deal", "meld", "auction", "serve", "convert"])
def test_each_command_module_registers_its_sub_command(command, capsys):
    with pytest.raises(SystemExit) as excinfo:
        cli.main([command, "--help"])
    assert excinfo.value.code == 0
    assert f"tablescan {command}" in capsys.readouterr().out


def test_a_command_that_cannot_import_fails_alone_and_says_why(broken_command, capsys):
    assert cli.main(["meld", "--trump", "S", *"AS TS KS QS JS 9S AH TH KH QH JH 9H".split()]) == 0
    capsys.readouterr()
    assert cli.main([broken_command, "--anything"]) == cli.EXIT_UNAVAILABLE
    assert "cannot run" in capsys.readouterr().err


def test_an_unknown_command_is_a_usage_error():
    assert cli.main(["shuffle-for-me"]) == cli.EXIT_BAD_INPUT
