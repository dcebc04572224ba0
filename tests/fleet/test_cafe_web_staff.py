"""What the staff act on, in a real headless Chromium on the `cafe` command's page, fed by a
real Mosquitto: several tables, those needing a look first; a table that stopped and one that
vanished told apart; the mode, the times and a picture of the covered cards; the broker down
said as the broker's fault, not the tables'; a retired table leaving; a finished game in the
record's page; and, served beyond loopback, the page only with the café's token."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt import publish
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from board_rules.codenames import Game, Mode, generate_key, parse_action
from firmware.fleet.messages import LastAction, encode, envelope, public_game, status_fields
from tools import mosquitto

from .broker_helpers import WAIT_S, Mosquitto
from .test_cafe_web import REPO, SCREENSHOT, STARTUP_S, _load, chromium, row_text

TOKEN = "a-token-of-the-cafe-0123456789"


@pytest.fixture
def page_url(broker: Mosquitto, tmp_path: Path) -> Iterator[str]:
    """The `cafe` command serving its page on localhost, keeping its record under tmp_path."""
    port = mosquitto.free_port()
    command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker", broker.url]
    command += ["--http", f"127.0.0.1:{port}", "--no-terminal", "--lang", "en"]
    command += ["--record", str(tmp_path / "record.sqlite3")]
    process = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
        assert "Traceback" not in errors, errors


def send(broker: Mosquitto, table: str, kind: str, fields: dict[str, Any] | None) -> None:
    """A table's retained message (empty: cleared, as `retire` does)."""
    payload = b"" if fields is None else encode(envelope(table, time.time(), **fields))
    publish.single(f"codenames/{table}/{kind}", payload, retain=kind != "events", port=broker.port)


def game(mode: Mode, actions: list[str], seed: int, started: float | None) -> dict[str, Any]:
    played = Game(generate_key(random.Random(seed)), mode)
    state = played.state
    for action in actions:
        state = played.play(parse_action(action))
    last = LastAction(actions[-1], (), time.time()) if actions else None
    return public_game(state, (1, 0), last, started)


HEALTHY = {"stuck_pads": [], "oled_up": True, "saving": True, "not_saving": None}


def cafe_tables(broker: Mosquitto) -> None:
    """Four tables as the café sees them on a busy evening."""
    now = time.time()
    first = Game(generate_key(random.Random(1)), Mode.STANDARD).state
    touch = next(str(c) for c in first.key.agents_of(first.turn))
    send(broker, "table-1", "status", status_fields(online=True))
    send(broker, "table-1", "game", game(Mode.STANDARD, ["clue 2", f"touch {touch}"], 1, now - 400))
    send(broker, "table-1", "health", HEALTHY | {"events_dropped": 0, "cpu_temp_c": 51.0})
    send(broker, "table-2", "status", status_fields(online=True))
    send(broker, "table-2", "game", game(Mode.COOP, ["clue 1"], 2, now - 90))
    stuck = HEALTHY | {"stuck_pads": ["C3"], "events_dropped": 0, "cpu_temp_c": 84.5}
    send(broker, "table-2", "health", stuck)
    send(broker, "table-3", "status", status_fields(online=False, stopped=True))
    send(broker, "table-3", "game", game(Mode.STANDARD, [], 3, None))
    send(broker, "table-4", "status", status_fields(online=False, stopped=False))


def rows(driver: webdriver.Chrome) -> list[str]:
    script = "return [...document.querySelectorAll('#tables tr')].map(r => r.id.slice(6));"
    return list(driver.execute_script(script))


