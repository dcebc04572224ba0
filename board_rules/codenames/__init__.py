"""The complete rules of Codenames: key, clues and guess limit, expert clues, the invalid-clue
penalty, the two-player variant against a simulated opponent, undo, and transcripts.

>>> from board_rules.codenames import Game, Key, parse_action
>>> game = Game(Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"))
>>> for line in ("clue 1", "touch A1", "touch B1"):
...     state = game.play(parse_action(line))
>>> state.phase, state.turn
(<Phase.CLUE: 'clue'>, <Team.BLUE: 'blue'>)
"""

from board_rules.codenames.actions import (
    UNLIMITED,
    Action,
    ClueNumber,
    Cover,
    Done,
    GiveClue,
    Penalty,
    PlayAction,
    Timeout,
    Touch,
    Undo,
    parse_action,
)
from board_rules.codenames.errors import (
    CodenamesError,
    IllegalActionError,
    InvalidActionError,
    InvalidCoordError,
    InvalidKeyError,
    InvalidStateError,
)
from board_rules.codenames.game import Game
from board_rules.codenames.grid import ALL_COORDS, Coord
from board_rules.codenames.key import Identity, Key, Team, generate_key
from board_rules.codenames.reasons import Reason
from board_rules.codenames.rules import apply
from board_rules.codenames.state import EndReason, GameState, Mode, Phase
from board_rules.codenames.transcript import Transcript, TranscriptError, parse_transcript

__all__ = [
    "ALL_COORDS",
    "UNLIMITED",
    "Action",
    "ClueNumber",
    "CodenamesError",
    "Coord",
    "Cover",
    "Done",
    "EndReason",
    "Game",
    "GameState",
    "GiveClue",
    "Identity",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCoordError",
    "InvalidKeyError",
    "InvalidStateError",
    "Key",
    "Mode",
    "Penalty",
    "Phase",
    "PlayAction",
    "Reason",
    "Team",
    "Timeout",
    "Touch",
    "Transcript",
    "TranscriptError",
    "Undo",
    "apply",
    "generate_key",
    "parse_action",
    "parse_transcript",
]
