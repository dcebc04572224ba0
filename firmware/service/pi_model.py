"""Whether this machine is a Raspberry Pi: the commands that drive the Pi's own hardware (`run`,
`selftest`) refuse to start elsewhere. Light on purpose: it is asked before anything is opened."""

from __future__ import annotations

from pathlib import Path

PI_MODEL_FILE = Path("/proc/device-tree/model")


def is_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    """True on a Raspberry Pi, as its device tree names it."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
