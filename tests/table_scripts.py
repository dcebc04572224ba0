"""Helpers of the table tests: play a headless script on virtual hardware, get its dumps."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from firmware.config import TableConfig
from firmware.script import ScriptRunner, parse_script

# Red starts: A1–E1, A2–D2 red; E2, A3–E3, A4, B4 blue; C4–E4, A5–D5 bystanders; E5 assassin.
KEY_LINE = "key RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"


def play(
    script: str,
    state_dir: Path,
    *,
    config: TableConfig | None = None,
    seed: int = 1,
    language: str | None = None,
) -> list[dict[str, Any]]:
    """Run `script` and return every dump it printed."""
    first_key, steps = parse_script(script)
    out = io.StringIO()
    runner = ScriptRunner(
        config or TableConfig(),
        state_dir,
        seed=seed,
        out=out,
        first_key=first_key,
        language=language,
    )
    try:
        runner.run(steps)
    finally:
        runner.close()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def clue(number: int | str) -> str:
    """Script lines that dial `number` from the selector's start (1) and announce it."""
    target = 10 if number == "unlimited" else int(number)
    steps = target - 1
    turn = f"turn {steps:+d}\n" if steps else ""
    return f"{turn}push\n"
