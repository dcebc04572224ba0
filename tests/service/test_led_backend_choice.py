"""The LED key's backend chosen from the Pi's model, on fake device trees (tests/fake_pi_root.py),
with the LED libraries stood in for at their import (tests/pixel_libraries.py): `auto` drives a
Pi 5 with neopixel-spi and a Pi 4 with rpi_ws281x, `ws281x` on a Pi 5 is a config error, and a
strip that does not open leaves the key on a virtual strip with a fault the staff are told."""

from __future__ import annotations

import logging
import random
import threading
from argparse import Namespace
from pathlib import Path

import pytest

from board_rules.codenames import Coord
from firmware.drivers.led_strip import (
    LedBackendError,
    LedFault,
    LedStrip,
    NeoPixelSpiStrip,
    Ws281xStrip,
)
from firmware.drivers.pinout import LedBackend
from firmware.errors import UsageError
from firmware.service.pi_devices import PiDevices, open_key_strip
from firmware.service.pi_model import (
    LedBackendMismatchError,
    choose_led_backend,
    led_backend_for,
    read_model,
)
from firmware.service.run import run_table
from firmware.service.sd_notify import SystemdNotifier
from firmware.service.selftest_pi import run_selftest
from firmware.service.serve import serve
from firmware.table.config import TableConfig
from firmware.virtual.strip import VirtualPixelStrip
from firmware.virtual.table import VirtualTable

from ..fake_pi_root import fake_pi
from ..notify_socket import RECEIVE_TIMEOUT_S, path_notify_socket
from ..pixel_libraries import FakeNeoPixelSpi, fake_rpi_ws281x, fake_spi_libraries
from ..rules_helpers import KEY
from ..table_scripts import STILL

PI_4 = "Raspberry Pi 4 Model B Rev 1.5"
PI_5 = "Raspberry Pi 5 Model B Rev 1.0"
ZERO_2_W = "Raspberry Pi Zero 2 W Rev 1.0"
UNKNOWN_PI = "Raspberry Pi 9 Model Z Rev 1.0"
"""A Raspberry Pi that the mapping does not know: a model newer than this code."""
COUNT = TableConfig().led_layout.pixel_count


def model_file(tmp_path: Path, model: str) -> Path:
    """The device tree's model file of a fake Pi of `model` (NUL-terminated, as the kernel's)."""
    return fake_pi(tmp_path, devices=("spidev0.0",), user_groups=None, model=model) / (
        "proc/device-tree/model"
    )


@pytest.mark.parametrize(
    ("model", "backend"),
    [
        ("Raspberry Pi 3 Model B Rev 1.2", LedBackend.WS281X),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", LedBackend.WS281X),
        ("Raspberry Pi 3 Model A Plus Rev 1.0", LedBackend.WS281X),
        (PI_4, LedBackend.WS281X),
        ("Raspberry Pi 400 Rev 1.0", LedBackend.WS281X),
        ("Raspberry Pi Compute Module 3 Plus Rev 1.0", LedBackend.WS281X),
        ("Raspberry Pi Compute Module 4 Rev 1.0", LedBackend.WS281X),
        ("Raspberry Pi Compute Module 4S Rev 1.0", LedBackend.WS281X),
        (ZERO_2_W, LedBackend.WS281X),
        (PI_5, LedBackend.SPI),
        ("Raspberry Pi 5 Model B Rev 1.1", LedBackend.SPI),
        ("Raspberry Pi 500 Rev 1.0", LedBackend.SPI),
        ("Raspberry Pi Compute Module 5 Rev 1.0", LedBackend.SPI),
        ("Raspberry Pi Compute Module 5 Lite Rev 1.0", LedBackend.SPI),
        ("Raspberry Pi Zero W Rev 1.1", LedBackend.SPI),
        ("Raspberry Pi 2 Model B Rev 1.1", LedBackend.SPI),
        (UNKNOWN_PI, LedBackend.SPI),
        ("QEMU Virtual Machine", LedBackend.VIRTUAL),
        (None, LedBackend.VIRTUAL),
    ],
)
def test_auto_picks_the_backend_of_the_model(model: str | None, backend: LedBackend) -> None:
    assert led_backend_for(model) is backend
    assert choose_led_backend(LedBackend.AUTO, model) is backend


