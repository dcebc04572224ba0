"""The snapshot's JSON form: versioned, exact both ways, and strict about what it reads."""

import json

import pytest

from board_rules.codenames import GameState, InvalidStateError, Mode

from ..rules_helpers import new_game, play


def test_json_round_trip_is_exact_mid_game_and_after_a_coop_win() -> None:
    mid = play(new_game(), "clue 2", "touch A1", "touch C4", "clue 0", "touch E2")
    coop = new_game(Mode.COOP)
    red_words = ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"]
    won = play(coop, "clue unlimited", *(f"touch {w}" for w in red_words))
    for state in (mid, won, new_game().state):
        text = state.to_json()
        assert GameState.from_json(text) == state
        assert GameState.from_json(text).to_json() == text


def test_json_carries_its_version_and_every_field() -> None:
    data = json.loads(play(new_game(), "clue 0").to_json())
    assert data["version"] == 1
    assert data["clue"] == 0
    assert data["guesses_left"] == "unlimited"
    assert data["remaining"] == {"red": 9, "blue": 8}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version 2"),
        ({"phase": "napping"}, "malformed"),
        ({"covered": {"F9": "red"}}, "malformed"),
        ({"guesses_made": "1"}, "malformed"),
        ({"remaining": {"red": 1, "blue": 8}}, "'remaining'"),
        ({"covered": {"A1": "blue"}}, "'covered'"),
        ({"extra": 1}, "'extra'"),
    ],
)
def test_malformed_or_inconsistent_json_is_rejected(
    change: dict[str, object], message: str
) -> None:
    data = json.loads(play(new_game(), "clue 1").to_json())
    data.update(change)
    with pytest.raises(InvalidStateError, match=message):
        GameState.from_json(json.dumps(data))


def test_non_objects_are_rejected() -> None:
    with pytest.raises(InvalidStateError, match="not JSON"):
        GameState.from_json("{")
    with pytest.raises(InvalidStateError, match="object"):
        GameState.from_json("[]")
