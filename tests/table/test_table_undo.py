"""UNDO end to end on virtual hardware: it takes back a NEW (on the LEDs, the OLED and in the
store, across power cuts) and says what it took back and which cover to lift."""

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from board_rules.codenames import (
    Coord,
    Cover,
    Done,
    Game,
    GiveClue,
    Penalty,
    PlayAction,
    Timeout,
    Touch,
    generate_key,
)
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.table import screen_texts as m
from firmware.table.config import TableConfig
from firmware.table.i18n import LANGUAGES, translations
from firmware.table.saving import RecordedGame, Saver
from firmware.table.settings import TableSettings
from firmware.table.store import DATABASE_NAME, GameStore, TimedAction
from firmware.table.store_faults import SaveFault

from ..conftest import TableFactory
from ..rules_helpers import KEY
from ..table_scripts import KEY_LINE, announce, clue, play
from .test_table_faults import fill_up, free_up

NEW = "button new 2.5\n"
UNDO = "button undo 1.2\n"
PLAYED = f"{KEY_LINE}\n{clue(2)}press A1\nwait 3\n"
"""The known key's game with clue 2 and a red agent found; the notice gone by the dump."""
STRICT = TableConfig(settings=TableSettings(timer_s=30, strict=True))


def shows(dump: dict[str, Any], *lines: str) -> bool:
    """The OLED shows `lines`, one after the other."""
    oled: list[str] = dump["oled"]
    return any(oled[i : i + len(lines)] == list(lines) for i in range(len(oled)))


def saved_games(state_dir: Path) -> list[tuple[str, list[str]]]:
    """Every game in the store, oldest first: its key and its actions."""
    with GameStore(state_dir) as store:
        games = [store.game(game_id) for game_id in store.game_ids()]
    return [(str(game.key), [str(timed.action) for timed in game.actions]) for game in games]


def test_undo_right_after_new_brings_back_the_game_on_leds_oled_and_disk(tmp_path: Path) -> None:
    script = f"{PLAYED}dump\n{NEW}dump\n{UNDO}dump\nwait 3\ndump\n"
    before, new, undone, settled = play(script, tmp_path)
    assert new["game"]["covered"] == {} and new["game"]["key"] != before["game"]["key"]
    assert undone["game"] == before["game"]
    assert shows(undone, "Undone: new game")
    assert settled["oled"] == before["oled"]
    assert settled["leds"] == before["leds"] != new["leds"]
    assert saved_games(tmp_path) == [(before["game"]["key"], ["clue 2", "touch A1"])]


def test_a_power_cut_between_new_and_undo_still_allows_the_undo(tmp_path: Path) -> None:
    script = f"{PLAYED}dump\n{NEW}power-cut\ndump\n{UNDO}dump\n"
    before, resumed, undone = play(script, tmp_path)
    assert resumed["game"]["key"] != before["game"]["key"]  # the new game is the one resumed
    assert undone["game"] == before["game"]
    assert shows(undone, "Undone: new game")
    assert saved_games(tmp_path) == [(before["game"]["key"], ["clue 2", "touch A1"])]


def test_a_power_cut_after_the_undo_resumes_the_game_brought_back(tmp_path: Path) -> None:
    script = f"{PLAYED}dump\n{NEW}{UNDO}power-cut\nwait 3\ndump\npress B1\ndump\n"
    before, resumed, played_on = play(script, tmp_path)
    assert resumed["game"] == before["game"]
    assert resumed["leds"] == before["leds"]
    assert played_on["game"]["covered"] == {"A1": "red", "B1": "red"}
    assert saved_games(tmp_path) == [(before["game"]["key"], ["clue 2", "touch A1", "touch B1"])]


def test_only_the_last_new_is_taken_back(tmp_path: Path) -> None:
    script = f"{PLAYED}dump\n{NEW}dump\n{NEW}{UNDO}dump\n{UNDO}dump\n"
    first, second, back, again = play(script, tmp_path)
    assert back["game"] == second["game"]
    assert again["game"] == {**second["game"], "rejected": again["game"]["rejected"]}
    assert [r["reason"] for r in again["game"]["rejected"]] == ["nothing-to-undo"]
    assert shows(again, "Nothing to undo")
    keys = [key for key, _ in saved_games(tmp_path)]
    assert keys == [first["game"]["key"], second["game"]["key"]]


