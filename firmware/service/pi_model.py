"""This machine's Raspberry Pi model, as its device tree names it, and what the table makes of
it: whether `run` and `selftest` may drive the hardware here, and which LED backend lights the
key (`led_backend_for`). Light on purpose: it is asked before anything is opened."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.drivers.pinout import LedBackend
from firmware.errors import FirmwareError

PI_MODEL_FILE = Path("/proc/device-tree/model")

_PI_5_FAMILY = re.compile(r"Raspberry Pi (5|500)\b|Raspberry Pi Compute Module 5\b")
"""The Pi 5, the Pi 500 (and 500+) and the Compute Module 5: the RP1 chip drives the header."""
_WS281X_FAMILY = re.compile(
    r"Raspberry Pi (3|4|400)\b|Raspberry Pi Compute Module (3|4)|Raspberry Pi Zero 2\b"
)
"""The BCM2837 and BCM2711 boards, whose revisions rpi_ws281x knows: Pi 3, 4, 400, CM3, CM4
(CM4S), Zero 2 W."""


class LedBackendMismatchError(FirmwareError, ValueError):
    """A backend set in the config that cannot drive this Pi's LEDs."""


def read_model(model_file: Path = PI_MODEL_FILE) -> str | None:
    """The device tree's model (`Raspberry Pi 5 Model B Rev 1.0`), or None where there is none."""
    try:
        text = model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text.rstrip("\0\n ") or None


def is_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    """True on a Raspberry Pi, as its device tree names it."""
    return _is_pi(read_model(model_file))


def _is_pi(model: str | None) -> bool:
    return model is not None and "Raspberry Pi" in model


def led_backend_for(model: str | None) -> LedBackend:
    """The LED backend `auto` means on the machine whose device-tree model is `model`.

    - Pi 5 family (`Raspberry Pi 5 …`, `Raspberry Pi 500 …`, `Raspberry Pi Compute Module 5 …`):
      `spi`. rpi_ws281x stops there with "Hardware revision is not supported".
    - Pi 3 / 4 / Zero 2 family (`Raspberry Pi 3 …`, `4 …`, `400 …`, `Compute Module 3 …`,
      `Compute Module 4 …`, `Zero 2 W …`): `ws281x` (rpi_ws281x in SPI mode).
    - Any other Raspberry Pi (a model this list does not know, older or newer): `spi`, which
      drives GPIO 10 through the kernel's spidev on every Pi.
    - Not a Raspberry Pi (no model, or one without "Raspberry Pi": a desktop): `virtual`.

    `systemd/install.sh` cannot import this and makes the same choice from the same file, to
    install only that backend's packages: the two must keep to these four rules.
    """
    if not _is_pi(model):
        return LedBackend.VIRTUAL
    assert model is not None
    if _PI_5_FAMILY.search(model):
        return LedBackend.SPI
    if _WS281X_FAMILY.search(model):
        return LedBackend.WS281X
    return LedBackend.SPI


def choose_led_backend(configured: LedBackend, model: str | None) -> LedBackend:
    """The backend the key is driven with: `configured`, or the model's for `auto`.

    Raises `LedBackendMismatchError` for `ws281x` on a Pi 5 family board, which it cannot drive.
    """
    if configured is LedBackend.AUTO:
        return led_backend_for(model)
    if configured is LedBackend.WS281X and model is not None and _PI_5_FAMILY.search(model):
        raise LedBackendMismatchError(
            f'"ws281x" cannot drive the LEDs of a {model} (rpi_ws281x does not support it);'
            ' set "auto" or "spi"'
        )
    return configured
