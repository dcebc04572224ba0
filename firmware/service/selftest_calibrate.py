"""`codenames-table selftest --calibrate`: measure each capacitive pad through its card, a finger
on it and a hand above it, and write its thresholds to the config.

The chips are configured as the table configures them (`configure_chip`: auto-configuration,
the charge read back). For each card pad and console button in turn, the step reads the
electrode every sample (2 ms) three times over: untouched, while the staff member taps the card
and keeps the finger on it, then while they hold a hand flat about 1 cm above it. What it keeps
of each is what the finger's rule looks at (`firmware.drivers.touch_signal`): the largest drop
of the reading within the rule's window (8 ms), in counts. Untouched, that is the noise; a
finger's is its jump onto the card; a hand's, the fastest it rose.

A pad's touch threshold sits halfway between the larger of noise and hover and the finger's
jump, its release threshold at a quarter of it. A pad whose finger does not clear the hover and
the noise by half again (`MARGIN`), or gives under `MIN_SIGNAL` counts, is named with what to
change: no threshold would tell its finger from a hand.

The thresholds are written to `[input.mpr121] pads` of the config file, the rest of the file
kept as it is; the file is read back through the config's own checks before it replaces the old.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from board_rules.codenames import ALL_COORDS
from firmware.drivers.events import ConsoleButton
from firmware.drivers.touch_pads import (
    ELECTRODES,
    SAMPLE_MS,
    PadThresholds,
    TouchChip,
    TouchSwitch,
    configure_chip,
    debounce_register,
    electrode_of,
    electrodes_used,
    open_chip,
    switch_name,
)
from firmware.drivers.touch_signal import TouchRule
from firmware.table.config import parse_config

MIN_SIGNAL = 8
"""Counts a finger's jump must reach: under it, the pad is too weak."""
MARGIN = 1.5
"""How many times the noise and the hover's rise a finger's jump must be."""
READ_EVERY_S = SAMPLE_MS / 1000
"""Once a sample: the rule's window is counted in samples."""
IDLE_S = 0.2
TOUCH_S = 1.5
"""How long each pad is read after it is asked for, with a finger, then with a hand."""
WINDOW = TouchRule().rise_samples
SWITCHES: tuple[TouchSwitch, ...] = (*ALL_COORDS, *ConsoleButton)
Gesture = Literal["finger", "hover"]