def test_the_new_games_actions_are_taken_back_first_then_the_new(tmp_path: Path) -> None:
    script = f"{PLAYED}dump\n{NEW}{clue(3)}{UNDO}dump\n{UNDO}dump\n"
    before, clue_undone, new_undone = play(script, tmp_path)
    assert clue_undone["game"]["phase"] == "clue" and clue_undone["game"]["key"] != KEY_LINE[4:]
    assert shows(clue_undone, "Undone: clue 3")
    assert new_undone["game"] == before["game"]
    assert shows(new_undone, "Undone: new game")
    # The new game, its clue and its undo with it, is gone from the disk.
    assert saved_games(tmp_path) == [(before["game"]["key"], ["clue 2", "touch A1"])]


def test_a_new_game_later_is_a_new_row_again(tmp_path: Path) -> None:
    script = f"{PLAYED}{NEW}{UNDO}{NEW}{clue(1)}dump\n"
    (later,) = play(script, tmp_path)
    games = saved_games(tmp_path)
    assert [actions for _, actions in games] == [["clue 2", "touch A1"], ["clue 1"]]
    assert games[1][0] == later["game"]["key"]


def test_the_selector_comes_back_and_the_sand_timer_stays_stopped(
    virtual_table: TableFactory,
) -> None:
    timed = TableConfig(settings=TableSettings(timer_s=60))
    with virtual_table(config=timed) as vt:
        vt.turn(2)  # the red spymaster is dialling 3
        vt.press_button(ConsoleButton.TIMER)
        assert vt.table.view(vt.clock.monotonic()).timer_left is not None
        vt.press_button(ConsoleButton.NEW, 2.5)
        vt.press_button(ConsoleButton.UNDO, 1.2)
        vt.wait(3.0)
        view = vt.table.view(vt.clock.monotonic())
        assert (view.selector, view.timer_left) == (3, None)
        vt.push()
        assert vt.table.state.clue == 3


def test_a_disk_full_at_new_and_undo_leaves_the_disk_with_the_game_brought_back(
    virtual_table: TableFactory, tmp_path: Path
) -> None:
    with virtual_table() as vt:
        announce(vt)
        conn = vt.store._conn
        assert conn is not None
        fill_up(conn)
        vt.press_pad(Coord.parse("A1"))
        vt.press_button(ConsoleButton.NEW, 2.5)
        vt.press_button(ConsoleButton.UNDO, 1.2)
        vt.press_pad(Coord.parse("B1"))
        assert vt.table.not_saving is SaveFault.FULL
        free_up(conn)
        vt.wait(31.0)
        assert vt.table.saving
        state = vt.table.state
    assert [actions for _, actions in saved_games(tmp_path)] == [["clue 2", "touch A1", "touch B1"]]
    with virtual_table() as vt:
        assert vt.table.state == state


def test_a_new_game_saved_then_taken_back_behind_a_failing_disk_is_deleted_later(
    virtual_table: TableFactory, tmp_path: Path
) -> None:
    with virtual_table() as vt:
        announce(vt)
        vt.press_pad(Coord.parse("A1"))
        vt.press_button(ConsoleButton.NEW, 2.5)  # saved: the disk is fine
        conn = vt.store._conn
        assert conn is not None
        fill_up(conn)
        announce(vt)  # not saved: the disk is full
        vt.press_button(ConsoleButton.UNDO, 1.2)
        with sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None) as other:
            # Another writer holds the lock: the deletion cannot be written either.
            other.execute("BEGIN IMMEDIATE")
            vt.press_button(ConsoleButton.UNDO, 1.2)
            assert vt.table.not_saving is SaveFault.LOCKED
            assert len(vt.store.game_ids()) == 2  # the new game is still on the disk, for now
            other.execute("ROLLBACK")
        free_up(conn)
        vt.wait(31.0)
        assert vt.table.saving
        state = vt.table.state
    assert [actions for _, actions in saved_games(tmp_path)] == [["clue 2", "touch A1"]]
    with virtual_table() as vt:
        assert vt.table.state == state