@pytest.mark.parametrize(
    ("model", "backend"),
    [(PI_4, LedBackend.WS281X), (PI_5, LedBackend.SPI), (ZERO_2_W, LedBackend.WS281X)],
)
def test_the_model_is_read_from_the_device_tree(
    tmp_path: Path, model: str, backend: LedBackend
) -> None:
    read = read_model(model_file(tmp_path, model))
    assert read == model  # without the kernel's trailing NUL
    assert choose_led_backend(TableConfig().pins.led_backend, read) is backend


def test_no_device_tree_is_no_pi(tmp_path: Path) -> None:
    assert read_model(tmp_path / "proc/device-tree/model") is None
    assert choose_led_backend(LedBackend.AUTO, None) is LedBackend.VIRTUAL


@pytest.mark.parametrize("model", [PI_4, PI_5, ZERO_2_W, UNKNOWN_PI, None])
@pytest.mark.parametrize("backend", [LedBackend.SPI, LedBackend.VIRTUAL])
def test_spi_and_virtual_are_honoured_on_every_model(
    model: str | None, backend: LedBackend
) -> None:
    assert choose_led_backend(backend, model) is backend


@pytest.mark.parametrize("model", [PI_4, ZERO_2_W, UNKNOWN_PI, None])
def test_ws281x_is_honoured_off_the_pi_5(model: str | None) -> None:
    assert choose_led_backend(LedBackend.WS281X, model) is LedBackend.WS281X


@pytest.mark.parametrize(
    "model", [PI_5, "Raspberry Pi 500 Rev 1.0", "Raspberry Pi Compute Module 5 Rev 1.0"]
)
def test_ws281x_on_a_pi_5_is_refused(model: str) -> None:
    with pytest.raises(LedBackendMismatchError, match=f'"ws281x" cannot drive .*{model}'):
        choose_led_backend(LedBackend.WS281X, model)


# --- the default config on a faked Pi: which strip is built -----------------------------------


def default_strip(tmp_path: Path, model: str) -> tuple[LedStrip, LedBackend]:
    """The key's strip as the service opens it with the default config on a Pi of `model`."""
    config = TableConfig()
    backend = choose_led_backend(config.pins.led_backend, read_model(model_file(tmp_path, model)))
    strip, used, error = open_key_strip(backend, COUNT, auto=True)
    assert error is None
    return strip, used


def test_the_default_config_on_a_pi_5_drives_the_key_through_neopixel_spi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bus = fake_spi_libraries(monkeypatch)
    fake_rpi_ws281x(monkeypatch)
    strip, used = default_strip(tmp_path, PI_5)
    assert used is LedBackend.SPI
    assert isinstance(strip, NeoPixelSpiStrip)
    (pixels,) = FakeNeoPixelSpi.made
    assert pixels.spi is bus and len(pixels) == COUNT
    strip.close()


@pytest.mark.parametrize("model", [PI_4, ZERO_2_W])
def test_the_default_config_on_a_pi_4_drives_the_key_through_rpi_ws281x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    fake_spi_libraries(monkeypatch)
    fake_rpi_ws281x(monkeypatch)
    strip, used = default_strip(tmp_path, model)
    assert used is LedBackend.WS281X
    assert isinstance(strip, Ws281xStrip)
    assert isinstance(strip.pixel_strip, VirtualPixelStrip)  # rpi_ws281x's PixelStrip, faked
    assert strip.pixel_strip.begun and strip.pixel_strip.pin == 10
    assert not FakeNeoPixelSpi.made
    strip.close()


