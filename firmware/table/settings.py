"""The settings staff change from the table's menu, saved in the database so they survive restarts.

The config file's `[table]` gives their defaults (declared here, on each field); a value saved
from the menu wins over it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final

from board_rules.codenames import Mode, Team
from firmware.config_keys import FLAG, one_of, setting, whole
from firmware.table.i18n import LANGUAGES

TIMER_CHOICES: Final = (0, 30, 60, 90, 120, 150, 180)
"""Sand timer lengths in seconds; 0 is off."""
BRIGHTNESS_LEVELS: Final = (1, 2, 3, 4, 5)
"""LED key brightness steps, dim to bright."""


@dataclass(frozen=True)
class TableSettings:
    """What the menu can change."""

    mode: Mode = setting(
        Mode.STANDARD,
        one_of(("standard", "coop"), "standard or coop", Mode),
        "mode of new games: standard (also for three players) or coop",
    )
    """The variant of the next new game."""
    language: str = setting(
        "en", one_of(LANGUAGES, f"one of {', '.join(LANGUAGES)}"), "en, es, pt or it"
    )
    brightness: int = setting(
        3,
        whole(BRIGHTNESS_LEVELS[0], BRIGHTNESS_LEVELS[-1], "a whole number from 1 to 5"),
        "LED key brightness, 1 (dim) to 5 (bright)",
    )
    timer_s: int = setting(
        0,
        one_of(TIMER_CHOICES, f"one of {', '.join(map(str, TIMER_CHOICES))} (0 is off)"),
        "sand timer: 0 (off), 30, 60, 90, 120, 150 or 180 seconds",
    )
    strict: bool = setting(
        False, FLAG, "true: when the timer runs out, the guessing team's turn ends"
    )
    """Strict timer: the end of the sand timer ends the guessing team's turn."""
    timer_autostart: bool = setting(
        False, FLAG, "true: the timer starts by itself when a clue is announced"
    )
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
