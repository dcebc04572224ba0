"""The store on real disks that refuse: full, locked by another process, read-only, not ours.

The full and read-only cases need a small file system of their own: a tmpfs mounted for the
test, which needs root (CI runs as root); elsewhere they are skipped with the reason. The lock is
held by a second process, as a staff tool would hold it.
"""

import json
import logging
import os
import pathlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from board_rules.codenames import Coord, Game, Mode, parse_action
from firmware.drivers.events import ConsoleButton
from firmware.table.config import TableConfig
from firmware.table.store import DATABASE_NAME, GameStore, StoreError, TimedAction
from firmware.table.store_faults import SaveFault
from firmware.table.unsaved import UNSAVED_PREFIX
from firmware.virtual.table import VirtualTable

from ..conftest import Cli, TableFactory
from ..key_traces import key_traces
from ..rules_helpers import KEY

FIRST_MOVES = ["clue 2", "touch A1"]  # A1 is red: red guesses on


def _root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs the tests as root)")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs of its own, unmounted after the test whatever happened."""
    _root_only()
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = _run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(mount_point))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        _run("chattr", "-R", "-i", str(mount_point))
        if _run("umount", str(mount_point)).returncode != 0:
            _run("umount", "--lazy", str(mount_point))  # a file still open: detach it anyway


def power_cut_game(state_dir: Path, lines: list[str]) -> None:
    """Play `lines` in another process that dies without closing: the game sits in the WAL."""
    code = f"""
        import os, pathlib
        from board_rules.codenames import Game, Key, parse_action
        from firmware.table.store import GameStore, TimedAction
        store = GameStore(pathlib.Path({str(state_dir)!r}))
        game, log = Game(Key.parse({str(KEY)!r})), []
        game_id = store.start_game(game.key, game.mode)
        for n, line in enumerate({lines!r}):
            game.play(parse_action(line))
            log.append(TimedAction(parse_action(line), 1000.0 + n))
            store.save(game_id, game, log)
        os._exit(0)
    """
    subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True)
    assert (state_dir / f"{DATABASE_NAME}-wal").stat().st_size > 0


def fill(disk: Path) -> Path:
    """Fill the disk to its last byte; the filler's path, to free it again."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_CREAT | os.O_WRONLY, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                continue
    finally:
        os.close(fd)
    return filler


def files(state_dir: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(state_dir.iterdir())}


def footer(vt: VirtualTable) -> str | None:
    screen = vt.display.screen
    assert screen is not None
    return screen.footer


def resumed(state_dir: Path) -> Game:
    with GameStore(state_dir) as store:
        saved = store.latest_game()
        assert saved is not None
        return saved.replay()


# Full disk


def test_a_full_disk_at_start_up_resumes_the_game_moves_nothing_and_catches_up(
    disk: Path,
    virtual_table: TableFactory,
) -> None:
    state = disk / "state"
    power_cut_game(state, FIRST_MOVES)
    filler = fill(disk)
    before = files(state)
    with virtual_table(state, TableConfig()) as vt:
        assert vt.table.state.to_dict()["covered"] == {"A1": "red"}
        assert files(state).keys() == before.keys()  # nothing moved aside, no WAL deleted
        # The WAL's last block of the disk may still hold an action's small pages: a save fails
        # once the WAL has to grow.
        for card in ("B1", "C1", "D1"):
            vt.press_pad(Coord.parse(card))
            if vt.table.not_saving is not None:
                break
        assert vt.table.not_saving is SaveFault.FULL
        assert footer(vt) == "Not saving: disk full"
        first = vt.table.state
        vt.press_button(ConsoleButton.NEW, hold_s=3.0)
        vt.turn(1)
        vt.push()
        vt.press_pad(Coord.parse("C1"))
        vt.wait(10.0)
        assert footer(vt) == "Not saving: disk full"
        filler.unlink()
        vt.wait(31.0)  # the longest back-off: no action needed
        assert vt.table.saving
        assert footer(vt) != "Not saving: disk full"
        last = vt.table.state
    with GameStore(state) as store:
        first_id, last_id = store.game_ids()
        assert store.game(first_id).replay().state == first
        assert store.game(last_id).replay().state == last


def play_past_a_full_disk(vt: VirtualTable, disk: Path) -> Path:
    """A clue of 9 and A1 saved, then B1 and C1 played on a full disk; the filler's path."""
    vt.turn(8)  # clue 9: every card below is a guess
    vt.push()
    vt.press_pad(Coord.parse("A1"))
    filler = fill(disk)
    for card in ("B1", "C1"):
        vt.press_pad(Coord.parse(card))
    assert vt.table.not_saving is SaveFault.FULL
    return filler


