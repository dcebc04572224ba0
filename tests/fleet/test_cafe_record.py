"""The café's record: each finished game seen is kept once (also when heard again after a
restart of the view), with its length from the first clue to the last action, and the figures
and the CSV the staff read from it."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any

from firmware.cafe.history_page import history_page
from firmware.cafe.model import Cafe
from firmware.cafe.record import CafeRecord
from firmware.fleet.messages import encode

from .test_cafe_model import game_payload

NOON = time.mktime((2026, 11, 26, 12, 0, 0, 0, 0, -1))


def finished(table: str, started: float, ended: float, **result: Any) -> bytes:
    game = json.loads(game_payload(table))
    game.update(phase="over", started_at=started, at=ended + 1)
    game["last"] = {"action": "touch A1", "words": [], "at": ended}
    game.update(result)
    return encode(game)


def test_each_finished_game_is_kept_once_with_its_length(tmp_path: Path) -> None:
    path = tmp_path / "cafe.sqlite3"
    record = CafeRecord(path)
    cafe = Cafe(on_finished=record.finished)
    won = finished("t1", NOON, NOON + 125, winner="red", reason="agents", score=None)
    cafe.receive("codenames/t1/game", won)
    cafe.receive("codenames/t1/game", won)  # the same message again
    cafe.receive("codenames/t2/game", finished("t2", NOON, NOON + 600, mode="coop", score=7))
    cafe.receive("codenames/t3/game", finished("t3", NOON, NOON + 300, mode="coop", score=None))
    in_play = json.loads(game_payload("t4"))
    cafe.receive("codenames/t4/game", encode(in_play))
    record.close()
    # The view restarts: the broker's retained messages come again, nothing is counted twice.
    record = CafeRecord(path)
    cafe = Cafe(on_finished=record.finished)
    cafe.receive("codenames/t1/game", won)
    games = record.games()
    assert [g["table_id"] for g in games] == ["t2", "t3", "t1"]
    assert games[2]["length_s"] == 125.0
    stats = record.stats()
    assert stats["games"] == 3
    assert stats["per_table"] == {"t1": 1, "t2": 1, "t3": 1}
    assert stats["per_day"] == {"2026-11-26": 3}
    assert stats["wins"] == {"red": 1}
    assert (stats["coop_won"], stats["coop_lost"]) == (1, 1)
    assert stats["coop_score"].mean == 7
    minutes = stats["minutes"]
    assert minutes.n == 3 and round(minutes.mean, 2) == round((125 + 600 + 300) / 3 / 60, 2)
    assert minutes.low < minutes.mean < minutes.high
    rows = list(csv.reader(io.StringIO(record.csv())))
    assert rows[0] == [
        "table_id",
        "ended_at",
        "started_at",
        "mode",
        "winner",
        "reason",
        "score",
        "length_s",
    ]
    assert rows[3][:2] == ["t1", "2026-11-26T12:02:05"] and rows[3][-1] == "125"
    page = history_page(Cafe("es"), record)
    assert "Partidas jugadas" in page and "Rojo" in page and "2:05" in page
    record.close()


def test_a_game_without_a_dated_end_is_not_kept(tmp_path: Path) -> None:
    record = CafeRecord(tmp_path / "cafe.sqlite3")
    game = json.loads(finished("t1", NOON, NOON + 60, winner="red", reason="agents"))
    game["last"] = None  # a table of a version before it
    assert not record.finished("t1", game)
    assert record.games() == []
    assert "No game has finished yet" in history_page(Cafe(), record)
    record.close()


def test_the_csv_never_carries_a_formula(tmp_path: Path) -> None:
    record = CafeRecord(tmp_path / "cafe.sqlite3")
    game = json.loads(finished("-t1", NOON, NOON + 60, winner="=HYPERLINK(1)", reason="agents"))
    assert record.finished("-t1", game)
    row = list(csv.reader(io.StringIO(record.csv())))[1]
    assert row[0] == "'-t1" and row[4] == "'=HYPERLINK(1)"
    record.close()
