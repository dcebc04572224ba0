"""A read-only snapshot of a game, and its versioned JSON form.

The snapshot holds only what the rules need to go on; everything else (guesses left, agents
left, the co-op score) is derived from it, so it can never disagree with itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Final

from board_rules.codenames.actions import UNLIMITED, ClueNumber, parse_clue_number
from board_rules.codenames.coop import rank_of
from board_rules.codenames.errors import CodenamesError, InvalidStateError
from board_rules.codenames.grid import ALL_COORDS, Coord
from board_rules.codenames.key import Key, Team

STATE_VERSION: Final = 1
"""Bump when the JSON form changes; older versions are rejected, never guessed at."""


class Mode(Enum):
    """Which variant is played."""

    STANDARD = "standard"
    """Two teams, each with a spymaster; also the three-player variant (one shared operative)."""
    COOP = "coop"
    """The two-player variant: one team, the starting team, against a simulated opponent."""


class Phase(Enum):
    """What the game waits for."""

    CLUE = "clue"
    """The spymaster of `turn` is to give a clue."""
    GUESS = "guess"
    """The operatives of `turn` are guessing."""
    PENALTY_COVER = "penalty_cover"
    """After an invalid clue: `turn` may cover one of its own words, or skip by giving its clue."""
    ENEMY_COVER = "enemy_cover"
    """Co-op: the simulated opponent (`turn`) has its turn: one of its agents must be covered."""
    OVER = "over"
    """The game has ended; only undo is accepted."""


class EndReason(Enum):
    """Why the game ended."""

    AGENTS = "agents"
    """The winner's agents are all covered."""
    ASSASSIN = "assassin"
    """The loser touched the assassin."""


@dataclass(frozen=True)
class GameState:
    """The state of a game after the actions that still stand."""

    key: Key
    mode: Mode
    phase: Phase
    turn: Team
    """The team to act; during a cover phase, the team whose word is covered."""
    clue: ClueNumber | None = None
    guesses_made: int = 0
    covered: frozenset[Coord] = field(default_factory=frozenset)
    winner: Team | None = None
    reason: EndReason | None = None

    @classmethod
    def start(cls, key: Key, mode: Mode = Mode.STANDARD) -> GameState:
        """A new game: the team with 9 agents (in co-op, the players) gives the first clue."""
        return cls(key=key, mode=mode, phase=Phase.CLUE, turn=key.starting_team)

    @property
    def is_over(self) -> bool:
        """True once a team has won."""
        return self.phase is Phase.OVER

    @property
    def guesses_left(self) -> ClueNumber | None:
        """Guesses the team may still make: clue + 1 for n ≥ 1, `unlimited` for 0 and unlimited.

        None outside the guessing phase.
        """
        if self.phase is not Phase.GUESS:
            return None
        if isinstance(self.clue, int) and self.clue > 0:
            return self.clue + 1 - self.guesses_made
        return UNLIMITED

    def remaining(self, team: Team) -> int:
        """How many agents of `team` are still uncovered."""
        return len(self.key.agents_of(team) - self.covered)

    @property
    def score(self) -> int | None:
        """Co-op only, after a win: the enemy agents still uncovered. None otherwise."""
        if self.mode is not Mode.COOP or self.winner is not self.key.starting_team:
            return None
        return self.remaining(self.key.starting_team.other)

    @property
    def rank(self) -> str | None:
        """The rank code of the co-op score (see `board_rules.codenames.coop`), or None."""
        score = self.score
        return None if score is None else rank_of(score)

    def cover(self, coord: Coord) -> GameState:
        """This state with one more card covered."""
        return replace(self, covered=self.covered | {coord})

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, as `codenames-table replay` prints it."""
        return {
            "mode": self.mode.value,
            "phase": self.phase.value,
            "turn": self.turn.value,
            "clue": self.clue,
            "guesses_made": self.guesses_made,
            "guesses_left": self.guesses_left,
            "remaining": {team.value: self.remaining(team) for team in Team},
            "covered": {str(c): self.key[c].value for c in ALL_COORDS if c in self.covered},
            "winner": None if self.winner is None else self.winner.value,
            "reason": None if self.reason is None else self.reason.value,
            "score": self.score,
            "key": str(self.key),
        }

    def to_json(self) -> str:
        """The versioned JSON text of this state."""
        return json.dumps({"version": STATE_VERSION, **self.to_dict()}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Read a state written by `to_json`; anything malformed or inconsistent is rejected."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidStateError(f"not JSON: {error}") from error
        if not isinstance(data, dict):
            raise InvalidStateError("a game state is a JSON object")
        version = data.pop("version", None)
        if version != STATE_VERSION:
            raise InvalidStateError(f"state version {version!r} is not {STATE_VERSION}")
        try:
            state = cls._from_fields(data)
        except (CodenamesError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidStateError(f"malformed game state: {error!r}") from error
        # The derived fields must agree with the primary ones: a hand-edited file is caught here.
        expected = state.to_dict()
        for name in sorted(expected.keys() | data.keys()):
            if expected.get(name) != data.get(name):
                raise InvalidStateError(
                    f"field {name!r} is {data.get(name)!r}, expected {expected.get(name)!r}"
                )
        return state

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> GameState:
        clue = data["clue"]
        guesses_made = data["guesses_made"]
        if not isinstance(guesses_made, int) or isinstance(guesses_made, bool):
            raise TypeError("guesses_made must be a whole number")
        return cls(
            key=Key.parse(data["key"]),
            mode=Mode(data["mode"]),
            phase=Phase(data["phase"]),
            turn=Team(data["turn"]),
            clue=None if clue is None else parse_clue_number(str(clue)),
            guesses_made=guesses_made,
            covered=frozenset(Coord.parse(c) for c in data["covered"]),
            winner=None if data["winner"] is None else Team(data["winner"]),
            reason=None if data["reason"] is None else EndReason(data["reason"]),
        )
