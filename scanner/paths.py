"""Where tablescan keeps its files when the user names none."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """$XDG_DATA_HOME/tablescan, or ~/.local/share/tablescan."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tablescan"


def default_db_path() -> Path:
    """The event log used when no --db is given; its folder is created on first use."""
    path = data_dir() / "tablescan.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
