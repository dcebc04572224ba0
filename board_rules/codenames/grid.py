"""The 5 × 5 grid of word cards and its coordinates.

Columns A–E run left to right and rows 1–5 top to bottom, as the spymasters see the table; the
LED key, the switch matrix and every transcript use the same names.
"""

from __future__ import annotations

from dataclasses import dataclass

from board_rules.codenames.errors import InvalidCoordError

SIZE = 5
COLUMNS = "ABCDE"


@dataclass(frozen=True, order=True)
class Coord:
    """One card position; `row` and `column` count from 0.

    >>> Coord.parse("c3")
    Coord.parse('C3')
    >>> Coord.parse("C3").index
    12
    """

    row: int
    column: int

    def __post_init__(self) -> None:
        if not (0 <= self.row < SIZE and 0 <= self.column < SIZE):
            raise InvalidCoordError(f"no card at row {self.row}, column {self.column}")

    @classmethod
    def parse(cls, text: str) -> Coord:
        """Read `C3` (any case, surrounding blanks ignored)."""
        cleaned = text.strip().upper()
        if len(cleaned) != 2 or cleaned[0] not in COLUMNS or cleaned[1] not in "12345":
            # Not quoted: a file read by mistake must not be shown (`replay` under sudo).
            raise InvalidCoordError("not a card: expected A1 to E5")
        return cls(row=int(cleaned[1]) - 1, column=COLUMNS.index(cleaned[0]))

    @classmethod
    def from_index(cls, index: int) -> Coord:
        """The card at `index` in reading order (A1 = 0, B1 = 1, …, E5 = 24)."""
        if not 0 <= index < SIZE * SIZE:
            raise InvalidCoordError(f"no card at index {index}")
        return cls(row=index // SIZE, column=index % SIZE)

    @property
    def index(self) -> int:
        """Position in reading order, row by row from A1."""
        return self.row * SIZE + self.column

    def __str__(self) -> str:
        return f"{COLUMNS[self.column]}{self.row + 1}"

    def __repr__(self) -> str:
        return f"Coord.parse({str(self)!r})"


ALL_COORDS: tuple[Coord, ...] = tuple(Coord.from_index(i) for i in range(SIZE * SIZE))
"""Every card, in reading order (A1 B1 C1 D1 E1 A2 …)."""
