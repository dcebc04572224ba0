"""Helpers of the table tests: play a headless script on virtual hardware, get its dumps; or
drive a `VirtualTable` (the `virtual_table` fixture of conftest.py) with `announce`."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware.drivers.oled import OledConfig
from firmware.table.config import TableConfig
from firmware.virtual.script import ScriptRunner, parse_script
from firmware.virtual.table import VirtualTable

from .rules_helpers import KEY_TEXT

KEY_LINE = f"key {KEY_TEXT}"
"""The script line that deals the known key (rules_helpers.KEY)."""
STILL = replace(TableConfig(), oled=OledConfig(shift_every_s=0))
"""The default config without the burn-in shift, so that the chip's memory can be compared with
the rendered screen."""


def play(
    script: str,
    state_dir: Path,
    *,
    config: TableConfig | None = None,
    seed: int = 1,
    language: str | None = None,
) -> list[dict[str, Any]]:
    """Run `script` and return every dump it printed."""
    parsed = parse_script(script)
    out = io.StringIO()
    runner = ScriptRunner(
        config or TableConfig(),
        state_dir,
        seed=seed,
        out=out,
        first_key=parsed.key,
        first_mode=parsed.mode,
        language=language,
    )
    try:
        runner.run(parsed.steps)
    finally:
        runner.close()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def clue(number: int | str) -> str:
    """Script lines that dial `number` from the selector's start (1) and announce it."""
    target = 10 if number == "unlimited" else int(number)
    steps = target - 1
    turn = f"turn {steps:+d}\n" if steps else ""
    return f"{turn}push\n"


def announce(vt: VirtualTable, detents: int = 1) -> None:
    """Dial the clue `detents` on from the selector's 1 and push: +8 is 9, +9 unlimited."""
    vt.turn(detents)
    vt.push()