def test_a_disk_filled_mid_game_and_freed_again_loses_nothing(
    disk: Path, virtual_table: TableFactory
) -> None:
    state = disk / "state"
    with virtual_table(state, TableConfig()) as vt:
        play_past_a_full_disk(vt, disk).unlink()
        vt.press_pad(Coord.parse("D1"))  # the next action writes all missed, in order
        assert vt.table.saving
        played = vt.table.game.applied
    assert resumed(state).applied == played
    assert [str(a) for a in played] == ["clue 9", "touch A1", "touch B1", "touch C1", "touch D1"]


# Lock held by another process


class LockHolder:
    """A second process holding SQLite's write lock (`BEGIN EXCLUSIVE`) until released."""

    def __init__(self, path: Path, release_after_s: float | None = None) -> None:
        wait = "sys.stdin.read()" if release_after_s is None else f"time.sleep({release_after_s})"
        code = f"""
            import sqlite3, sys, time
            conn = sqlite3.connect({str(path)!r}, isolation_level=None)
            conn.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            {wait}
            conn.execute("COMMIT")
        """
        self.process = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline() == "locked\n"

    def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=10) == 0


def played(lines: list[str]) -> tuple[Game, list[TimedAction]]:
    game, log = Game(KEY), []
    for n, line in enumerate(lines):
        game.play(parse_action(line))
        log.append(TimedAction(parse_action(line), 1000.0 + n))
    return game, log


def test_a_lock_held_by_another_process_at_start_up_then_released(tmp_path: Path) -> None:
    power_cut_game(tmp_path, FIRST_MOVES)
    holder = LockHolder(tmp_path / DATABASE_NAME)
    try:
        with GameStore(tmp_path, busy_timeout_s=0.1) as store:
            assert store.fault is SaveFault.LOCKED
            saved = store.latest_game()  # reading goes on beside the lock
            assert saved is not None and len(saved.actions) == 2
            game, log = played([*FIRST_MOVES, "touch B1"])
            with pytest.raises(StoreError) as raised:
                store.save(saved.game_id, game, log)
            assert raised.value.fault is SaveFault.LOCKED
            holder.release()
            assert store.recover()
            store.save(saved.game_id, game, log)
            assert store.fault is None
    finally:
        if holder.process.poll() is None:
            holder.release()
    assert resumed(tmp_path).applied == game.applied
    assert not list(tmp_path.glob("*broken*"))


def test_a_lock_taken_mid_game_counts_as_a_fault_only_after_the_busy_timeout(
    tmp_path: Path,
) -> None:
    with GameStore(tmp_path, busy_timeout_s=10.0) as store:
        game, log = played(FIRST_MOVES)
        game_id = store.start_game(game.key, game.mode)
        # A short lock is waited for: the write goes through once it is released.
        LockHolder(tmp_path / DATABASE_NAME, release_after_s=0.2)
        store.save(game_id, game, log[:1])
        assert store.fault is None
    holder = LockHolder(tmp_path / DATABASE_NAME)
    with GameStore(tmp_path, busy_timeout_s=0.1) as store:
        with pytest.raises(StoreError, match="locked"):
            store.save(game_id, game, log)
        holder.release()
        store.save(game_id, game, log)
    assert resumed(tmp_path).applied == game.applied


# Read-only and not ours


