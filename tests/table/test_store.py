"""Saved games in SQLite: durable settings, resume by replay, corrupt files, failing disks."""

import errno
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from board_rules.codenames import Game, Mode, parse_action
from firmware.table.store import (
    DATABASE_NAME,
    GameStore,
    StoreError,
    TimedAction,
    UnreadableGameError,
)
from firmware.table.store_faults import SaveFault

from ..rules_helpers import KEY


def played(game: Game, lines: list[str], log: list[TimedAction]) -> None:
    for n, line in enumerate(lines):
        action = parse_action(line)
        game.play(action)
        log.append(TimedAction(action, 1000.0 + n))


def test_the_database_is_private_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with GameStore(tmp_path / "state") as store:
        assert store.available
        mode = stat.S_IMODE(os.stat(tmp_path / "state" / DATABASE_NAME).st_mode)
        assert mode == 0o600
        assert stat.S_IMODE(os.stat(tmp_path / "state").st_mode) == 0o700
    conn = sqlite3.connect(tmp_path / "state" / DATABASE_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_each_save_is_synchronous_full(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        conn = store._conn
        assert conn is not None
        assert conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_a_saved_game_resumes_by_replaying_its_actions(tmp_path: Path) -> None:
    game, log = Game(KEY, Mode.COOP), []
    with GameStore(tmp_path, wall_clock=lambda: 5.0) as store:
        game_id = store.start_game(game.key, game.mode)
        for line in ["clue 2", "touch A1", "undo", "touch C4", "cover E2"]:
            played(game, [line], log)
            store.save(game_id, game, log)
    with GameStore(tmp_path) as store:
        saved = store.latest_game()
        assert saved is not None
        assert (saved.game_id, saved.key, saved.mode) == (game_id, KEY, Mode.COOP)
        assert saved.actions == tuple(log)
        assert saved.replay().state == game.state


def test_every_game_is_kept_with_its_result(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        first, log = Game(KEY), []
        first_id = store.start_game(first.key, first.mode)
        played(first, ["clue 1", "touch E5"], log)
        store.save(first_id, first, log)
        second_id = store.start_game(KEY, Mode.STANDARD)
        assert store.game_ids() == [first_id, second_id]
        conn = store._conn
        assert conn is not None
        row = conn.execute("SELECT phase, winner, reason FROM games WHERE id = ?", (first_id,))
        assert row.fetchone() == ("over", "blue", "assassin")
        latest = store.latest_game()
        assert latest is not None and latest.game_id == second_id and latest.actions == ()


def test_a_save_writes_the_games_row_only_when_its_result_changes(tmp_path: Path) -> None:
    # A guess that leaves the phase, winner, reason and score as they were writes its action
    # alone, as one statement: no page of the games table goes to the SD card for it.
    game, log = Game(KEY), []
    with GameStore(tmp_path) as store:
        game_id = store.start_game(game.key, game.mode)
        conn = store._conn
        assert conn is not None
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        results = []
        for line in ["clue 2", "touch A1", "touch A2", "touch E5"]:
            statements.clear()
            before = game.state
            played(game, [line], log)
            store.save(game_id, game, log)
            after = game.state
            result_changed = (before.phase, before.winner, before.score) != (
                after.phase,
                after.winner,
                after.score,
            )
            updates = [sql for sql in statements if sql.startswith("UPDATE games")]
            results.append((line, result_changed, len(updates)))
            assert len(updates) == (1 if line == "clue 2" or result_changed else 0), line
            if not updates:
                assert [sql.split()[0] for sql in statements] == ["INSERT"]
        assert any(not changed for _, changed, _ in results[1:]), results
        row = conn.execute("SELECT phase, winner, reason FROM games WHERE id = ?", (game_id,))
        assert row.fetchone() == ("over", "blue", "assassin")
    with GameStore(tmp_path) as store:
        saved = store.latest_game()
        assert saved is not None and saved.actions == tuple(log)
        assert saved.replay().state == game.state


def test_settings_survive_a_restart(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        store.save_setting("language", "pt")
        store.save_setting("timer_s", 90)
        store.save_setting("timer_s", 120)
    with GameStore(tmp_path) as store:
        assert store.load_settings() == {"language": "pt", "timer_s": 120}


def test_a_damaged_row_is_reported_without_the_key_and_a_bad_setting_is_left_out(
    tmp_path: Path,
) -> None:
    game, log = Game(KEY), []
    with GameStore(tmp_path) as store:
        game_id = store.start_game(game.key, game.mode)
        played(game, ["clue 2", "touch A1"], log)
        store.save(game_id, game, log)
        store.save_setting("timer_s", 60)
        conn = store._conn
        assert conn is not None
        conn.execute("UPDATE actions SET action = 'bogus' WHERE seq = 1")
        conn.execute("INSERT INTO settings (name, value) VALUES ('mode', 'not json')")
        with pytest.raises(
            UnreadableGameError, match=f"saved game {game_id} cannot be read: unknown action"
        ) as raised:
            store.latest_game()
        assert str(KEY) not in str(raised.value)
        conn.execute("UPDATE games SET key = 'RRRRR' WHERE id = ?", (game_id,))
        with pytest.raises(UnreadableGameError) as raised:
            store.game(game_id)
        assert "RRRRR" not in str(raised.value)
        assert store.load_settings() == {"timer_s": 60}


def test_a_corrupt_database_is_moved_aside_with_its_wal_and_shm(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"this is not a database" * 100)
    (tmp_path / f"{DATABASE_NAME}-wal").write_bytes(b"the wal")
    (tmp_path / f"{DATABASE_NAME}-shm").write_bytes(b"the shm")
    with GameStore(tmp_path, wall_clock=lambda: 0.25) as store:
        assert store.available and store.fault is None
        moved = store.moved_aside
        assert moved == tmp_path / f"{DATABASE_NAME}.broken-19700101T000000.250000Z"
        assert moved.read_bytes().startswith(b"this is not")
        assert Path(f"{moved}-wal").read_bytes() == b"the wal"
        assert Path(f"{moved}-shm").exists()  # an index SQLite rebuilds: it moves as it is
        assert not list(tmp_path.glob("*.kept"))
        assert store.latest_game() is None
        store.start_game(KEY, Mode.STANDARD)


def test_two_moves_at_the_same_instant_keep_both_files(tmp_path: Path) -> None:
    moved = []
    for garbage in (b"first damaged file", b"second damaged file"):
        (tmp_path / DATABASE_NAME).write_bytes(garbage * 100)
        with GameStore(tmp_path, wall_clock=lambda: 1_800_000_000.0) as store:
            assert store.moved_aside is not None
            moved.append(store.moved_aside)
    assert moved[0] != moved[1]
    assert moved[0].read_bytes().startswith(b"first")
    assert moved[1].read_bytes().startswith(b"second")
    # A damaged file without companions leaves no empty -wal or -shm placeholders behind.
    assert sorted(p.name for p in tmp_path.iterdir() if "broken" in p.name) == sorted(
        p.name for p in moved
    )


def test_a_database_of_an_unknown_schema_is_kept_aside_whole(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DATABASE_NAME) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 99")
    with GameStore(tmp_path) as store:
        assert store.moved_aside is not None and store.fault is None
    with sqlite3.connect(store.moved_aside) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (99,)


def test_a_directory_where_the_database_should_be_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).mkdir()
    with GameStore(tmp_path) as store:
        assert not store.available
        assert store.fault is SaveFault.IO_ERROR
        assert store.moved_aside is None
        assert (tmp_path / DATABASE_NAME).is_dir()
        with pytest.raises(StoreError) as raised:
            store.start_game(KEY, Mode.STANDARD)
        assert raised.value.fault is SaveFault.IO_ERROR
        (tmp_path / DATABASE_NAME).rmdir()
        assert store.recover()
        store.start_game(KEY, Mode.STANDARD)


def test_an_unusable_state_directory_leaves_the_store_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the directory should be")
    with GameStore(blocker) as store:
        assert not store.available
        assert store.fault is SaveFault.IO_ERROR
        assert store.latest_game() is None
        assert store.load_settings() == {}
        with pytest.raises(StoreError):
            store.start_game(KEY, Mode.STANDARD)


def test_a_full_disk_raises_and_the_missed_actions_are_written_once_it_recovers(
    tmp_path: Path,
) -> None:
    game, log = Game(KEY), []
    with GameStore(tmp_path) as store:
        game_id = store.start_game(game.key, game.mode)
        conn = store._conn
        assert conn is not None
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        # SQLite's own "database or disk is full", as a full SD card gives it.
        conn.execute(f"PRAGMA max_page_count={pages}")
        # Enough actions to need new pages: a touch taken back and made again, many times.
        played(game, ["clue unlimited"] + ["touch A1", "undo"] * 300, log)
        with pytest.raises(StoreError, match="full") as raised:
            for n in range(1, len(log) + 1):
                store.save(game_id, game, log[:n])
        assert n < len(log)
        assert raised.value.fault is SaveFault.FULL and store.fault is SaveFault.FULL
        assert not store.writable
        assert store.recover()  # a full disk keeps its connection: the next write tells
        with pytest.raises(StoreError):
            store.save(game_id, game, log)
        conn.execute("PRAGMA max_page_count=1073741823")
        store.save(game_id, game, log)
        assert store.writable and store.fault is None
    with GameStore(tmp_path) as store:
        saved = store.latest_game()
        assert saved is not None and saved.actions == tuple(log)


def sqlite_error(code: int) -> sqlite3.Error:
    error = sqlite3.OperationalError("as SQLite raises it")
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


def test_each_refusal_of_the_disk_has_its_reason_and_only_damage_is_corruption() -> None:
    from firmware.table.store_faults import fault_of, is_corruption

    expected = {
        sqlite3.SQLITE_FULL: SaveFault.FULL,
        sqlite3.SQLITE_BUSY: SaveFault.LOCKED,
        sqlite3.SQLITE_READONLY: SaveFault.READ_ONLY,
        sqlite3.SQLITE_READONLY_DBMOVED: SaveFault.READ_ONLY,
        sqlite3.SQLITE_PERM: SaveFault.NO_PERMISSION,
        sqlite3.SQLITE_IOERR: SaveFault.IO_ERROR,
        sqlite3.SQLITE_IOERR_WRITE: SaveFault.IO_ERROR,
        sqlite3.SQLITE_IOERR_FSYNC: SaveFault.IO_ERROR,
    }
    for code, fault in expected.items():
        assert fault_of(sqlite_error(code)) is fault, code
        assert not is_corruption(sqlite_error(code))
    for code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT_INDEX):
        assert is_corruption(sqlite_error(code))
    assert fault_of(OSError(errno.ENOSPC, "No space left")) is SaveFault.FULL
    assert fault_of(OSError(errno.EROFS, "Read-only file system")) is SaveFault.READ_ONLY
    assert fault_of(OSError(errno.EACCES, "Permission denied")) is SaveFault.NO_PERMISSION
    assert fault_of(OSError(errno.EIO, "Input/output error")) is SaveFault.IO_ERROR