def test_undo_says_which_cover_to_lift(tmp_path: Path) -> None:
    script = f"{PLAYED}{UNDO}dump\n{clue(2)}press C4\npress D5\n{UNDO}dump\n"
    touched, covered = play(script, tmp_path)
    assert touched["game"]["covered"] == {}
    assert shows(touched, "Undone: A1", "Lift its cover")
    # C4 ended the turn (bystander); D5 is nobody's word: blue's next clue is not given yet.
    assert shows(covered, "Undone: C4", "Lift its cover")


def test_undo_of_a_penalty_cover_says_which_cover_to_lift(tmp_path: Path) -> None:
    script = f"{PLAYED}button penalty 1.2\npress B3\nbutton done\n{UNDO}dump\n{UNDO}dump\n"
    cover, penalty = play(script, tmp_path)
    assert cover["game"]["phase"] == "penalty_cover"
    assert shows(cover, "Undone: B3", "Lift its cover")
    assert penalty["game"]["phase"] == "guess"
    assert shows(penalty, "Undone: penalty")


def test_undo_names_the_clue_the_stop_and_the_timeout(tmp_path: Path) -> None:
    script = f"{PLAYED}button done\n{UNDO}dump\nbutton timer\nwait 31\n{UNDO}dump\n{UNDO}dump\n"
    stop, timeout, touch = play(script, tmp_path / "a", config=STRICT)
    assert shows(stop, "Undone: stop") and stop["game"]["phase"] == "guess"
    assert shows(timeout, "Undone: timeout") and timeout["game"]["phase"] == "guess"
    assert shows(touch, "Undone: A1", "Lift its cover")
    (unlimited,) = play(f"{KEY_LINE}\n{clue('unlimited')}{UNDO}dump\n", tmp_path / "b")
    assert shows(unlimited, "Undone: clue ∞")


def test_undo_speaks_the_tables_language(tmp_path: Path) -> None:
    script = f"{PLAYED}{UNDO}dump\n{NEW}{UNDO}dump\n"
    touch, new = play(script, tmp_path, language="es")
    assert shows(touch, "Deshecho: A1", "Destapa la palabra")
    assert shows(new, "Deshecho: nueva partida")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_undone_text_is_translated(language: str) -> None:
    catalog = translations(language)
    card = Coord.parse("C3")
    actions: list[PlayAction] = [
        Touch(card),
        Cover(card),
        GiveClue(2),
        Done(),
        Penalty(),
        Timeout(),
    ]
    lines = [m.undone_lines(catalog, action) for action in actions]
    english = [m.undone_lines(translations("en"), action) for action in actions]
    assert lines[0] == lines[1] and len(lines[0]) == 2  # a card: what, then the cover to lift
    assert len(set(lines)) == 5
    if language != "en":
        assert all(ours != theirs for ours, theirs in zip(lines, english, strict=True))
    assert catalog.gettext(m.UNDONE_NEW_GAME) != m.UNDONE_NEW_GAME or language == "en"


def test_a_database_replaced_between_new_and_undo_gets_the_game_brought_back(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path)
    saver = Saver(store, VirtualClock(), lambda delay: None)
    left = RecordedGame(Game(KEY), [], 0.0)
    saver.begin(left)
    left.game.play(GiveClue(2))
    left.log.append(TimedAction(GiveClue(2), 1.0))
    saver.save(left)
    new = RecordedGame(Game(generate_key(random.Random(1))), [], 2.0)
    saver.begin(new, left)
    # SQLite finds the database damaged: a fresh one replaces it, where old ids name nothing.
    store.close()
    (tmp_path / DATABASE_NAME).write_bytes(b"\x00garbage" * 512)
    assert store.recover() and store.fresh_starts == 1
    saver.take_back(new, left)
    store.close()
    assert saved_games(tmp_path) == [(str(KEY), ["clue 2"])]