def test_a_database_made_immutable_resumes_read_only_and_writes_once_it_is_not(
    disk: Path,
    virtual_table: TableFactory,
) -> None:
    # Root ignores file modes; the immutable attribute refuses root too.
    state = disk / "state"
    power_cut_game(state, FIRST_MOVES)
    if _run("chattr", "+i", str(state / DATABASE_NAME)).returncode != 0:
        pytest.skip("this file system has no immutable attribute (chattr +i)")
    before = files(state)
    with virtual_table(state, TableConfig()) as vt:
        assert vt.table.state.to_dict()["covered"] == {"A1": "red"}
        assert vt.table.not_saving is SaveFault.READ_ONLY
        assert footer(vt) == "Not saving: read-only"
        vt.press_pad(Coord.parse("B1"))
        assert files(state)[DATABASE_NAME] == before[DATABASE_NAME]
        assert _run("chattr", "-i", str(state / DATABASE_NAME)).returncode == 0
        vt.wait(31.0)
        assert vt.table.saving
        assert footer(vt) != "Not saving: read-only"
        played_here = vt.table.game.applied
    assert resumed(state).applied == played_here


def test_a_read_only_disk_resumes_a_cleanly_closed_game(disk: Path) -> None:
    state = disk / "state"
    with GameStore(state) as store:
        game, log = played(FIRST_MOVES)
        store.save(store.start_game(game.key, game.mode), game, log)
    assert not (state / f"{DATABASE_NAME}-wal").exists()  # closed: no WAL to read
    assert _run("mount", "-o", "remount,ro", str(disk)).returncode == 0
    try:
        with GameStore(state) as store:
            assert store.fault is SaveFault.READ_ONLY
            saved = store.latest_game()
            assert saved is not None and saved.replay().applied == game.applied
            with pytest.raises(StoreError):
                store.start_game(KEY, Mode.STANDARD)
    finally:
        _run("mount", "-o", "remount,rw", str(disk))


