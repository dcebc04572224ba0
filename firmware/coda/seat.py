"""The choice of seat at the start of the on-screen Coda game: the person picks their place in
the order of play (1: first) before the first move, each choice shown as the order it gives.

With four players the seats are far from even (see the README's "## Coda"), so the person
chooses rather than always starting. Its look is in `firmware/tui/styles/coda.tcss`.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from firmware.coda.controller import MAX_OPPONENTS, CodaController


class SeatOption(Static):
    """One seat, as the order of play it gives; a click takes it."""

    def __init__(self, seat: int, text: str) -> None:
        super().__init__(text, id=f"seat-{seat}", markup=False)
        self.seat = seat

    def on_click(self) -> None:
        screen = self.screen
        if isinstance(screen, SeatScreen):
            screen.dismiss(self.seat)


class SeatScreen(ModalScreen[int]):
    """Keys 1 to the number of players (or a click) take that seat; ⏎ or Esc the first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(seat), f"seat({seat})", show=False) for seat in range(1, MAX_OPPONENTS + 2)),
        Binding("enter,escape", "seat(1)", show=False),
    ]

    def __init__(self, game: CodaController) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        texts, game = self.game.texts, self.game
        with Vertical(id="seats") as seats:
            seats.border_title = texts["seat_title"]
            yield Static(texts["seat_prompt"].format(last=game.players), markup=False)
            for seat in range(1, game.players + 1):
                order = " → ".join(game.names[player] for player in game.seat_order(seat))
                yield SeatOption(seat, f"{seat}: {order}")

    def action_seat(self, seat: int) -> None:
        """Take `seat`, if the table has it."""
        if seat <= self.game.players:
            self.dismiss(seat)
