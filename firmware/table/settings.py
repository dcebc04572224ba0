"""The settings staff change from the table's menu, saved in the database so they survive restarts.

The config file gives their defaults; a value saved from the menu wins over it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final

from board_rules.codenames import Mode, Team
from firmware.table.i18n import LANGUAGES

TIMER_CHOICES: Final = (0, 30, 60, 90, 120, 150, 180)
"""Sand timer lengths in seconds; 0 is off."""
BRIGHTNESS_LEVELS: Final = (1, 2, 3, 4, 5)
"""LED key brightness steps, dim to bright."""


@dataclass(frozen=True)
class TableSettings:
    """What the menu can change."""

    mode: Mode = Mode.STANDARD
    """The variant of the next new game."""
    language: str = "en"
    brightness: int = 3
    timer_s: int = 0
    strict: bool = False
    """Strict timer: the end of the sand timer ends the guessing team's turn."""
    timer_autostart: bool = False
    """The sand timer starts by itself when a clue is announced."""
    colour_blind: Team | None = None
    """The colour-blind palette's team, whose lights also blink slowly; None: the normal one."""

    def to_saved(self) -> dict[str, Any]:
        """The JSON-ready values, one per setting."""
        values = asdict(self)
        values["mode"] = self.mode.value
        values["colour_blind"] = None if self.colour_blind is None else self.colour_blind.value
        return values

    def with_saved(self, saved: dict[str, Any]) -> TableSettings:
        """These settings overridden by saved values; a value that no longer fits is ignored."""
        valid: dict[str, Any] = {}
        for name, value in saved.items():
            change: dict[str, Any] = {name: value}
            try:
                if name == "mode":
                    change[name] = Mode(value)
                elif name == "colour_blind" and value is not None:
                    change[name] = Team(value)
                candidate = replace(self, **change)
            except (TypeError, ValueError):
                continue
            if candidate.is_valid():
                valid[name] = getattr(candidate, name)
        return replace(self, **valid)

    def is_valid(self) -> bool:
        """True when every value is one the menu offers."""
        return (
            isinstance(self.mode, Mode)
            and self.language in LANGUAGES
            and self.brightness in BRIGHTNESS_LEVELS
            and type(self.timer_s) is int
            and self.timer_s in TIMER_CHOICES
            and isinstance(self.strict, bool)
            and isinstance(self.timer_autostart, bool)
            and (self.colour_blind is None or isinstance(self.colour_blind, Team))
        )
