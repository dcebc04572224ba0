"""The table's health as the fleet reports it: what the game loop knows (stuck pads, the OLED,
saving, the LED key's backend, why the key is dark and whether its supply is there) and what the
system says (free disk, CPU temperature, uptime, version)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Final

from firmware.fleet.schema import HealthFields

THERMAL_ZONE: Final = Path("/sys/class/thermal/thermal_zone0/temp")


def version() -> str:
    """The installed firmware's version."""
    try:
        return metadata.version("codenames-table")
    except metadata.PackageNotFoundError:
        return "unknown"


def cpu_temperature(zone: Path = THERMAL_ZONE) -> float | None:
    """The SoC's temperature in °C, or None where the system does not tell it."""
    try:
        return round(int(zone.read_text().strip()) / 1000, 1)
    except (OSError, ValueError):
        return None


def free_disk(folder: Path) -> int | None:
    """Bytes free where the games are saved (its nearest existing parent)."""
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return None


@dataclass
class HealthReading:
    """What the publisher last learnt from the game loop, plus how to read the system."""

    state_dir: Path
    started: float
    """Monotonic time the table started, for its uptime."""
    stuck_pads: tuple[str, ...] = ()
    not_saving: str | None = None
    oled_up: bool = True
    led_backend: str = "virtual"
    """What drives the LED key: `ws281x`, `spi` or `virtual`."""
    led_off: Callable[[], str | None] = lambda: None
    """Why the LED key is dark now (a `LedFault`: `spi-off`, `no-access`, `no-supply`…); None
    while it is lit. Read at each report: the supply can go and come back."""
    led_supply: Callable[[], bool | None] = lambda: None
    """Whether the LED key's 5 V is there now, as its sense input reads it; None when the table
    does not watch it (no `led.sense` in its pin map)."""
    zone: Path = field(default=THERMAL_ZONE)

    def fields(self, now: float, events_dropped: int) -> HealthFields:
        """The health message's own fields at monotonic time `now`."""
        return {
            "stuck_pads": list(self.stuck_pads),
            "oled_up": self.oled_up,
            "led_backend": self.led_backend,
            "led_off": self.led_off(),
            "led_supply": self.led_supply(),
            "saving": self.not_saving is None,
            "not_saving": self.not_saving,
            "free_disk_bytes": free_disk(self.state_dir),
            "cpu_temp_c": cpu_temperature(self.zone),
            "uptime_s": round(now - self.started, 1),
            "version": version(),
            "events_dropped": events_dropped,
        }