def test_a_database_of_another_owner_is_left_alone(tmp_path: Path) -> None:
    _root_only()
    state = tmp_path / "state"
    GameStore(state).close()
    state.chmod(0o755)
    tmp_path.chmod(0o755)
    code = f"""
        import os, pathlib
        from firmware.table.store import GameStore
        os.setgid(65534)
        os.setuid(65534)  # nobody, after the imports it could not read
        for name in ("state", "absent"):
            store = GameStore(pathlib.Path({str(tmp_path)!r}) / name)
            print(name, store.fault.name if store.fault else None, store.available)
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[:2] == [
        "state NO_PERMISSION False",
        "absent NO_PERMISSION False",
    ]
    assert sorted(p.name for p in state.iterdir()) == [DATABASE_NAME]


# Damage


def test_a_damaged_database_is_moved_aside_with_its_real_wal_byte_for_byte(
    tmp_path: Path,
) -> None:
    GameStore(tmp_path).close()  # the tables, checkpointed: the WAL then holds no header
    power_cut_game(tmp_path, FIRST_MOVES)
    path = tmp_path / DATABASE_NAME
    wal = Path(f"{path}-wal").read_bytes()
    path.write_bytes(b"garbage " * 4096)
    with GameStore(tmp_path) as store:
        assert store.moved_aside is not None
        moved = store.moved_aside
        assert store.fault is None and store.latest_game() is None
    # SQLite itself would have deleted this WAL on closing the damaged file.
    assert Path(f"{moved}-wal").read_bytes() == wal
    assert not list(tmp_path.glob("*.kept"))


def test_moved_names_never_collide_even_at_one_instant(tmp_path: Path) -> None:
    moved = []
    for n in range(3):
        (tmp_path / DATABASE_NAME).write_bytes(f"damaged {n} ".encode() * 500)
        (tmp_path / f"{DATABASE_NAME}-wal").write_bytes(f"wal {n}".encode())
        with GameStore(tmp_path, wall_clock=lambda: 1_800_000_000.5) as store:
            assert store.moved_aside is not None
            moved.append(store.moved_aside)
    assert len(set(moved)) == 3
    for n, path in enumerate(moved):
        assert path.read_bytes().startswith(f"damaged {n}".encode())
        assert Path(f"{path}-wal").read_bytes() == f"wal {n}".encode()
    assert pathlib.Path(moved[1]).name.endswith("-1")


def test_a_full_disk_resumes_a_cleanly_closed_game_and_writes_once_freed(disk: Path) -> None:
    state = disk / "state"
    game, log = played(FIRST_MOVES)
    with GameStore(state) as store:
        game_id = store.start_game(game.key, game.mode)
        store.save(game_id, game, log[:1])
    filler = fill(disk)
    with GameStore(state) as store:
        saved = store.latest_game()
        assert saved is not None and saved.replay().applied == game.applied[:1]
        with pytest.raises(StoreError):
            store.save(game_id, game, log)
        assert store.fault is SaveFault.FULL  # told apart from the I/O error SQLite reports
        filler.unlink()
        assert store.recover()
        store.save(game_id, game, log)
    assert resumed(state).applied == game.applied


def test_a_wal_left_under_its_spare_name_by_a_power_cut_is_put_back(tmp_path: Path) -> None:
    GameStore(tmp_path).close()
    power_cut_game(tmp_path, FIRST_MOVES)
    # As a check cut short after SQLite removed the WAL and before the move: only the spare
    # name holds the game.
    wal = tmp_path / f"{DATABASE_NAME}-wal"
    wal.rename(f"{wal}.kept")
    with GameStore(tmp_path) as store:
        saved = store.latest_game()
        assert saved is not None and [str(t.action) for t in saved.actions] == FIRST_MOVES
    assert not list(tmp_path.glob("*.kept"))


# A clean stop while writes are held back


def test_a_clean_stop_after_the_disk_is_freed_saves_every_action_held_back(
    disk: Path, virtual_table: TableFactory
) -> None:
    state = disk / "state"
    with virtual_table(state, TableConfig()) as vt:
        # Writable again, and the stop comes before the next retry.
        play_past_a_full_disk(vt, disk).unlink()
        played = vt.table.game.applied
    assert resumed(state).applied == played
    assert not [path for path in state.iterdir() if path.name.startswith(UNSAVED_PREFIX)]


def test_a_clean_stop_on_a_disk_still_refusing_keeps_the_game_in_a_private_file(
    disk: Path,
    virtual_table: TableFactory,
    cli: Cli,
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = disk / "state"
    power_cut_game(state, FIRST_MOVES)
    if _run("chattr", "+i", str(state / DATABASE_NAME)).returncode != 0:
        pytest.skip("this file system has no immutable attribute (chattr +i)")
    with caplog.at_level(logging.ERROR), virtual_table(state, TableConfig()) as vt:
        assert vt.table.not_saving is SaveFault.READ_ONLY
        vt.press_pad(Coord.parse("B1"))
        vt.press_pad(Coord.parse("C4"))  # a bystander: blue's turn
        state_played = vt.table.state
    [kept] = [path for path in state.iterdir() if path.name.startswith(UNSAVED_PREFIX)]
    assert kept.stat().st_mode & 0o777 == 0o600  # it holds the key
    replayed = cli("replay", kept)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["covered"] == state_played.to_dict()["covered"]
    # The journal says where, never what.
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert str(kept) in logged and "replay" in logged
    assert key_traces(logged, KEY, covered=state_played.covered) == []


def test_a_clean_stop_keeps_the_game_in_the_runtime_folder_when_the_state_folder_is_full(
    disk: Path,
    virtual_table: TableFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = disk / "state"
    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    with virtual_table(state, TableConfig()) as vt:
        vt.turn(8)
        vt.push()
        fill(disk)  # and never freed: the state folder takes no file either
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.not_saving is SaveFault.FULL
        with caplog.at_level(logging.ERROR):
            vt.close()
    # The runtime folder took it instead.
    [kept] = list(runtime.iterdir())
    assert kept.read_text().splitlines()[3:] and "touch A1" in kept.read_text()
    assert str(kept) in caplog.text
