"""The complete rules of Coda, the tile code-breaking game: the opening, the turn (draw,
attack, go on or stop), the empty pool, elimination, the advanced game's dashes, the optional
time rule, each player's view, exact deduction, and computer players.

>>> import random
>>> from board_rules.coda import Draw, Game, TakeTiles, Color, Phase, view_of
>>> game = Game.new(2, random.Random(5))
>>> for action in (TakeTiles(2, 2), TakeTiles(1, 3), Draw(Color.WHITE)):
...     state = game.play(action)
>>> state.phase, len(state.hand), view_of(state, 1).hand[0].value is None
(<Phase.ATTACK: 'attack'>, 1, True)
"""

from board_rules.coda.actions import (
    Action,
    Arrange,
    Attack,
    Draw,
    Place,
    Reveal,
    Stop,
    TakeTiles,
    Timeout,
)
from board_rules.coda.codec import state_from_json, state_to_json
from board_rules.coda.deduction import Deduction, deduce, deduce_rows, every_deal
from board_rules.coda.errors import (
    CodaError,
    IllegalActionError,
    InconsistentViewError,
    InvalidActionError,
    InvalidSetupError,
    InvalidStateError,
    InvalidTileError,
)
from board_rules.coda.game import Game
from board_rules.coda.levels import strategy
from board_rules.coda.match import Tally, play_game, play_match, tally_match
from board_rules.coda.players import Level, Strategy
from board_rules.coda.reasons import Reason
from board_rules.coda.row import RowTile, is_ordered, legal_slots
from board_rules.coda.rules import apply
from board_rules.coda.seen import SeenAttack, SeenTile
from board_rules.coda.state import GameState, Phase, Pool, opening_size, shuffle_pool
from board_rules.coda.tiles import DASH, Color, Tile, Value, game_tiles
from board_rules.coda.view import PlayerView, view_of

__all__ = [
    "DASH",
    "Action",
    "Arrange",
    "Attack",
    "CodaError",
    "Color",
    "Deduction",
    "Draw",
    "Game",
    "GameState",
    "IllegalActionError",
    "InconsistentViewError",
    "InvalidActionError",
    "InvalidSetupError",
    "InvalidStateError",
    "InvalidTileError",
    "Level",
    "Phase",
    "Place",
    "PlayerView",
    "Pool",
    "Reason",
    "Reveal",
    "RowTile",
    "SeenAttack",
    "SeenTile",
    "Stop",
    "Strategy",
    "TakeTiles",
    "Tally",
    "Tile",
    "Timeout",
    "Value",
    "apply",
    "deduce",
    "deduce_rows",
    "every_deal",
    "game_tiles",
    "is_ordered",
    "legal_slots",
    "opening_size",
    "play_game",
    "play_match",
    "shuffle_pool",
    "state_from_json",
    "state_to_json",
    "strategy",
    "tally_match",
    "view_of",
]
