"""`codenames-table update`: a table moved to a new version, or back to the one before, once no
game is in play, as root on the table.

    codenames-table update SOURCE       install SOURCE (a source .tar.gz or folder, as
                                        `provision --bundle` puts on a card) once it is quiet
    codenames-table update --previous   go back to the version installed before, once quiet
    codenames-table update --wait-idle  only wait until it is quiet (install.sh --when-idle)
    codenames-table update SOURCE --on table-1.local --on table-2.local
                                        from the café's computer: copy SOURCE to each table
                                        over SSH (as `cafe`, provision's --ssh-key) and start
                                        its update there, detached; --previous --on the same

`systemd/install.sh` keeps each version in a folder of its own under
/opt/codenames-table-versions, /opt/codenames-table a link to the one in service and `previous`
a link to the one before; each version keeps the unit it shipped with, and going back puts
that unit back in place. A new version is built and checked against the config while the
table plays on; only the switch of the links and the restart wait. A restart loses nothing (the
table resumes its latest game, UNDO included), but the table is dark for its few seconds, so
the switch waits until the latest game has been over for `FINISHED_GRACE_S` (UNDO right after
the end) or has had no action for `--idle-minutes` (a game left unfinished). A version that
does not start is switched back at once.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.cli.cloud_init import STAFF_USER
from firmware.cli.command import Commands
from firmware.errors import UsageError

if TYPE_CHECKING:
    from firmware.table.store import GameSummary

APP = "codenames-table"
CURRENT = Path("/opt/codenames-table")
"""The link to the version in service (the unit's ExecStart= goes through it)."""
VERSIONS = Path("/opt/codenames-table-versions")
PREVIOUS = VERSIONS / "previous"
"""The link to the version installed before the current one."""
UNIT = Path("/etc/systemd/system") / f"{APP}.service"
"""The installed unit. Each version keeps the one it shipped with in `share/codenames-table`
(install.sh), which goes back in place with it."""
SOURCE_DIR = Path("/usr/local/src/codenames-table")
"""The source of the version in service, as provision's first boot leaves it."""
IDLE_MINUTES = 15.0
"""A game with no action for this long is taken as left, not in play."""
FINISHED_GRACE_S = 60.0
"""After a game ends, the players may still take its last action back with UNDO."""
POLL_S = 5.0
UPLOADED = "/var/tmp/codenames-table-update.tar.gz"
"""Where `--on` copies the new version on each table."""
UPDATE_UNIT = "codenames-table-update"
"""The transient unit `--on` runs each table's update in, detached from the SSH session."""


def add_update_parser(commands: Commands) -> None:
    """The `update` subcommand's options."""
    update = commands.add_parser(
        "update",
        help="move this table to a new version, or back, once no game is in play (as root)",
        description="Install a new version of the table from SOURCE (a source .tar.gz or "
        "folder holding systemd/install.sh), or go back to the previous one, once no game is in "
        "play: the latest game over for a minute, or without an action for --idle-minutes. The "
        "new version is built while the table plays on; a version that does not start is "
        "switched back.",
    )
    which = update.add_mutually_exclusive_group(required=True)
    which.add_argument("source", nargs="?", type=Path, metavar="SOURCE", help="the new version")
    which.add_argument(
        "--previous", action="store_true", help="go back to the version installed before"
    )
    which.add_argument(
        "--wait-idle", action="store_true", help="only wait until no game is in play"
    )
    update.add_argument(
        "--on",
        action="append",
        metavar="HOST",
        help="run the update on this table over SSH, as `cafe` (repeat for every table)",
    )
    update.add_argument(
        "--idle-minutes",
        type=float,
        default=IDLE_MINUTES,
        metavar="N",
        help=f"an unfinished game without an action for N minutes is not in play "
        f"(default {IDLE_MINUTES:g})",
    )
    update.set_defaults(run=run_update)


def run_update(args: argparse.Namespace) -> int:
    """Run the `update` subcommand; returns the exit code, raises `UsageError`."""
    from firmware.cli.state_folder import staff_state_dir

    if args.idle_minutes < 0:
        raise UsageError(f"--idle-minutes {args.idle_minutes:g}: not a number of minutes")
    idle_s = args.idle_minutes * 60.0
    if args.wait_idle:
        if args.on:
            raise UsageError(
                "--wait-idle waits on this table only; --on takes SOURCE or --previous"
            )
        wait_until_quiet(staff_state_dir(None, None), idle_s)
        return 0
    if args.on:
        return on_tables(args.on, args.source, args.idle_minutes)
    if os.geteuid() != 0:
        raise UsageError("update changes the installed table: run it as root (sudo)")
    if args.previous:
        return go_back(staff_state_dir(None, None), idle_s)
    return install(args.source, args.idle_minutes)


def busy_with(game: GameSummary | None, now: float, idle_s: float) -> str | None:
    """Why the table is in play with `game` as its latest, or None when it is quiet.

    >>> from firmware.table.store import GameSummary
    >>> over = GameSummary(7, 0.0, "standard", "over", "red", "agents", None, 12, 100.0)
    >>> busy_with(over, 130.0, 900.0)
    'game 7 ended 30 s ago (UNDO may still take it back)'
    >>> busy_with(over, 200.0, 900.0) is None
    True
    """
    if game is None:
        return None
    last = game.last_at if game.last_at is not None else game.started_at
    quiet_s = max(0.0, now - last)
    if game.phase == "over":
        if quiet_s < FINISHED_GRACE_S:
            return f"game {game.game_id} ended {quiet_s:.0f} s ago (UNDO may still take it back)"
        return None
    if quiet_s < idle_s:
        return f"game {game.game_id} is in play (its last action {quiet_s:.0f} s ago)"
    return None


def latest_game(state_dir: Path) -> GameSummary | None:
    """The table's latest game as its store holds it, read beside the running table."""
    from firmware.cli.state_folder import open_record
    from firmware.table.store import StoreError

    store = open_record(state_dir)
    if store is None:
        return None
    with store:
        try:
            latest = store.summaries(limit=1)
        except StoreError as error:
            raise UsageError(f"{error} in {state_dir}") from error
    return latest[0] if latest else None


def wait_until_quiet(
    state_dir: Path,
    idle_s: float,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once no game is in play at the table whose games are in `state_dir`, saying
    once per game what it waits for."""
    said: tuple[int, str] | None = None
    while True:
        game = latest_game(state_dir)
        busy = busy_with(game, clock(), idle_s)
        if game is None or busy is None:
            break
        if (game.game_id, game.phase) != said:
            print(f"codenames-table update: waiting: {busy}", flush=True)
            said = (game.game_id, game.phase)
        sleep(POLL_S)
    print("codenames-table update: no game in play", flush=True)


def version_name(folder: Path) -> str:
    """A version's folder name, `VERSION-INSTALLED` (`0.2.0-20261127T021500`)."""
    return folder.resolve().name


def _switch(target: Path, previous: Path) -> None:
    """Point the current link at `target` and `previous` at the one before, each in one step."""
    for link, to in ((PREVIOUS, previous), (CURRENT, target)):
        partial = link.with_name(f".{link.name}.partial")
        partial.unlink(missing_ok=True)
        partial.symlink_to(to)
        partial.replace(link)


def _put_unit(version: Path) -> None:
    """Install the unit `version` shipped with, replaced in one step; a version installed
    without its own copy leaves the unit in place."""
    shipped = version / "share" / APP / UNIT.name
    if not shipped.is_file():
        print(f"codenames-table update: {version.name} keeps no unit of its own: {UNIT} stays")
        return
    partial = UNIT.with_name(f".{UNIT.name}.partial")
    shutil.copyfile(shipped, partial)
    partial.chmod(0o644)
    partial.replace(UNIT)


def _restart() -> bool:
    """Restart the service; True once it is READY (Type=notify: systemctl waits for it)."""
    subprocess.run(["systemctl", "daemon-reload"], check=False)
    return subprocess.run(["systemctl", "restart", APP], check=False).returncode == 0


def go_back(state_dir: Path, idle_s: float) -> int:
    """Swap the current version with the previous one, once the table is quiet."""
    if not (CURRENT.is_symlink() and PREVIOUS.is_symlink() and PREVIOUS.resolve().is_dir()):
        raise UsageError(f"no previous version is kept in {VERSIONS}: nothing to go back to")
    current, previous = CURRENT.resolve(), PREVIOUS.resolve()
    print(f"codenames-table update: back from {current.name} to {previous.name}", flush=True)
    wait_until_quiet(state_dir, idle_s)
    _switch(previous, current)
    _put_unit(previous)
    if _restart():
        print(f"codenames-table update: {previous.name} is in service; {current.name} is kept")
        return 0
    _switch(current, previous)
    _put_unit(current)
    _restart()
    print(
        f"codenames-table update: {previous.name} did not start; {current.name} is in service "
        f"again: journalctl -u {APP} says why",
        file=sys.stderr,
    )
    return 1


def on_tables(hosts: list[str], source: Path | None, idle_minutes: float) -> int:
    """Start the update on each table over SSH; 1 if any could not be started."""
    if source is not None and not source.is_file():
        raise UsageError(f"{source}: with --on, SOURCE is a .tar.gz of the new version")
    command = f"codenames-table update --idle-minutes {idle_minutes:g} "
    command += UPLOADED if source is not None else "--previous"
    failed = 0
    for host in hosts:
        login = f"{STAFF_USER}@{host}"
        steps = [] if source is None else [["scp", "-q", "--", str(source), f"{login}:{UPLOADED}"]]
        steps.append(
            ["ssh", "--", login, f"sudo systemd-run --quiet --unit {UPDATE_UNIT} {command}"]
        )
        for step in steps:
            if subprocess.run(step, check=False).returncode != 0:
                print(f"codenames-table update: {host}: not started ({step[0]} failed)")
                failed += 1
                break
        else:
            print(
                f"codenames-table update: {host}: started; it switches once no game is in play "
                f"(ssh {login} journalctl -u {UPDATE_UNIT} shows how far it is)"
            )
    return 1 if failed else 0


def _extract(tar: tarfile.TarFile, into: Path) -> None:
    """Extract `tar` into `into`, refusing what would land outside it."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(into, filter="data")
        return
    # Python before 3.11.4 (Bookworm's 3.11.2 may lack the filters): the same refusals by hand.
    for member in tar.getmembers():
        parts = Path(member.name).parts
        if member.name.startswith("/") or ".." in parts or member.isdev() or member.islnk():
            raise tarfile.TarError(f"{member.name!r} would land outside the source folder")
        target = os.path.normpath(os.path.join(os.path.dirname(member.name), member.linkname))
        if member.issym() and (member.linkname.startswith("/") or target.startswith("..")):
            raise tarfile.TarError(f"{member.name!r} links outside the source folder")
    tar.extractall(into)


def _unpacked(source: Path, into: Path) -> Path:
    """The source's folder: `source` itself, or the one folder its .tar.gz holds."""
    if source.is_dir():
        folder = source
    else:
        try:
            with tarfile.open(source, "r:*") as tar:
                _extract(tar, into)
        except (OSError, tarfile.TarError) as error:
            raise UsageError(f"{source}: not a source folder or .tar.gz ({error})") from error
        tops = [path for path in into.iterdir() if path.is_dir()]
        folder = tops[0] if len(tops) == 1 else into
    if not (folder / "systemd" / "install.sh").is_file():
        raise UsageError(f"{source}: holds no systemd/install.sh, not the table's source")
    return folder


def install(source: Path, idle_minutes: float) -> int:
    """Build `source` as a new version beside the running one, then switch once quiet
    (install.sh --when-idle); the source becomes the table's kept source."""
    SOURCE_DIR.parent.mkdir(parents=True, exist_ok=True)
    unpacked = Path(tempfile.mkdtemp(prefix=f".{APP}-", dir=SOURCE_DIR.parent))
    try:
        folder = _unpacked(source, unpacked)
        command = ["sh", str(folder / "systemd" / "install.sh"), "--when-idle", f"{idle_minutes:g}"]
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            return done.returncode
        if folder.resolve() != SOURCE_DIR.resolve():
            kept = SOURCE_DIR.with_name(f".{APP}.old")
            shutil.rmtree(kept, ignore_errors=True)
            if SOURCE_DIR.exists():
                SOURCE_DIR.rename(kept)
            shutil.copytree(folder, SOURCE_DIR, symlinks=True)
            shutil.rmtree(kept, ignore_errors=True)
        return 0
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
