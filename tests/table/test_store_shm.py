"""A `-shm` file made immutable under the table: SQLite's mapping of it would take the process
down with SIGBUS; the store checks it before each use, the game plays on, the staff see "Not
saving: read-only", and what was held back is written once the file takes writes again."""

import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from board_rules.codenames import Coord, Game, GiveClue, Mode
from firmware.table import store_shm
from firmware.table.config import TableConfig
from firmware.table.store import DATABASE_NAME, GameStore, TimedAction
from firmware.table.store_faults import SaveFault
from firmware.table.store_shm import FS_APPEND_FL, FS_IMMUTABLE_FL, shm_blocked, shm_path
from firmware.table.unsaved import UNSAVED_PREFIX
from firmware.virtual.table import VirtualTable

from ..conftest import TableFactory
from ..rules_helpers import KEY

RETRY_S = 31.0
"""Past the table's retry of a failing disk."""
Ioctl = Callable[..., object]


def flags_reported(value: int | OSError) -> Ioctl:
    """A stand-in for `fcntl.ioctl` that answers FS_IOC_GETFLAGS with `value` (or raises it)."""
    real = fcntl.ioctl

    def ioctl(fd: int, request: int, buffer: object = 0, mutate: bool = True) -> object:
        if request != store_shm.FS_IOC_GETFLAGS:
            return real(fd, request, buffer, mutate)  # type: ignore[call-overload]
        if isinstance(value, OSError):
            raise value
        assert isinstance(buffer, bytearray)
        buffer[:4] = value.to_bytes(4, sys.byteorder)
        return 0

    return ioctl


def footer(vt: VirtualTable) -> str | None:
    screen = vt.display.screen
    return None if screen is None else screen.footer


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (0, None),
        (FS_IMMUTABLE_FL, "immutable"),
        (FS_APPEND_FL, "append-only"),
        (FS_IMMUTABLE_FL | FS_APPEND_FL | 0x80000, "immutable and append-only"),
        (OSError(errno.ENOTTY, "no attribute flags here"), None),
    ],
)
def test_the_shm_flags_are_read_through_the_ioctl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: int | OSError, said: str | None
) -> None:
    database = tmp_path / DATABASE_NAME
    assert shm_blocked(database) is None  # no -shm yet: SQLite makes it
    shm_path(database).write_bytes(b"")
    monkeypatch.setattr(fcntl, "ioctl", flags_reported(flags))
    assert shm_blocked(database) == said


