"""Where the staff commands (`stats`, `history`, `export`) find the saved games: in the folder
the command that wrote them used, so that nobody has to say where.

`--state-dir` always wins, then the `state_dir` of a config named with `--config`. On a
Raspberry Pi, or wherever the service's config is installed, the games are the service's (the
config's `state_dir`, `/var/lib/codenames-table` by default: private to the service's user, so
staff run these commands with `sudo` there); elsewhere they are the desktop simulation's
(`$XDG_DATA_HOME/codenames-table`). A folder without a database is an empty record, not an
error.
"""

from __future__ import annotations

import os
from pathlib import Path

from firmware.errors import UsageError
from firmware.service.pi_model import PI_MODEL_FILE, is_raspberry_pi
from firmware.table.config import ConfigError, installed_config, load_config
from firmware.table.store import DATABASE_NAME, GameStore, StoreError

APP_NAME = "codenames-table"


def default_state_dir() -> Path:
    """Where the simulation keeps its games unless told: a per-user data folder
    (`$XDG_DATA_HOME/codenames-table`, or `~/.local/share/codenames-table`), so that a game
    goes on after the window was closed. The config's `state_dir` is the Pi's, not a desktop's."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative path.
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_NAME


def staff_state_dir(
    state_dir: Path | None, config: Path | None, model_file: Path = PI_MODEL_FILE
) -> Path:
    """The folder a staff command reads: `state_dir` if given, else that of `config` if given,
    else the service's on a Pi (from the installed config), else the simulation's. Raises
    `UsageError` on a config that cannot be read."""
    if state_dir is not None:
        return state_dir
    installed = installed_config()
    if config is None and installed is None and not is_raspberry_pi(model_file):
        return default_state_dir()
    try:
        return load_config(config or installed).state_dir
    except ConfigError as error:
        raise UsageError(str(error)) from error


def open_record(state_dir: Path) -> GameStore | None:
    """The saved games under `state_dir`, read-only (the table may be playing beside), or None
    when there are none yet. Creates nothing; raises `UsageError` naming the folder when it
    cannot be read."""
    path = state_dir / DATABASE_NAME
    try:
        if not path.exists():
            return None
    except OSError as error:
        raise UsageError(_unreadable(state_dir, error.strerror)) from error
    try:
        return GameStore(state_dir, read_only=True)
    except StoreError as error:
        raise UsageError(_unreadable(state_dir, str(error))) from error


def _unreadable(state_dir: Path, why: object) -> str:
    # The service's folder and database are private to its user: staff read them with sudo.
    readable = os.access(state_dir / DATABASE_NAME, os.R_OK, effective_ids=True)
    hint = "" if readable else " (on the table, run it with sudo)"
    return f"cannot read the saved games in {state_dir}: {why}{hint}"