class UnknownRevisionStrip(VirtualPixelStrip):
    """rpi_ws281x on a board whose revision is not in its table."""

    def begin(self) -> None:
        raise RuntimeError("ws2811_init failed with code -3 (Hardware revision is not supported)")


@pytest.mark.parametrize(
    ("auto", "level", "log_end"),
    [
        # `auto` on a Pi 4 revision newer than rpi_ws281x's table: the spi backend lights it.
        (True, logging.WARNING, "trying the spi backend"),
        # `ws281x` set by hand is kept: the key is off, and the journal says what to set.
        (False, logging.ERROR, 'set [pins.led] backend = "auto" or "spi"'),
    ],
)
def test_a_board_rpi_ws281x_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    *,
    auto: bool,
    level: int,
    log_end: str,
) -> None:
    fake_spi_libraries(monkeypatch)
    fake_rpi_ws281x(monkeypatch, UnknownRevisionStrip)
    with caplog.at_level(logging.WARNING, logger="firmware.service.pi_devices"):
        strip, used, error = open_key_strip(LedBackend.WS281X, COUNT, auto=auto)
    if auto:
        assert (used, error) == (LedBackend.SPI, None)
        assert isinstance(strip, NeoPixelSpiStrip) and FakeNeoPixelSpi.made
    else:
        assert used is LedBackend.WS281X
        assert isinstance(error, LedBackendError) and error.fault is LedFault.UNSUPPORTED
        assert isinstance(strip, Ws281xStrip) and isinstance(strip.pixel_strip, VirtualPixelStrip)
        assert not FakeNeoPixelSpi.made
    [record] = caplog.records
    assert record.levelno == level
    assert "Hardware revision is not supported" in record.getMessage()
    assert record.getMessage().endswith(log_end)
    strip.close()


def test_a_strip_that_does_not_open_is_logged_with_the_fix_for_its_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="firmware.service.pi_devices"):
        error = failed_spi_strip(monkeypatch, NO_SPI)
    assert error.fault is LedFault.SPI_OFF
    # The journal's line: the backend, what the library raised, and the fix for that.
    [record] = caplog.records
    assert record.getMessage().startswith(
        "LED key off, the game goes on without it: the spi LED backend cannot open the SPI bus: "
    )
    assert "No such file or directory" in record.getMessage()
    assert record.getMessage().endswith("dtparam=spi=on in /boot/firmware/config.txt, then reboot")


# --- the commands: run --check-config, run and selftest ---------------------------------------


def check_config(config: Path | None, model: Path) -> None:
    run_table(Namespace(config=config, state_dir=None, lang=None, check_config=True), model)


@pytest.mark.parametrize(
    ("model", "line"),
    [
        (PI_5, f"LED backend spi (auto on {PI_5})"),
        (PI_4, f"LED backend ws281x (auto on {PI_4})"),
        (UNKNOWN_PI, f"LED backend spi (auto on {UNKNOWN_PI})"),
    ],
)
def test_check_config_names_the_backend_for_this_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str, line: str
) -> None:
    check_config(None, model_file(tmp_path, model))
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith("codenames-table run: config OK: no config file, every default;")
    assert out[0].endswith(f", {line}")


def test_check_config_names_an_explicit_backend_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[pins.led]\nbackend = "spi"\n', encoding="utf-8")
    check_config(config, model_file(tmp_path, PI_4))
    assert capsys.readouterr().out.rstrip().endswith(", LED backend spi")


WS281X_CONFIG = '[pins.led]\nbackend = "ws281x"\n'