def test_each_save_checks_the_shm_with_one_ioctl_and_opens_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    checked: list[int] = []
    real_open, real_ioctl = os.open, fcntl.ioctl

    def counting_open(path: str | os.PathLike[str], *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    def counting_ioctl(fd: int, request: int, *args: object) -> object:
        if request == store_shm.FS_IOC_GETFLAGS:
            checked.append(fd)
        return real_ioctl(fd, request, *args)  # type: ignore[call-overload]

    with GameStore(tmp_path) as store:
        game = Game(KEY, Mode.STANDARD)
        game_id = store.start_game(game.key, game.mode)
        actions = [TimedAction(GiveClue(1), 1.0)]
        store.save(game_id, game, actions)  # the -shm is there, and has been checked
        monkeypatch.setattr(os, "open", counting_open)
        monkeypatch.setattr(fcntl, "ioctl", counting_ioctl)
        for saves in range(1, 6):
            actions.append(TimedAction(GiveClue(1), float(saves)))
            store.save(game_id, game, actions)
        monkeypatch.undo()
        assert len(store.game(game_id).actions) == len(actions)
    shm = str(shm_path(tmp_path / DATABASE_NAME))
    assert [path for path in opened if path == shm] == []
    assert len(checked) == 5
    assert len(set(checked)) == 1  # the same descriptor each time


def _locks_held_on(path: Path) -> list[str]:
    """This process's POSIX locks on the file at `path`, as /proc/locks lists them, without each
    line's ordinal (which moves as other processes' locks come and go)."""
    stat = path.stat()
    device = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    lines = Path("/proc/locks").read_text().splitlines()
    return [
        " ".join(fields[1:])
        for fields in (line.split() for line in lines)
        if "POSIX" in fields and str(os.getpid()) in fields and device in fields
    ]


def test_saving_keeps_sqlites_own_locks_on_the_shm(tmp_path: Path) -> None:
    # SQLite holds a shared lock on the -shm for as long as its connection is open, so that
    # another process opening the database does not take it for unused and rebuild it. A
    # process's POSIX locks on a file go with any of its descriptors of that file: a check that
    # opened and closed the -shm would drop that lock at every save.
    with GameStore(tmp_path) as store:
        game = Game(KEY, Mode.STANDARD)
        game_id = store.start_game(game.key, game.mode)
        shm = shm_path(tmp_path / DATABASE_NAME)
        held = _locks_held_on(shm)
        assert held, "SQLite holds no lock on the -shm of its open connection"
        actions: list[TimedAction] = []
        for saves in range(1, 4):
            actions.append(TimedAction(GiveClue(1), float(saves)))
            store.save(game_id, game, actions)
            assert _locks_held_on(shm) == held


def test_a_shm_turned_immutable_mid_game_holds_the_saves_back_until_it_is_not(
    virtual_table: TableFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with virtual_table(config=TableConfig()) as vt:
        vt.turn(1)
        vt.push()
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.saving
        monkeypatch.setattr(fcntl, "ioctl", flags_reported(FS_IMMUTABLE_FL))
        vt.press_pad(Coord.parse("B1"))
        assert vt.table.not_saving is SaveFault.READ_ONLY
        assert footer(vt) == "Not saving: read-only"
        assert "games.sqlite3-shm is immutable" in caplog.text
        vt.press_pad(Coord.parse("C4"))
        vt.wait(RETRY_S)
        assert vt.table.not_saving is SaveFault.READ_ONLY  # still immutable: still held back
        monkeypatch.setattr(fcntl, "ioctl", flags_reported(0))
        vt.wait(RETRY_S)
        assert vt.table.saving
        played = vt.table.game.applied
    with GameStore(vt.store.state_dir) as store:
        saved = store.latest_game()
        assert saved is not None and saved.replay().applied == played


@pytest.fixture
def chattr_state(tmp_path: Path) -> Iterator[Path]:
    """A state folder on a file system where `chattr +i` works (root only); every flag is taken
    off again after the test."""
    if os.geteuid() != 0:
        pytest.skip("chattr +i needs root (CI runs the tests as root)")
    probe = tmp_path / "probe"
    probe.write_bytes(b"")
    tried = subprocess.run(
        ["chattr", "+i", str(probe)], capture_output=True, text=True, check=False
    )
    if tried.returncode != 0:
        pytest.skip(f"no immutable attribute on this file system: {tried.stderr.strip()}")
    subprocess.run(["chattr", "-i", str(probe)], check=True)
    state = tmp_path / "state"
    try:
        yield state
    finally:
        subprocess.run(["chattr", "-R", "-i", "-a", str(tmp_path)], check=False)


_TABLE = """
    import json, pathlib, random, sys
    from board_rules.codenames import Coord, Key
    from firmware.table.config import TableConfig
    from firmware.virtual.table import VirtualTable
    vt = VirtualTable(TableConfig(), pathlib.Path({state!r}), rng=random.Random(1),
                      first_key=Key.parse({key!r}))
    def report(step):
        print(json.dumps({{"step": step, "not_saving": None if vt.table.not_saving is None
                          else vt.table.not_saving.value, "applied": len(vt.table.game.applied)}}),
              flush=True)
    vt.turn(1); vt.push(); vt.press_pad(Coord.parse("A1"))
    report("played")
    sys.stdin.readline()  # the -shm is immutable now
    vt.press_pad(Coord.parse("B1")); vt.press_pad(Coord.parse("C4"))
    report("after")
    sys.stdin.readline()  # the flag is off again, or stays
    vt.wait({retry})
    report("retried")
    vt.close()
    report("stopped")
"""


class TableProcess:
    """The table in a process of its own, stepped through its stdin."""

    def __init__(self, state: Path) -> None:
        code = textwrap.dedent(_TABLE.format(state=str(state), key=str(KEY), retry=RETRY_S))
        self.process = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def report(self) -> dict[str, object]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, self.finish()[1]
        answer: dict[str, object] = json.loads(line)
        return answer

    def go_on(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str]:
        _, err = self.process.communicate(timeout=120)
        return self.process.returncode, err


def chattr(flag: str, path: Path) -> None:
    subprocess.run(["chattr", flag, str(path)], check=True)


@pytest.mark.parametrize("freed", [True, False], ids=["flag-taken-off", "flag-kept"])
def test_a_table_whose_shm_turns_immutable_mid_game_plays_on_and_stops_cleanly(
    chattr_state: Path, freed: bool
) -> None:
    table = TableProcess(chattr_state)
    assert table.report() == {"step": "played", "not_saving": None, "applied": 2}
    shm = shm_path(chattr_state / DATABASE_NAME)
    chattr("+i", shm)
    table.go_on()
    assert table.report() == {"step": "after", "not_saving": "read-only", "applied": 4}
    if freed:
        chattr("-i", shm)
    table.go_on()
    retried = table.report()
    assert retried["not_saving"] == (None if freed else "read-only")
    assert table.report()["step"] == "stopped"
    code, err = table.finish()
    assert code == 0, err
    assert code != -signal.SIGBUS
    assert f"{shm} is immutable" in err
    subprocess.run(["chattr", "-i", str(shm)], capture_output=True, check=False)  # if still there
    with GameStore(chattr_state) as store:
        saved = store.latest_game()
        assert saved is not None
        standing = len(saved.replay().applied)
    kept = [path for path in chattr_state.iterdir() if path.name.startswith(UNSAVED_PREFIX)]
    if freed:
        assert standing == 4 and kept == []
    else:
        # Held back to the end: kept in a private file to recover from, said in the journal.
        assert standing == 2 and len(kept) == 1 and str(kept[0]) in err


def test_a_table_restarted_on_an_immutable_shm_resumes_and_catches_up(
    chattr_state: Path, virtual_table: TableFactory
) -> None:
    table = TableProcess(chattr_state)
    table.report()
    chattr("+i", shm_path(chattr_state / DATABASE_NAME))
    table.process.kill()  # as the crash or power cut that leaves the flag behind
    table.finish()
    with virtual_table(chattr_state, TableConfig()) as vt:
        assert len(vt.table.game.applied) == 2
        assert vt.table.not_saving is SaveFault.READ_ONLY
        assert footer(vt) == "Not saving: read-only"
        vt.press_pad(Coord.parse("B1"))
        chattr("-i", shm_path(chattr_state / DATABASE_NAME))
        vt.wait(RETRY_S)
        assert vt.table.saving
        played = vt.table.game.applied
    with GameStore(chattr_state) as store:
        saved = store.latest_game()
        assert saved is not None and saved.replay().applied == played
