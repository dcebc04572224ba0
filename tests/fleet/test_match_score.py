"""The match's score in the `game` message, through a real Mosquitto: a table plays two games of
a match and each one's win arrives, games counted; a new match from the menu starts it again."""

from __future__ import annotations

import random
from pathlib import Path

from firmware.fleet.attach import reporting
from firmware.table.config import FleetConfig
from firmware.virtual.table import VirtualTable

from ..table.test_table_match import choose_new_match, lose, new_game
from ..table_scripts import STILL
from .broker_helpers import Listener, Mosquitto
from .test_publisher import TABLE

GAME = f"codenames/{TABLE}/game"
EVENTS = f"codenames/{TABLE}/events"


def test_two_games_of_a_match_arrive_with_its_score(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    fleet = FleetConfig(broker=broker.url, table=TABLE)
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(11)) as vt,
        reporting(fleet, vt.table, tmp_path),
    ):
        # Before any game ends: the match is there, empty.
        nothing = {"red": 0, "blue": 0, "games": 0}
        assert listener.wait_for(lambda _: (listener.latest(GAME) or {}).get("match") == nothing)
        wins = {"red": 0, "blue": 0}
        for games in (1, 2):
            expected = win_one(vt, listener, wins, games)
            new_game(vt)
        # The new game is of the same match: the score stands while it is played.
        assert listener.wait_for(lambda _: shows(listener, "clue", expected))
        choose_new_match(vt)  # nothing played in the game yet: the new match takes it along
        assert listener.wait_for(lambda _: listener.latest(GAME)["match"] == nothing)
        assert listener.wait_for(
            lambda _: [m.json()["action"] for m in listener.on(EVENTS)][-1] == "new match"
        )


def shows(listener: Listener, phase: str, match: dict[str, int]) -> bool:
    """Whether the latest `game` is in `phase` with `match` as its score."""
    game = listener.latest(GAME)
    return bool(game["phase"] == phase and game["match"] == match)


def win_one(
    vt: VirtualTable, listener: Listener, wins: dict[str, int], games: int
) -> dict[str, int]:
    """The team to play loses on the assassin; its opponents' win arrives as the match's
    `games`th (counted in `wins`); the match's score it arrived with."""
    loser = vt.table.state.turn
    lose(vt)
    wins[loser.other.value] += 1
    expected = {**wins, "games": games}
    assert listener.wait_for(lambda _: shows(listener, "over", expected)), listener.latest(GAME)
    return expected