def test_ws281x_on_a_pi_5_is_a_config_error_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(WS281X_CONFIG, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        check_config(config, model_file(tmp_path, PI_5))
    assert str(caught.value) == (
        f'{config}: pins.led.backend: "ws281x" cannot drive the LEDs of a {PI_5}'
        ' (rpi_ws281x does not support it); set "auto" or "spi"'
    )
    assert capsys.readouterr() == ("", "")


def test_run_and_selftest_refuse_ws281x_on_a_pi_5_before_any_hardware(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(WS281X_CONFIG, encoding="utf-8")
    model = model_file(tmp_path / "pi", PI_5)
    # The state directory, under /tmp, would be refused too: the backend is named first.
    args = Namespace(config=config, state_dir=tmp_path / "state", lang=None, wait=1.0)
    with pytest.raises(UsageError, match=r"pins\.led\.backend: .*set \"auto\" or \"spi\""):
        run_table(args, model)
    with pytest.raises(UsageError, match=r"pins\.led\.backend: .*set \"auto\" or \"spi\""):
        run_selftest(args, model)


# --- what the staff see of a strip that did not open ------------------------------------------


def failed_spi_strip(monkeypatch: pytest.MonkeyPatch, failure: OSError) -> LedBackendError:
    """What `open_key_strip` reports of a Pi 5's strip whose bus raises `failure`."""
    fake_spi_libraries(monkeypatch)

    def refusing_bus() -> None:
        raise failure

    monkeypatch.setattr("board.SPI", refusing_bus)
    strip, _, error = open_key_strip(LedBackend.SPI, COUNT, auto=True)
    strip.close()
    assert error is not None
    return error


NO_SPI = FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0")
NO_ACCESS = PermissionError(13, "Permission denied", "/dev/spidev0.0")


@pytest.mark.parametrize(
    ("language", "failure", "footer"),
    [
        ("en", NO_SPI, "LED key off: SPI off"),
        ("en", NO_ACCESS, "LED key off: no access"),
        ("es", NO_SPI, "Sin LED: SPI inactivo"),
        ("pt", NO_ACCESS, "Sem LED: sem acesso"),
        ("it", NO_SPI, "LED spenti: SPI spento"),
    ],
)
def test_the_oled_says_the_key_is_off_and_why_and_the_game_goes_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    language: str,
    failure: OSError,
    footer: str,
) -> None:
    error = failed_spi_strip(monkeypatch, failure)
    with VirtualTable(
        STILL,
        tmp_path,
        rng=random.Random(3),
        first_key=KEY,
        language=language,
        led_fault=error.fault,
    ) as vt:
        vt.wait(1.0)
        assert vt.display.screen is not None and vt.display.screen.footer == footer
        vt.push()  # a clue of 1, then a guess: the game goes on, on the virtual strip
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.state.covered == {Coord.parse("A1")}
        assert vt.display.screen is not None and vt.display.screen.footer == footer
        assert vt.pixel_strip.shows > 0


def test_systemd_status_names_the_led_key_that_is_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = failed_spi_strip(monkeypatch, NO_SPI)
    stop = threading.Event()
    with (
        path_notify_socket() as receiver,
        SystemdNotifier.from_environment({"NOTIFY_SOCKET": receiver.env_value}) as notifier,
        VirtualTable(STILL, tmp_path, rng=random.Random(3), led_fault=error.fault) as vt,
    ):
        devices = PiDevices(
            console=vt.console,
            buzzer=vt.buzzer,
            oled=vt.oled,
            lights=vt.lights,
            led_backend=LedBackend.SPI,
            led_error=error,
        )
        assert devices.led_fault is LedFault.SPI_OFF
        problems = (devices.led_status,) if devices.led_status else ()
        loop = threading.Thread(target=serve, args=(vt.table, stop, notifier, None, problems))
        loop.start()
        try:
            ready = receiver.receive()
        finally:
            stop.set()
            loop.join(timeout=RECEIVE_TIMEOUT_S)
    assert ready == (
        b"READY=1\nSTATUS=playing; actions in the current game: 0; "
        b"LED key off (spi backend: spi-off); the journal says why"
    )
    assert not loop.is_alive()
