"""`codenames-table selftest --calibrate`: measure each capacitive pad through its card and
write its thresholds to the config.

For each card pad and console button in turn the staff member touches the card lying on it and
keeps the finger there until the next one is asked for. The step reads the electrode's filtered
data untouched (the mean of a few reads) and its lowest reading while touched; the difference is
the pad's signal. Its touch threshold is half of it, its release threshold half of that (the
hysteresis the chip needs so that a touch does not flicker), so noise a quarter of the signal
never touches and a finger that loses half its signal through a thicker card still does. A pad
whose signal is under `MIN_SIGNAL` is named too weak: a bigger electrode, a thinner card or a
shorter wire is needed, no threshold would tell its touch from noise.

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

from board_rules.codenames import ALL_COORDS
from firmware.drivers.events import ConsoleButton
from firmware.drivers.touch_pads import (
    PadThresholds,
    TouchChip,
    TouchSwitch,
    electrode_of,
    switch_name,
)
from firmware.table.config import parse_config

MIN_SIGNAL = 8
"""Counts a touch must take off a pad's reading: under it, the pad is too weak."""
IDLE_READS = 5
READ_EVERY_S = 0.02
TOUCH_S = 1.5
"""How long each pad is read after it is asked for."""
SWITCHES: tuple[TouchSwitch, ...] = (*ALL_COORDS, *ConsoleButton)


@dataclass(frozen=True)
class PadReading:
    """One pad's measure: its untouched reading and its lowest while touched."""

    switch: TouchSwitch
    idle: int
    touched: int

    @property
    def signal(self) -> int:
        """What a touch takes off the reading."""
        return self.idle - self.touched

    @property
    def weak(self) -> bool:
        """Too little signal to set thresholds on."""
        return self.signal < MIN_SIGNAL

    def thresholds(self) -> PadThresholds:
        """Touch at half the signal, release at half of that.

        >>> PadReading(ConsoleButton.DONE, idle=200, touched=160).thresholds()
        PadThresholds(touch=20, release=10)
        """
        touch = min(255, max(2, self.signal // 2))
        return PadThresholds(touch=touch, release=max(1, touch // 2))


def measure(
    chips: Sequence[TouchChip | None],
    pause: Callable[[float], None],
    ask: Callable[[TouchSwitch], None],
    switches: Sequence[TouchSwitch] = SWITCHES,
) -> list[PadReading]:
    """Read every switch of `switches` on `chips` (a None chip reads 0: no signal), calling
    `ask` when the finger should go onto it and `pause` between reads."""
    readings = []
    for switch in switches:
        chip_index, electrode = electrode_of(switch)
        chip = chips[chip_index]
        if chip is None:
            readings.append(PadReading(switch, 0, 0))
            continue
        idle_reads = []
        for _ in range(IDLE_READS):
            idle_reads.append(chip.filtered_data(electrode))
            pause(READ_EVERY_S)
        idle = round(sum(idle_reads) / len(idle_reads))
        ask(switch)
        lowest = idle
        for _ in range(round(TOUCH_S / READ_EVERY_S)):
            pause(READ_EVERY_S)
            lowest = min(lowest, chip.filtered_data(electrode))
        readings.append(PadReading(switch, idle, lowest))
    return readings


def report_lines(readings: Sequence[PadReading]) -> list[str]:
    """One line per pad (its signal and thresholds), then the weak ones named together."""
    lines = []
    for reading in readings:
        name = switch_name(reading.switch)
        if reading.weak:
            lines.append(f"{name}: signal {reading.signal}, too weak")
        else:
            limits = reading.thresholds()
            lines.append(
                f"{name}: signal {reading.signal}, touch {limits.touch}, release {limits.release}"
            )
    weak = [switch_name(r.switch) for r in readings if r.weak]
    if weak:
        lines.append(
            f"too weak (under {MIN_SIGNAL} counts): {' '.join(weak)}: a larger electrode, a "
            "thinner card or a shorter wire"
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
