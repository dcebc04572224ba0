"""The match on the table: games won per team since the match began, on the OLED between games,
NEW going on with it and the menu's "New match" starting another; saved across restarts."""

import contextlib
import sqlite3
from pathlib import Path

from board_rules.codenames import ALL_COORDS, Identity, Mode
from firmware.drivers.events import ConsoleButton
from firmware.table.config import TableConfig
from firmware.table.i18n import translations
from firmware.table.menu import ITEMS, MenuItem
from firmware.table.screens import compose
from firmware.table.settings import TableSettings
from firmware.table.store import GameStore
from firmware.virtual.table import VirtualTable
from tools.soak import HOLD_S

from ..conftest import TableFactory
from ..table_scripts import announce
from .test_table_faults import fill_up, free_up

ONE_WIN = ("Match: red 1 · blue 0", "Match: red 0 · blue 1")


def footer(vt: VirtualTable, language: str = "en") -> str | None:
    return compose(vt.table.view(vt.clock.monotonic()), translations(language)).footer


def lines(vt: VirtualTable) -> list[str]:
    return compose(vt.table.view(vt.clock.monotonic()), translations("en")).text_lines


def lose(vt: VirtualTable) -> None:
    """The team to play touches the assassin: the other team wins."""
    state = vt.table.state
    assassin = next(c for c in ALL_COORDS if state.key[c] is Identity.ASSASSIN)
    announce(vt, 0)
    vt.press_pad(assassin)
    assert vt.table.state.is_over


def new_game(vt: VirtualTable) -> None:
    vt.press_button(ConsoleButton.NEW, HOLD_S[ConsoleButton.NEW])


def undo(vt: VirtualTable) -> None:
    vt.press_button(ConsoleButton.UNDO, HOLD_S[ConsoleButton.UNDO])


def choose_new_match(vt: VirtualTable) -> None:
    vt.push(hold_s=1.2)
    vt.turn(ITEMS.index(MenuItem.NEW_MATCH))
    vt.push()


def test_each_win_counts_for_its_team_and_shows_between_games(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    with virtual_table() as vt:
        starting = vt.table.state.turn
        lose(vt)
        winner = starting.other.value
        assert footer(vt) == f"Match: red {int(winner == 'red')} · blue {int(winner == 'blue')}"
        new_game(vt)
        assert not str(footer(vt)).startswith("Match")  # in play: the agents left
        second_loser = vt.table.state.turn
        lose(vt)
        wins = {"red": 0, "blue": 0}
        wins[winner] += 1
        wins[second_loser.other.value] += 1
        expected = f"Match: red {wins['red']} · blue {wins['blue']}"
        assert footer(vt) == expected
        assert footer(vt, "pt") == f"Série: verm. {wins['red']} · azul {wins['blue']}"
    # Saved: a restart shows the same match.
    with virtual_table(tmp_path) as vt:
        assert footer(vt) == expected


def test_an_undone_win_is_no_longer_counted(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        lose(vt)
        undo(vt)
        assert not vt.table.state.is_over
        lose(vt)
        assert footer(vt) in ONE_WIN


def test_undo_of_new_brings_back_the_matchs_tally(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        lose(vt)
        shown = footer(vt)
        new_game(vt)
        undo(vt)
        assert vt.table.state.is_over
        assert footer(vt) == shown  # counted once, not twice


def test_a_new_match_starts_from_the_next_game_when_this_one_was_played(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    with virtual_table() as vt:
        lose(vt)
        choose_new_match(vt)
        assert lines(vt)[1:3] == ["New match", "From the next game"]
        assert footer(vt) == "Match: red 0 · blue 0"  # the game in play was the match before
        new_game(vt)
        lose(vt)
        assert footer(vt) in ONE_WIN
        shown = footer(vt)
    with virtual_table(tmp_path) as vt:
        assert footer(vt) == shown
    with GameStore(tmp_path, read_only=True) as store:
        first, second = store.matches()
        assert (first.red + first.blue, second.red + second.blue) == (1, 1)


def test_a_new_match_chosen_before_any_play_takes_the_game_in_play(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    with virtual_table() as vt:
        lose(vt)
        new_game(vt)
        choose_new_match(vt)
        assert lines(vt)[1] == "New match"
        assert "From the next game" not in lines(vt)
        lose(vt)
        assert footer(vt) in ONE_WIN
        game_id = vt.game_id
    with GameStore(tmp_path, read_only=True) as store:
        assert game_id is not None and store.match_of(game_id) == 2


def test_co_op_games_do_not_count(virtual_table: TableFactory) -> None:
    coop = TableConfig(settings=TableSettings(mode=Mode.COOP))
    with virtual_table(config=coop) as vt:
        lose(vt)
        assert footer(vt) == "Match: red 0 · blue 0"


def test_behind_a_full_disk_each_game_lands_in_its_own_match(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    with virtual_table() as vt:
        lose(vt)
        conn = vt.store._conn
        assert conn is not None
        fill_up(conn)
        with contextlib.suppress(sqlite3.OperationalError):  # no room for a game's row either
            for _ in range(1000):
                conn.execute(
                    "INSERT INTO games (key, mode, started_at, phase) VALUES ('', '', 0, '')"
                )
        new_game(vt)
        announce(vt)  # played in: the match begins with the next game
        choose_new_match(vt)
        new_game(vt)
        lose(vt)
        assert not vt.table.saving
        assert len(vt.store.game_ids()) > 1  # the filler rows
        conn.execute("DELETE FROM games WHERE key = ''")
        free_up(conn)
        vt.wait(31.0)
        assert vt.table.saving
        shown = footer(vt)
        assert shown in ONE_WIN
        first, left, last = vt.store.game_ids()
        assert [vt.store.match_of(game_id) for game_id in (first, left, last)] == [1, 1, 2]
    with virtual_table(tmp_path) as vt:
        assert footer(vt) == shown