def test_the_page_shows_what_staff_act_on(broker: Mosquitto, page_url: str) -> None:
    driver = chromium()
    try:
        wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.05)
        WebDriverWait(driver, STARTUP_S, poll_frequency=0.05).until(lambda d: _load(d, page_url))
        # The page runs no inline script: its one script is a file (the policy allows no other).
        assert driver.execute_script("return [...document.scripts].every(s => s.src)")
        cafe_tables(broker)
        wait.until(lambda d: len(rows(d)) == 4)
        broker_line = driver.find_element(By.ID, "broker")
        assert "connected to" in broker_line.text and "down" not in broker_line.get_attribute(
            "class"
        )
        # Those needing a look first: the hot table with a stuck pad, the offline ones.
        wait.until(lambda d: rows(d) == ["table-2", "table-3", "table-4", "table-1"])
        assert "stuck pads: C3; CPU hot: 84 °C" in row_text(driver, "table-2")
        assert "Co-op" in row_text(driver, "table-2")
        assert "OFFLINE since" in row_text(driver, "table-3")
        assert row_text(driver, "table-3").split("\t")[1].endswith(", stopped")
        assert row_text(driver, "table-4").split("\t")[1].endswith(", vanished")
        one = row_text(driver, "table-1")
        assert "Standard" in one and "game 6:4" in one and "idle 0:0" in one
        assert "left: Red " in one and " · Blue " in one
        # The board's picture: the one card touched, in its colour; never more.
        covered = "return document.querySelectorAll('#table-table-1 .board span[class]').length"
        assert driver.execute_script(covered) == 1
        assert (
            driver.execute_script(
                "return document.querySelectorAll('#table-table-1 .board span').length"
            )
            == 25
        )
        if os.environ.get("CAFE_SCREENSHOT"):
            driver.set_window_size(1500, 640)
            driver.save_screenshot(str(SCREENSHOT))
        # A retired table: its retained messages cleared, it leaves the page.
        for kind in ("status", "game", "health"):
            send(broker, "table-4", kind, None)
        wait.until(lambda d: "table-4" not in rows(d))
        # A finished game is in the café's record.
        finished = game(Mode.STANDARD, ["clue 2"], 5, time.time() - 125)
        over = finished | {"phase": "over", "winner": "blue", "reason": "assassin"}
        send(broker, "table-1", "game", over)
        wait.until(lambda d: "Blue won (assassin)" in row_text(d, "table-1"))
        # The broker down: said as the broker's, and no table blamed.
        broker.stop()
        wait.until(lambda d: "down" in d.find_element(By.ID, "broker").get_attribute("class"))
        assert "since" in driver.find_element(By.ID, "broker").text
        wait.until(lambda d: row_text(d, "table-1").split("\t")[1] == "not known")
        assert "OFFLINE" not in " ".join(row_text(driver, t) for t in ("table-1", "table-2"))
        broker.start()
        wait.until(lambda d: d.find_element(By.ID, "broker").get_attribute("class") == "up")
        driver.get(page_url + "history")
        games = driver.find_element(By.ID, "games").text
        assert "table-1" in games and "Blue won (assassin)" in games and "2:05" in games
        assert "Average game: 2.1 min" in driver.find_element(By.ID, "length").text
    finally:
        driver.quit()


def test_beyond_loopback_the_page_opens_with_the_token(broker: Mosquitto, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    port = mosquitto.free_port()
    command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker", broker.url]
    command += ["--http", f"0.0.0.0:{port}", "--http-name", "127.0.0.1", "--no-terminal"]
    command += ["--token-file", str(token_file), "--record", str(tmp_path / "r.sqlite3")]
    process = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True)
    driver = chromium()
    try:
        wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.05)
        url = f"http://127.0.0.1:{port}/"
        starting = WebDriverWait(driver, STARTUP_S, poll_frequency=0.05)
        starting.until(lambda d: _load(d, url + f"?token={TOKEN}"))
        assert driver.current_url == url  # the token went into a cookie, out of the address
        send(broker, "table-9", "status", status_fields(online=True))
        wait.until(lambda d: "online" in row_text(d, "table-9"))  # the events came, cookie and all
        driver.delete_all_cookies()
        driver.get(url)
        assert not driver.find_elements(By.ID, "tables")
        assert "token" in driver.find_element(By.TAG_NAME, "body").text
    finally:
        driver.quit()
        process.terminate()
        _, errors = process.communicate(timeout=10)
        assert "Traceback" not in errors, errors
