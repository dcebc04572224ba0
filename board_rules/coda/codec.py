"""The versioned JSON form of a game state: exact both ways, strict about what it reads.

Tiles are written in their text form (`b5`, `w-`), misses as numbers or `"-"`, the pool as the
two stacks in draw order. A file that is malformed, of another version, or describes no reachable
kind of state (tiles missing or twice, a row out of order, a phase without its hand) is rejected
with `InvalidStateError`, never guessed at.

>>> import random
>>> from board_rules.coda.state import GameState
>>> state = GameState.new(3, random.Random(7), advanced=True)
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

from board_rules.coda.errors import CodaError, InvalidStateError
from board_rules.coda.row import RowTile, is_ordered
from board_rules.coda.state import MAX_PLAYERS, MIN_PLAYERS, GameState, Phase, Pool
from board_rules.coda.tiles import Color, Tile, Value, check_value, game_tiles, value_order

STATE_VERSION: Final = 2
"""Bump when the JSON form changes; older versions are rejected, never guessed at."""

_FIELDS: Final = (
    "version",
    "players",
    "advanced",
    "starter",
    "turn",
    "phase",
    "hits",
    "winner",
    "face_up",
    "hand",
    "rows",
    "pool",
)


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The JSON-ready form of `state`."""
    return {
        "version": STATE_VERSION,
        "players": state.players,
        "advanced": state.advanced,
        "starter": state.starter,
        "turn": state.turn,
        "phase": state.phase.value,
        "hits": state.hits,
        "winner": state.winner,
        "face_up": state.face_up,
        "hand": [str(tile) for tile in state.hand],
        "rows": [
            [
                {
                    "tile": str(slot.tile),
                    "revealed": slot.revealed,
                    "misses": sorted(slot.misses, key=value_order),
                    "owner_named": sorted(slot.owner_named, key=value_order),
                }
                for slot in row
            ]
            for row in state.rows
        ],
        "pool": {color.value: [str(tile) for tile in state.pool.of(color)] for color in Color},
    }


def state_to_json(state: GameState) -> str:
    """The versioned JSON text of `state`."""
    return json.dumps(state_to_dict(state))


def state_from_json(text: str) -> GameState:
    """Read a state written by `state_to_json`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidStateError(f"not JSON: {error}") from error
    if not isinstance(data, dict):
        raise InvalidStateError("a game state is a JSON object")
    if data.get("version") != STATE_VERSION:
        raise InvalidStateError(f"state version {data.get('version')!r} is not {STATE_VERSION}")
    if sorted(data) != sorted(_FIELDS):
        raise InvalidStateError(f"a game state has the fields {', '.join(_FIELDS)}")
    try:
        state = _from_fields(data)
    except (CodaError, KeyError, TypeError, ValueError, AttributeError) as error:
        raise InvalidStateError(f"malformed game state: {error!r}") from error
    check_consistent(state)
    return state


def _from_fields(data: dict[str, Any]) -> GameState:
    pool = data["pool"]
    if not isinstance(pool, dict) or sorted(pool) != sorted(c.value for c in Color):
        raise TypeError("the pool has a black and a white stack")
    return GameState(
        players=_whole(data["players"]),
        advanced=_flag(data["advanced"]),
        starter=_whole(data["starter"]),
        turn=_whole(data["turn"]),
        phase=Phase(data["phase"]),
        hits=_whole(data["hits"]),
        winner=None if data["winner"] is None else _whole(data["winner"]),
        face_up=_flag(data["face_up"]),
        hand=tuple(Tile.parse(_text(t)) for t in _list(data["hand"])),
        rows=tuple(tuple(_row_tile(slot) for slot in _list(row)) for row in _list(data["rows"])),
        pool=Pool(
            black=tuple(Tile.parse(_text(t)) for t in _list(pool["black"])),
            white=tuple(Tile.parse(_text(t)) for t in _list(pool["white"])),
        ),
    )


def _row_tile(data: Any) -> RowTile:
    if not isinstance(data, dict) or sorted(data) != ["misses", "owner_named", "revealed", "tile"]:
        raise TypeError("a row tile has the fields tile, revealed, misses and owner_named")
    return RowTile(
        tile=Tile.parse(_text(data["tile"])),
        revealed=_flag(data["revealed"]),
        misses=_values(data["misses"], "misses"),
        owner_named=_values(data["owner_named"], "owner_named"),
    )


def _values(data: Any, name: str) -> frozenset[Value]:
    values: list[Value] = [check_value(value) for value in _list(data)]
    if values != sorted(set(values), key=value_order):
        raise ValueError(f"{name} are listed once each, in order")
    return frozenset(values)


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, not {value!r}")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {value!r}")
    return value


def check_consistent(state: GameState) -> None:
    """Raise `InvalidStateError` unless `state` is a state the rules could have reached."""
    problem = _inconsistency(state)
    if problem:
        raise InvalidStateError(f"inconsistent game state: {problem}")


def _inconsistency(state: GameState) -> str | None:
    players = state.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or len(state.rows) != players:
        return "2 to 4 players, one row each"
    if state.starter >= players or state.turn >= players:
        return "the starter and the player in turn are players of the game"
    everywhere = [
        *(slot.tile for row in state.rows for slot in row),
        *state.hand,
        *state.pool.black,
        *state.pool.white,
    ]
    if Counter(everywhere) != Counter(game_tiles(state.advanced)):
        return "every tile of the game exactly once"
    if any(tile.color is not color for color in Color for tile in state.pool.of(color)):
        return "each stack holds tiles of its colour"
    if not all(is_ordered(slot.tile for slot in row) for row in state.rows):
        return "every row in order"
    if any(slot.misses & {slot.tile.value} for row in state.rows for slot in row):
        return "a miss is never the tile's value"
    over = state.phase is Phase.OVER
    if (state.winner is not None) != over:
        return "a winner exactly when the game is over"
    if over and state.in_game() != (state.winner,):
        return "the winner alone has hidden tiles"
    if not over and (state.is_out(state.turn) or len(state.in_game()) < 2):
        return "the player in turn is still in, with an opponent"
    if state.face_up and state.phase is not Phase.PLACE:
        return "a tile goes face up only while it is placed"
    return _phase_inconsistency(state)


def _phase_inconsistency(state: GameState) -> str | None:
    phase, hand, row = state.phase, state.hand, state.rows[state.turn]
    opening = phase in (Phase.TAKE, Phase.ARRANGE)
    if opening != (not row):
        return "a player without a row is taking or arranging its opening tiles"
    if phase is Phase.ARRANGE and (not state.advanced or len(hand) != state.opening_size):
        return "an advanced opening holds the opening tiles"
    if phase is Phase.PLACE and (not state.advanced or len(hand) != 1):
        return "the advanced game places one drawn tile at a time"
    if phase in (Phase.TAKE, Phase.DRAW, Phase.REVEAL) and hand:
        return "nothing in hand before drawing, or when revealing one's own tile"
    if phase is Phase.ATTACK and len(hand) != (1 if hand else 0):
        return "one drawn tile at most"
    if phase is Phase.DRAW and not len(state.pool):
        return "drawing needs a tile left"
    if state.hits and phase in (Phase.TAKE, Phase.ARRANGE, Phase.DRAW):
        return "right attacks are counted only once the turn's attacks began"
    return None
