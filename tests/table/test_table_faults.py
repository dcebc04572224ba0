"""Faults the table plays through: a lost OLED, a failing LED strip, a bad disk, a bad config."""

import contextlib
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

from board_rules.codenames import Coord, Mode
from firmware.drivers.events import ConsoleButton
from firmware.table.oled_render import render_screen
from firmware.table.store import DATABASE_NAME
from firmware.table.store_faults import SaveFault
from firmware.virtual.table import VirtualTable

from ..conftest import Cli, CliResult, TableFactory
from ..paths import REPO
from ..table_scripts import KEY_LINE, announce


def shows_current_screen(vt: VirtualTable) -> bool:
    screen = vt.display.screen
    assert screen is not None
    return vt.chip.to_image().tobytes() == render_screen(screen).tobytes()


def test_an_oled_outage_mid_game_loses_nothing_and_the_screen_comes_back(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        announce(vt)
        vt.bus.unplug(vt.config.oled.address)
        vt.press_pad(Coord.parse("A1"))
        vt.press_pad(Coord.parse("C4"))
        assert vt.table.state.to_dict()["covered"] == {"A1": "red", "C4": "bystander"}
        assert not vt.oled.is_up
        vt.bus.replug(vt.config.oled.address)
        vt.wait(35.0)  # longer than the longest back-off
        assert vt.oled.is_up
        assert shows_current_screen(vt)


def test_an_i2c_fault_storm_never_changes_the_game(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        vt.bus.fail_fraction(0.3, random.Random(5))
        announce(vt, 8)  # clue 9
        for card in ("A1", "B1", "C1", "D1"):
            vt.press_pad(Coord.parse(card))
        assert vt.table.state.guesses_made == 4
        vt.bus.fail_fraction(0.0, random.Random(5))
        vt.wait(35.0)
        assert shows_current_screen(vt)


def test_a_failing_led_strip_never_stops_the_game_and_recovers(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        announce(vt)
        vt.pixel_strip.fail_next_show(times=3)
        vt.press_pad(Coord.parse("A1"))
        vt.press_pad(Coord.parse("B1"))
        assert vt.table.state.guesses_made == 2
        vt.wait(2.0)  # blinking redraws the key a few times
        assert not vt.lights.failing
        covered = vt.pixel_strip.shown_rgb()[vt.lights.layout.index(Coord.parse("A1"))]
        uncovered = vt.pixel_strip.shown_rgb()[vt.lights.layout.index(Coord.parse("C1"))]
        assert 0 < covered.r < uncovered.r


def footer(vt: VirtualTable) -> str | None:
    screen = vt.display.screen
    assert screen is not None
    return screen.footer


def covered(virtual_table: TableFactory, state_dir: Path) -> dict[str, str]:
    with virtual_table(state_dir) as vt:
        result: dict[str, str] = vt.table.state.to_dict()["covered"]
        return result


def test_without_a_usable_state_directory_the_table_plays_on_and_catches_up(
    tmp_path: Path,
    virtual_table: TableFactory,
) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    with virtual_table(blocker) as vt:
        assert not vt.table.saving
        assert vt.table.not_saving is SaveFault.IO_ERROR
        announce(vt)
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.state.guesses_made == 1
        assert footer(vt) == "Not saving: I/O error"
        vt.push(hold_s=3.0)  # the menu: the mode for the next game, saved later too
        vt.push()
        vt.push(hold_s=3.0)
        assert vt.table.settings.mode is Mode.COOP
        blocker.unlink()
        vt.wait(31.0)  # the longest back-off: no action is needed to catch up
        assert vt.table.saving
        assert footer(vt) == "Red 8 · Blue 8"
    # The game row itself was never written before: it is now, with every action.
    assert covered(virtual_table, blocker) == {"A1": "red"}
    with virtual_table(blocker) as vt:
        assert vt.table.settings.mode is Mode.COOP


def fill_up(conn: sqlite3.Connection) -> None:
    """SQLite's own "database or disk is full", as a full SD card gives it: the database may
    not grow, and filler rows take the room left in its pages."""
    conn.execute(f"PRAGMA max_page_count={conn.execute('PRAGMA page_count').fetchone()[0]}")
    with contextlib.suppress(sqlite3.OperationalError):
        for n in range(10_000):
            conn.execute("INSERT INTO actions VALUES (-1, ?, 'done', 0)", (n,))
    with contextlib.suppress(sqlite3.OperationalError):
        for n in range(10_000):
            conn.execute("INSERT INTO settings VALUES (?, '0')", (f"filler{n}",))


def free_up(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA max_page_count=1073741823")
    conn.execute("DELETE FROM actions WHERE game_id = -1")
    conn.execute("DELETE FROM settings WHERE name LIKE 'filler%'")


def test_a_disk_full_mid_game_plays_on_and_catches_up_every_game_in_order(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        announce(vt)
        conn = vt.store._conn
        assert conn is not None
        fill_up(conn)
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.not_saving is SaveFault.FULL
        assert footer(vt) == "Not saving: disk full"
        vt.press_pad(Coord.parse("B1"))
        first = vt.table.game
        vt.press_button(ConsoleButton.NEW, hold_s=3.0)
        announce(vt)
        vt.press_pad(Coord.parse("C1"))
        vt.wait(60.0)
        assert not vt.table.saving  # still full: retried, and still shown
        assert footer(vt) == "Not saving: disk full"
        free_up(conn)
        vt.wait(31.0)
        assert vt.table.saving
        assert footer(vt) != "Not saving: disk full"
        ids = vt.store.game_ids()
        assert [vt.store.game(i).replay().state for i in ids[-2:]] == [first.state, vt.table.state]
        last = vt.table.state
    with virtual_table() as vt:
        assert vt.table.state == last


def test_a_corrupt_database_is_moved_aside_and_a_new_game_starts(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"\x00garbage" * 512)
    with virtual_table() as vt:
        assert vt.table.saving
        assert vt.store.moved_aside is not None and vt.store.moved_aside.exists()
        announce(vt)
        vt.press_pad(Coord.parse("A1"))
    with virtual_table() as vt:
        assert vt.table.state.to_dict()["covered"] == {"A1": "red"}


def test_a_saved_game_that_no_longer_replays_gives_way_to_a_new_one(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    import sqlite3

    with virtual_table() as vt:
        announce(vt)
        vt.press_pad(Coord.parse("A1"))
    with sqlite3.connect(tmp_path / DATABASE_NAME) as conn:
        conn.execute("UPDATE actions SET action = 'touch A1' WHERE seq = 0")  # before any clue
    with virtual_table() as vt:
        assert vt.table.state.covered == frozenset()
        assert vt.table.state.phase.value == "clue"


def test_a_damaged_saved_game_or_setting_gives_way_to_a_new_game_and_the_defaults(
    tmp_path: Path,
    virtual_table: TableFactory,
) -> None:
    import sqlite3

    with virtual_table() as vt:
        announce(vt)
        vt.press_pad(Coord.parse("A1"))
    with sqlite3.connect(tmp_path / DATABASE_NAME) as conn:
        conn.execute("UPDATE actions SET action = 'touch Z9' WHERE seq = 1")
        conn.execute("INSERT INTO settings (name, value) VALUES ('language', '{not json')")
    with virtual_table() as vt:
        assert vt.table.state.covered == frozenset()
        assert vt.table.settings.language == "en"
        assert len(vt.store.game_ids()) == 2  # the damaged game is kept, a new one started
        announce(vt)
        vt.press_pad(Coord.parse("B1"))
        assert vt.table.saving


def test_asleep_the_oled_is_dimmed_and_waking_brightens_it(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        bright = vt.chip.contrast
        vt.wait(601.0)
        assert vt.table.asleep
        assert vt.chip.contrast < bright
        vt.press_pad(Coord.parse("A1"))
        assert not vt.table.asleep
        assert vt.chip.contrast == bright


def sim(cli: Cli, tmp_path: Path, config_text: str, script: str = "dump\n") -> CliResult:
    config = tmp_path / "config.toml"
    config.write_text(config_text, encoding="utf-8")
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    return cli("sim", "--headless", "--script", path, "--config", config)


def test_a_bad_config_exits_2_naming_the_key(tmp_path: Path, cli: Cli) -> None:
    cases = {
        "[table]\nlanguage = 'fr'\n": "table.language",
        "[table]\ncolour = 'red'\n": "table.colour: unknown key",
        "[oled]\ncontrast = 'high'\n": "oled.contrast",
        "[led.layout]\nrotation = 45\n": "led.layout.rotation",
        "[lights]\n": "lights: unknown section",
        "[table\n": "not valid TOML",
    }
    for text, named in cases.items():
        result = sim(cli, tmp_path, text)
        assert result.returncode == 2, text
        assert named in result.stderr, (text, result.stderr)
        assert result.stdout == ""


def test_a_pin_clash_in_the_config_exits_2(tmp_path: Path, cli: Cli) -> None:
    pinout = (REPO / "hardware" / "pinout.toml").read_text()
    # The default pin map as a config's [pins] table, with encoder A moved onto a matrix column.
    clashing = pinout.replace("\n[", "\n[pins.").replace("a = 16", "a = 17", 1)
    result = sim(cli, tmp_path, clashing)
    assert result.returncode == 2
    assert "pins." in result.stderr and "17" in result.stderr


def test_a_malformed_script_exits_2_naming_the_line(tmp_path: Path, cli: Cli) -> None:
    result = sim(cli, tmp_path, "", "dump\npress Z9\n")
    assert result.returncode == 2
    assert "script.txt:2:" in result.stderr
    assert result.stdout == ""


def test_run_outside_a_pi_exits_2_and_points_to_sim(cli: Cli) -> None:
    result = cli("run")
    assert result.returncode == 2
    assert "sim" in result.stderr


def test_sim_prints_the_same_every_time_and_saves_the_oled_as_png(tmp_path: Path, cli: Cli) -> None:
    from PIL import Image

    script = f"{KEY_LINE}\npush\npress A1\ndump\nwait 700\npress B1\ndump\n"
    first = sim(cli, tmp_path, "", script)
    assert first.returncode == 0, first.stderr
    path = tmp_path / "script.txt"
    # Again in a process of its own, with another hash seed: nothing hangs on the order of a set.
    command = [
        "sim",
        "--headless",
        "--script",
        str(path),
        "--config",
        str(tmp_path / "config.toml"),
    ]
    again = subprocess.run(
        [sys.executable, "-m", "firmware.cli", *command], capture_output=True, text=True, check=True
    )
    assert first.stdout == again.stdout
    assert len(first.stdout.splitlines()) == 2
    pngs = tmp_path / "pngs"
    assert cli("sim", "--headless", "--script", path, "--oled-png", pngs).returncode == 0
    images = sorted(pngs.glob("*.png"))
    assert [p.name for p in images] == ["dump-001.png", "dump-002.png"]
    with Image.open(images[0]) as image:
        assert image.size == (128, 64)
        assert image.getbbox() is not None  # something is lit
