"""The café's web page in a real headless Chromium (the distribution's, through Selenium): the
`cafe` command serves it from a real broker, a headless table plays, and the page shows what a
person at the counter reads, in English from the locale and in Portuguese from `--lang`, updated
without a reload; a hostile message is ignored and said. Skips, saying why, where Chromium or its
driver is not installed."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt import publish
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from firmware.virtual.table import VirtualTable
from tools import mosquitto

from ..table_scripts import STILL, announce
from .broker_helpers import WAIT_S, Mosquitto
from .test_publisher import publisher_for

REPO = Path(__file__).parents[2]
STARTUP_S = 60.0
"""The bound on the café command's start, until its page answers."""
SCREENSHOT = REPO / "docs" / "cafe-web.png"
"""Rewritten when CAFE_SCREENSHOT=1 (by `test_cafe_web_staff`): the README shows it."""


def chromium() -> webdriver.Chrome:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
    if browser is None or not Path(driver).exists():
        pytest.skip("chromium and chromium-driver are not installed (.ci/run installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,420"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(driver))


SEEN = {
    "en": {
        "locale": "C.UTF-8",
        "options": [],
        "title": "Codenames café",
        "headings": [
            "Table",
            "Online",
            "Mode",
            "Game",
            "Score",
            "Time",
            "Health",
            "Last action",
            "Board",
        ],
        "teams": {"red": "Red", "blue": "Blue"},
        "online": "online",
        "state": "{team}: guessing, clue 2, 3 left",
        "ignored": ("Messages ignored: 1", "not JSON"),
        "offline": "OFFLINE",
    },
    "pt": {
        "locale": "es_ES.UTF-8",  # --lang wins over the locale
        "options": ["--lang", "pt"],
        "title": "Café Codenames",
        "headings": [
            "Mesa",
            "Ligação",
            "Modo",
            "Jogo",
            "Marcador",
            "Tempo",
            "Estado",
            "Última jogada",
            "Grelha",
        ],
        "teams": {"red": "Vermelho", "blue": "Azul"},
        "online": "ligada",
        "state": "{team}: a adivinhar, pista 2, restam 3",
        "ignored": ("Mensagens ignoradas: 1", "não é JSON"),
        "offline": "DESLIGADA",
    },
}
"""What a person at the counter reads, per language of the page."""


@pytest.fixture
def cafe_page(broker: Mosquitto, language: str) -> Iterator[str]:
    """The `cafe` command serving its page on localhost in `language`, without its terminal
    view."""
    port = mosquitto.free_port()
    command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker", broker.url]
    command += ["--http", f"127.0.0.1:{port}", "--no-terminal", *SEEN[language]["options"]]
    environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    environ["LANG"] = str(SEEN[language]["locale"])
    process = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True, env=environ)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
        assert "Traceback" not in errors, errors


def _load(driver: webdriver.Chrome, url: str) -> bool:
    try:
        driver.get(url)
    except WebDriverException:  # not listening yet: the command is still starting
        return False
    return bool(driver.find_elements(By.ID, "tables"))


def row_text(driver: webdriver.Chrome, table: str) -> str:
    """The row's text as rendered (read in one step: the page replaces rows as news comes)."""
    script = "const row = document.getElementById(arguments[0]); return row ? row.innerText : '';"
    return str(driver.execute_script(script, f"table-{table}"))


@pytest.mark.parametrize("language", SEEN)
def test_the_page_follows_a_table_live(
    broker: Mosquitto, cafe_page: str, tmp_path: Path, language: str
) -> None:
    seen: dict[str, Any] = SEEN[language]
    driver = chromium()
    try:
        wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.05)
        # The page may load before the server listens: retry the load, not the test. The view's
        # start (Textual, aiohttp and paho imported) takes longer on a loaded machine: a wider
        # bound for it, still only an upper bound on a wait for the page.
        WebDriverWait(driver, STARTUP_S, poll_frequency=0.05).until(lambda d: _load(d, cafe_page))
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        assert driver.title == seen["title"]
        assert driver.find_element(By.TAG_NAME, "h1").text == seen["title"]
        headings = [th.text for th in driver.find_elements(By.TAG_NAME, "th")]
        assert headings == seen["headings"]
        rng = random.Random(3)
        with (
            VirtualTable(STILL, tmp_path / "state", rng=rng) as vt,
            publisher_for(broker, tmp_path) as publisher,
        ):
            publisher.show(vt.table.state, vt.table.match_score)
            vt.table.observer = publisher
            wait.until(lambda d: seen["online"] in row_text(d, "table-3"))
            loaded = driver.execute_script("return performance.timeOrigin")
            announce(vt, detents=1)
            state = seen["state"].format(team=seen["teams"][vt.table.state.turn.value])
            wait.until(lambda d: state in row_text(d, "table-3"))
            assert "clue 2" in row_text(driver, "table-3")  # the last action
            publish.single(
                "codenames/table-3/game",
                b"<script>alert(1)</script>",
                hostname="127.0.0.1",
                port=broker.port,
            )
            status = driver.find_element(By.ID, "status")
            ignored, why = seen["ignored"]
            wait.until(lambda d: ignored in status.text)
            assert why in status.text
            assert state in row_text(driver, "table-3")
        wait.until(lambda d: seen["offline"] in row_text(d, "table-3"))
        # Every change came by server-sent events: the page was never loaded again.
        assert driver.execute_script("return performance.timeOrigin") == loaded
    finally:
        driver.quit()
