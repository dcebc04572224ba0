"""The key card: the secret identity behind each of the 25 words, and how a key is drawn.

A key holds 9 agents of the starting team (8 plus the double agent), 8 of the other team,
7 innocent bystanders and 1 assassin; the team with 9 agents gives the first clue.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from board_rules.codenames.errors import InvalidKeyError
from board_rules.codenames.grid import ALL_COORDS, SIZE, Coord


class Team(Enum):
    """One of the two teams of spies."""

    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.BLUE if self is Team.RED else Team.RED


class Identity(Enum):
    """What hides behind a word card."""

    RED = "red"
    """A red agent: the red team wants it."""
    BLUE = "blue"
    """A blue agent: the blue team wants it."""
    BYSTANDER = "bystander"
    """An innocent bystander: touching it ends the turn."""
    ASSASSIN = "assassin"
    """The assassin: touching it loses the game."""

    @property
    def letter(self) -> str:
        """The letter of the key's text form: R, B, N or A."""
        return _LETTERS[self]

    @property
    def team(self) -> Team | None:
        """The team this agent belongs to; None for a bystander or the assassin."""
        if self is Identity.RED:
            return Team.RED
        if self is Identity.BLUE:
            return Team.BLUE
        return None

    @classmethod
    def of_team(cls, team: Team) -> Identity:
        """The agent identity of `team`."""
        return cls.RED if team is Team.RED else cls.BLUE


_LETTERS = {
    Identity.RED: "R",
    Identity.BLUE: "B",
    Identity.BYSTANDER: "N",
    Identity.ASSASSIN: "A",
}
_BY_LETTER = {letter: identity for identity, letter in _LETTERS.items()}

STARTING_AGENTS = 9
OTHER_AGENTS = 8
BYSTANDERS = 7
ASSASSINS = 1


@dataclass(frozen=True)
class Key:
    """The 25 identities in reading order (A1 B1 … E1 A2 … E5); always a valid key.

    >>> key = Key.parse("rrrrr/rrrrb/bbbbb/bbnnn/nnnna")
    >>> key.starting_team
    <Team.RED: 'red'>
    >>> str(key)
    'RRRRR/RRRRB/BBBBB/BBNNN/NNNNA'
    """

    identities: tuple[Identity, ...]

    def __post_init__(self) -> None:
        if len(self.identities) != SIZE * SIZE:
            raise InvalidKeyError(f"a key has 25 cards, not {len(self.identities)}")
        counts = Counter(self.identities)
        red, blue = counts[Identity.RED], counts[Identity.BLUE]
        wanted = {STARTING_AGENTS, OTHER_AGENTS}
        if (
            {red, blue} != wanted
            or counts[Identity.BYSTANDER] != BYSTANDERS
            or counts[Identity.ASSASSIN] != ASSASSINS
        ):
            raise InvalidKeyError(
                "a key needs 9 agents of one team, 8 of the other, 7 bystanders and 1 assassin;"
                f" found {red} red, {blue} blue, {counts[Identity.BYSTANDER]} bystanders,"
                f" {counts[Identity.ASSASSIN]} assassins"
            )

    @classmethod
    def parse(cls, text: str) -> Key:
        """Read 25 letters R/B/N/A row by row; any case, rows may be split by `/` or blanks."""
        letters = re.sub(r"[\s/]", "", text).upper()
        # The letters are not quoted: a file read by mistake must not be shown.
        if any(ch not in _BY_LETTER for ch in letters):
            raise InvalidKeyError(
                "unknown key letter: use R (red), B (blue), N (bystander), A (assassin)"
            )
        return cls(tuple(_BY_LETTER[ch] for ch in letters))

    @property
    def starting_team(self) -> Team:
        """The team with 9 agents: it gives the first clue."""
        red = sum(1 for identity in self.identities if identity is Identity.RED)
        return Team.RED if red == STARTING_AGENTS else Team.BLUE

    def __getitem__(self, coord: Coord) -> Identity:
        return self.identities[coord.index]

    def agents_of(self, team: Team) -> frozenset[Coord]:
        """Every card that hides an agent of `team`."""
        wanted = Identity.of_team(team)
        return frozenset(c for c in ALL_COORDS if self[c] is wanted)

    def __str__(self) -> str:
        letters = "".join(identity.letter for identity in self.identities)
        return "/".join(letters[i : i + SIZE] for i in range(0, len(letters), SIZE))

    def __repr__(self) -> str:
        return f"Key.parse({str(self)!r})"


def generate_key(rng: random.Random) -> Key:
    """Draw a key: the starting team 50/50, then every layout of its cards equally likely.

    The caller owns the randomness (the table passes `secrets.SystemRandom()`, tests a seeded
    `random.Random`), so the core has no global random state.
    """
    starting = rng.choice((Team.RED, Team.BLUE))
    cards = (
        [Identity.of_team(starting)] * STARTING_AGENTS
        + [Identity.of_team(starting.other)] * OTHER_AGENTS
        + [Identity.BYSTANDER] * BYSTANDERS
        + [Identity.ASSASSIN] * ASSASSINS
    )
    rng.shuffle(cards)
    return Key(tuple(cards))