@dataclass(frozen=True)
class PadReading:
    """One pad's measure, in counts: the untouched noise, a finger's jump and a hand's rise."""

    switch: TouchSwitch
    noise: int
    finger: int
    hover: int

    @property
    def floor(self) -> int:
        """What a finger must clear: the hand's rise, or the noise if larger."""
        return max(self.noise, self.hover)

    @property
    def weak(self) -> bool:
        """Too little margin to tell a finger from a hand or from noise."""
        return self.finger < MIN_SIGNAL or self.finger < MARGIN * self.floor

    def thresholds(self) -> PadThresholds:
        """Touch halfway between the floor and the finger, release at a quarter of that.

        >>> PadReading(ConsoleButton.DONE, noise=2, finger=40, hover=12).thresholds()
        PadThresholds(touch=26, release=6)
        """
        touch = min(255, max(2, (self.floor + self.finger) // 2))
        return PadThresholds(touch=touch, release=max(1, touch // 4))


def largest_drop(readings: Sequence[int], window: int = WINDOW) -> int:
    """The largest fall of `readings` within `window` samples (a touch lowers the reading).

    >>> largest_drop([700, 700, 690, 660, 650, 650], window=2)
    40
    """
    drops = [
        readings[i - step] - readings[i]
        for i in range(len(readings))
        for step in range(1, window + 1)
        if i >= step
    ]
    return max([0, *drops])


def open_configured(i2c: Any, addresses: Sequence[int]) -> list[TouchChip | None]:
    """Each chip opened and configured as the table does (None for one that does not answer)."""
    chips: list[TouchChip | None] = []
    for index, address in enumerate(addresses):
        try:
            chip = open_chip(i2c, address)
            used = electrodes_used(index)
            configure_chip(chip, used, [PadThresholds().on_chip()] * used, debounce_register(30.0))
        except (OSError, RuntimeError, ValueError):
            chips.append(None)
            continue
        chips.append(chip)
    return chips


def _read_for(
    chip: TouchChip, electrode: int, seconds: float, pause: Callable[[float], None]
) -> list[int]:
    readings = []
    for _ in range(round(seconds / READ_EVERY_S)):
        pause(READ_EVERY_S)
        readings.append(chip.filtered_data(electrode))
    return readings


def measure(
    chips: Sequence[TouchChip | None],
    pause: Callable[[float], None],
    ask: Callable[[TouchSwitch, Gesture], None],
    switches: Sequence[TouchSwitch] = SWITCHES,
) -> list[PadReading]:
    """Read every switch of `switches` on `chips` (a None chip reads nothing: no signal),
    calling `ask` when the finger, then the hand, should go onto it and `pause` between reads."""
    readings = []
    for switch in switches:
        chip_index, electrode = electrode_of(switch)
        chip = chips[chip_index]
        if chip is None or electrode >= ELECTRODES:
            readings.append(PadReading(switch, 0, 0, 0))
            continue
        noise = largest_drop(_read_for(chip, electrode, IDLE_S, pause))
        ask(switch, "finger")
        finger = largest_drop(_read_for(chip, electrode, TOUCH_S, pause))
        ask(switch, "hover")
        hover = largest_drop(_read_for(chip, electrode, TOUCH_S, pause))
        readings.append(PadReading(switch, noise, finger, hover))
    return readings


def report_lines(readings: Sequence[PadReading]) -> list[str]:
    """One line per pad (its figures and thresholds), then the weak ones named together."""
    lines = []
    for reading in readings:
        name = switch_name(reading.switch)
        figures = f"finger {reading.finger}, hand {reading.hover}, noise {reading.noise}"
        if reading.weak:
            lines.append(f"{name}: {figures}, too weak")
        else:
            limits = reading.thresholds()
            lines.append(f"{name}: {figures}, touch {limits.touch}, release {limits.release}")
    weak = [switch_name(r.switch) for r in readings if r.weak]
    if weak:
        lines.append(
            f"too weak (a finger under {MIN_SIGNAL} counts or under {MARGIN:g} times the hand "
            f"and the noise): {' '.join(weak)}: a thinner top (or glass), or a shorter wire; "
            "a larger electrode does not help a fingertip"
        )
    return lines


_SECTION = re.compile(r"^\s*\[([^\]]*)\]\s*(#.*)?$")
_PADS = re.compile(r"^\s*pads\s*=")


def pads_line(readings: Sequence[PadReading]) -> str:
    """The `pads = { … }` line for the pads strong enough to have thresholds."""
    entries = []
    for reading in readings:
        if not reading.weak:
            limits = reading.thresholds()
            entries.append(f"{switch_name(reading.switch)} = [{limits.touch}, {limits.release}]")
    return f"pads = {{ {', '.join(entries)} }}"


def with_thresholds(text: str, readings: Sequence[PadReading]) -> str:
    """The config `text` with `[input.mpr121] pads` set from `readings`, the rest untouched."""
    line = pads_line(readings)
    lines = text.splitlines()
    section = None
    header_at: int | None = None
    for index, current in enumerate(lines):
        match = _SECTION.match(current)
        if match:
            section = match.group(1).strip()
            if section == "input.mpr121":
                header_at = index
            continue
        if section == "input.mpr121" and _PADS.match(current):
            lines[index] = line
            return "\n".join(lines) + "\n"
    if header_at is not None:
        lines.insert(header_at + 1, line)
    else:
        lines += ["", "[input.mpr121]", line]
    return "\n".join(lines) + "\n"


def write_thresholds(path: Path, readings: Sequence[PadReading]) -> None:
    """Set the pads' thresholds in the config file at `path` (created if missing), checked by
    the config's own rules first and replaced in one rename, so a crash leaves the old file."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    updated = with_thresholds(text, readings)
    parse_config(tomllib.loads(updated), str(path))
    temporary = path.with_name(path.name + ".calibrating")
    temporary.write_text(updated, encoding="utf-8")
    os.replace(temporary, path)
