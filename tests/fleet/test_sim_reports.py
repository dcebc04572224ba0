"""`codenames-table sim` and `[fleet]`: the desktop simulation reports to the broker as the
service does, so that a person can play a table by hand and watch the café view, and says
why not once its window closes; a headless script reports to none and says so in one line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from firmware.cli.main import main
from firmware.sim.app import SimApp

from ..table_scripts import announce
from .broker_helpers import Listener, Mosquitto, until
from .test_publisher import TABLE


def fleet_config(tmp_path: Path, url: str) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'[fleet]\nbroker = "{url}"\ntable = "{TABLE}"\n', encoding="utf-8")
    return config


def said(listener: Listener, topic: str) -> object:
    """The latest `status` field on `topic`, None before any."""
    return (listener.latest(topic) or {}).get("status")


def test_the_window_reports_what_a_person_plays(
    broker: Mosquitto,
    listener: Listener,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = f"codenames/{TABLE}/status"
    events = f"codenames/{TABLE}/events"

    def play_by_hand(app: SimApp) -> None:
        # In place of the window's loop: the keys a person presses reach the same table.
        assert listener.wait_for(lambda _: said(listener, status) == "online")
        announce(app.vt, detents=2)
        assert listener.wait_for(lambda _: len(listener.on(events)) == 1)

    monkeypatch.setattr(SimApp, "run", play_by_hand)
    config = fleet_config(tmp_path, broker.url)
    assert main(["sim", "--config", str(config), "--state-dir", str(tmp_path / "state")]) == 0
    assert listener.on(events)[0].json()["action"] == "clue 3"
    assert listener.wait_for(lambda _: said(listener, status) == "offline")
    out = capsys.readouterr().out
    assert out.startswith(f"codenames-table sim: reporting to {broker.url} as {TABLE} ([fleet])\n")


def test_a_headless_script_says_in_one_line_that_it_reports_to_no_broker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "play.txt"
    script.write_text("turn +1\npush\n", encoding="utf-8")
    # No broker listens there: nothing may try to reach it.
    config = fleet_config(tmp_path, "mqtt://127.0.0.1:9")
    assert main(["sim", "--config", str(config), "--headless", "--script", str(script)]) == 0
    err = capsys.readouterr().err
    assert err == (
        "codenames-table sim: [fleet] ignored: a headless script plays on a virtual clock; "
        "`run --virtual SCRIPT` reports to the broker in real time\n"
    )


def test_a_broker_the_window_cannot_reach_is_said_once_it_closes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="firmware.fleet.publisher")

    def play_by_hand(app: SimApp) -> None:
        # The window hides the log while it is open; the table plays on meanwhile.
        assert until(lambda: any("cannot reach" in r.getMessage() for r in caplog.records))
        announce(app.vt, detents=0)
        assert app.vt.table.state.clue == 1

    monkeypatch.setattr(SimApp, "run", play_by_hand)
    config = fleet_config(tmp_path, "mqtt://127.0.0.1:9")  # nobody listens there
    assert main(["sim", "--config", str(config), "--state-dir", str(tmp_path / "state")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("codenames-table sim: fleet: cannot reach the broker mqtt://127.0.0.1:9")
