"""The plain input events of the table: what the switch matrix and the console report.

They say what a hand did to the hardware (`pad C3 pressed`, `undo held`, `encoder +1`) and
nothing about the game; the application decides what each one means now. Every event carries
`at`, seconds on the injected clock, so holds and double presses are derived from timestamps
rather than from when the event happened to be read off the queue.

>>> from board_rules.codenames.grid import Coord
>>> str(PadPressed(Coord.parse("C3"), at=12.5))
'pad C3 pressed'
>>> str(ButtonHeld(ConsoleButton.UNDO, at=3.0))
'undo held'
>>> str(EncoderTurned(+1, at=0.0))
'encoder +1'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from board_rules.codenames.grid import Coord


class ConsoleButton(Enum):
    """The five console buttons, wired in column 6 of the switch matrix."""

    DONE = "done"
    """The team stops guessing (matrix row 1)."""
    PENALTY = "penalty"
    """The invalid-clue penalty, held to confirm (matrix row 2)."""
    UNDO = "undo"
    """Take back the last action, held to confirm (matrix row 3)."""
    NEW = "new"
    """A new game, held longer to confirm (matrix row 4)."""
    TIMER = "timer"
    """The sand timer: a press starts it, a hold pauses it (matrix row 5)."""


@dataclass(frozen=True)
class PadPressed:
    """A card pad was pressed on its own; `at` is when the contact closed."""

    coord: Coord
    at: float

    def __str__(self) -> str:
        return f"pad {self.coord} pressed"


@dataclass(frozen=True)
class PadReleased:
    """A pad whose press or stuck state was reported opened again, after `held_s` seconds."""

    coord: Coord
    at: float
    held_s: float

    def __str__(self) -> str:
        return f"pad {self.coord} released"


@dataclass(frozen=True)
class MultiplePads:
    """More than one card pad was down at once: the joining pads did not count.

    `coords` are all the pads down at that moment, in reading order.
    """

    coords: tuple[Coord, ...]
    at: float

    def __str__(self) -> str:
        return f"pads {' '.join(str(coord) for coord in self.coords)} pressed at once"


@dataclass(frozen=True)
class PadStuck:
    """A pad stayed down longer than the stuck limit; it is ignored until it opens."""

    coord: Coord
    at: float

    def __str__(self) -> str:
        return f"pad {self.coord} stuck"


@dataclass(frozen=True)
class ButtonPressed:
    """A console button closed; `at` is when the contact closed."""

    button: ConsoleButton
    at: float

    def __str__(self) -> str:
        return f"{self.button.value} pressed"


@dataclass(frozen=True)
class ButtonReleased:
    """A console button opened after `held_s` seconds down."""

    button: ConsoleButton
    at: float
    held_s: float

    def __str__(self) -> str:
        return f"{self.button.value} released"


@dataclass(frozen=True)
class ButtonHeld:
    """A console button is still down when its hold time passes; reported once per press."""

    button: ConsoleButton
    at: float

    def __str__(self) -> str:
        return f"{self.button.value} held"


@dataclass(frozen=True)
class EncoderTurned:
    """The encoder moved one detent: `steps` is +1 clockwise, -1 counter-clockwise."""

    steps: int
    at: float

    def __str__(self) -> str:
        return f"encoder {self.steps:+d}"


@dataclass(frozen=True)
class EncoderPushed:
    """A short push of the encoder, reported when it opens (`at`) before the hold time."""

    at: float

    def __str__(self) -> str:
        return "encoder pushed"


@dataclass(frozen=True)
class EncoderHeld:
    """The encoder push is still down when its hold time passes; no push follows."""

    at: float

    def __str__(self) -> str:
        return "encoder held"


@dataclass(frozen=True)
class TouchChipFault:
    """A touch chip of the capacitive pads stopped answering on the bus, or (`answering`)
    answers again; a device's fault, not a hand's: the OLED shows it while the game goes on."""

    address: int
    answering: bool
    at: float

    def __str__(self) -> str:
        return f"touch chip 0x{self.address:02x} {'back' if self.answering else 'not answering'}"


@dataclass(frozen=True)
class LedSupplyChanged:
    """The LED strip's 5 V supply went away (`present` False: a dead supply, a blown fuse, a
    pulled lead) or came back, as its sense input reads it; a device's fault, not a hand's."""

    present: bool
    at: float

    def __str__(self) -> str:
        return f"LED supply {'back' if self.present else 'off'}"


MatrixEvent: TypeAlias = (
    PadPressed
    | PadReleased
    | MultiplePads
    | PadStuck
    | ButtonPressed
    | ButtonReleased
    | TouchChipFault
)
"""What the switch matrix scanner (or the capacitive pads, which may also fail) reports."""

InputEvent: TypeAlias = (
    MatrixEvent | ButtonHeld | EncoderTurned | EncoderPushed | EncoderHeld | LedSupplyChanged
)
"""What the console puts on its queue."""


PadOrButton: TypeAlias = Coord | ConsoleButton
"""What a hand closes under the table: a card pad or a console button, on either input backend."""


def released(switch: PadOrButton, at: float, held_s: float) -> PadReleased | ButtonReleased:
    """The release of `switch` at `at`, after `held_s` seconds down: the same for both backends."""
    if isinstance(switch, ConsoleButton):
        return ButtonReleased(switch, at, held_s)
    return PadReleased(switch, at, held_s)


def pad_of(switch: PadOrButton) -> Coord:
    """The card of a pad; `TypeError` for a console button, where a pad was meant."""
    if not isinstance(switch, Coord):
        raise TypeError(f"{switch} is not a card pad")
    return switch
