"""Matches in the store, and the update of a database from before them (schema 1) that keeps
every saved game: `data/games-schema1.sqlite3` was written by the table's code of that time
(five games on the virtual table, the last in play, and a menu setting)."""

import shutil
import sqlite3
from pathlib import Path

from board_rules.codenames import Game, Mode, parse_action
from firmware.table.store import DATABASE_NAME, GameStore, TimedAction

from ..rules_helpers import KEY

SCHEMA_1 = Path(__file__).parent / "data" / "games-schema1.sqlite3"


def old_database(tmp_path: Path) -> Path:
    shutil.copyfile(SCHEMA_1, tmp_path / DATABASE_NAME)
    return tmp_path


def contents(folder: Path) -> tuple[list[tuple[object, ...]], ...]:
    conn = sqlite3.connect(folder / DATABASE_NAME)
    try:
        games = conn.execute(
            "SELECT id, key, mode, started_at, phase, winner, reason, score FROM games ORDER BY id"
        ).fetchall()
        actions = conn.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
        settings = conn.execute("SELECT * FROM settings ORDER BY name").fetchall()
        return games, actions, settings
    finally:
        conn.close()


def version(folder: Path) -> int:
    conn = sqlite3.connect(folder / DATABASE_NAME)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def finish(store: GameStore, lines: list[str], mode: Mode = Mode.STANDARD) -> int:
    game, log = Game(KEY, mode), []
    game_id = store.start_game(KEY, mode)
    for n, line in enumerate(lines):
        action = parse_action(line)
        game.play(action)
        log.append(TimedAction(action, 1000.0 + n))
    store.save(game_id, game, log)
    return game_id


RED_WINS = ["clue unlimited"] + [
    f"touch {c}" for c in (["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"])
]
BLUE_WINS = ["clue 1", "touch E5"]  # red meets the assassin


def test_an_old_database_is_brought_up_to_date_keeping_every_game(tmp_path: Path) -> None:
    folder = old_database(tmp_path)
    assert version(folder) == 1
    before = contents(folder)
    with GameStore(folder) as store:
        assert store.writable
        ids = store.game_ids()
        saved = {game_id: store.game(game_id) for game_id in ids}
        # The game on the table begins the first match; the games before belong to none.
        assert [store.match_of(game_id) for game_id in ids] == [None] * (len(ids) - 1) + [1]
        (match,) = store.matches()
        assert (match.match_id, match.games, match.red, match.blue) == (1, 0, 0, 0)
        # It began with that game: its start, not the time of the update.
        assert match.started_at == store.summaries(1)[0].started_at
        latest = store.latest_game()
        assert latest is not None and latest.game_id == ids[-1]
        assert not latest.replay().state.is_over  # the game in play resumes
    assert version(folder) == 2
    assert contents(folder) == before  # every game, action and setting as it was
    with GameStore(folder) as store:  # and once more: nothing changes at the next start
        assert {game_id: store.game(game_id) for game_id in store.game_ids()} == saved
        assert len(store.matches()) == 1
    assert contents(folder) == before


def test_an_old_database_reads_without_matches_for_staff_tools(tmp_path: Path) -> None:
    folder = old_database(tmp_path)
    with GameStore(folder, read_only=True) as store:
        summaries = store.summaries()
        assert len(summaries) == len(store.game_ids()) == 5
        assert all(summary.match_id is None for summary in summaries)
        assert store.matches() == []
    assert version(folder) == 1  # a reader never updates it


def test_games_join_the_latest_match_and_only_finished_standard_games_count(
    tmp_path: Path,
) -> None:
    with GameStore(tmp_path) as store:
        first = finish(store, RED_WINS)
        finish(store, BLUE_WINS)
        finish(store, RED_WINS, Mode.COOP)  # co-op: no team beats the other
        store.open_match(2000.0)
        in_play = finish(store, ["clue 1"])
        finish(store, BLUE_WINS)
        one, two = store.matches()
        assert (one.match_id, one.games, one.red, one.blue) == (1, 2, 1, 1)
        assert one.started_at == store.summaries()[-1].started_at  # the first game's start
        assert (two.started_at, two.games, two.red, two.blue) == (2000.0, 1, 0, 1)
        assert store.match_of(first) == 1 and store.match_of(in_play) == 2
        left_out = store.matches(leaving_out=first)[0]
        assert (left_out.red, left_out.blue) == (0, 1)


def test_a_new_match_can_take_the_game_in_play_along(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        finish(store, BLUE_WINS)
        empty = store.start_game(KEY, Mode.STANDARD)
        store.open_match(2000.0, moving=empty)
        assert store.match_of(empty) == 2
    with GameStore(tmp_path) as store:  # saved
        assert [m.match_id for m in store.matches()] == [1, 2]
        assert store.match_of(empty) == 2
