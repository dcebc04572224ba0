"""The LED key on virtual hardware: backends, what reaches the pixels, and strip faults.

The lowest boundary is faked, never our own classes: the virtual strip with `PixelStrip`'s API,
and, for the backends' lazy imports, stand-in `rpi_ws281x`, `board` and `neopixel_spi` modules.
"""

from __future__ import annotations

import inspect
import logging
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from board_rules.codenames import ALL_COORDS, Coord, Game, GameState, parse_action
from firmware.drivers.led_layout import LedConfigError, LedLayout
from firmware.drivers.led_strip import (
    LedBackendError,
    LedFault,
    NeoPixelSpiStrip,
    Ws281xStrip,
    open_pixel_strip,
    open_strip,
)
from firmware.table.led_key import LedKey
from firmware.table.led_pattern import LedStyle, key_pattern
from firmware.virtual.strip import Color, VirtualPixelStrip, open_virtual_strip

from ..pixel_libraries import (
    FakeNeoPixelSpi,
    FakeSpiBus,
    fake_rpi_ws281x,
    fake_spi_libraries,
    module,
)
from ..rules_helpers import KEY as RED_STARTS

START = GameState.start(RED_STARTS)
ASSASSIN = Coord.parse("E5")
HIGH, LOW = 0.25, 0.75  # the assassin's blink, at 1 Hz
PLAIN = LedStyle(gamma=1.0)
"""No colour curve, so the wire carries the pattern's colours unchanged."""

WHITE, RED, BLUE = (255, 255, 255), PLAIN.red, PLAIN.blue


@pytest.fixture
def strip() -> Iterator[Ws281xStrip[VirtualPixelStrip]]:
    with open_virtual_strip(29) as opened:
        yield opened


@pytest.fixture
def pixels(strip: Ws281xStrip[VirtualPixelStrip]) -> VirtualPixelStrip:
    return strip.pixel_strip


def shown(pixels: VirtualPixelStrip) -> list[tuple[int, int, int]]:
    return [tuple(rgb) for rgb in pixels.shown_rgb()]  # type: ignore[misc]


# --- what reaches the pixels ------------------------------------------------------------------


def test_default_layout_on_the_wire(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    key = LedKey(strip, style=PLAIN)
    assert key.render(START, HIGH) is True
    picture = key_pattern(START, HIGH, PLAIN)
    on_wire = shown(pixels)
    layout = LedLayout()
    for coord in ALL_COORDS:
        assert on_wire[layout.index(coord)] == picture[coord], coord
    assert on_wire[0] == RED  # A1
    assert on_wire[9] == RED  # A2, at the end of the second, reversed row
    assert on_wire[24] == WHITE  # E5, the assassin
    assert on_wire[25:] == [RED] * 4  # red starts
    assert pixels.shows == 1


def test_rotated_layout_on_the_wire(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    # Turned a quarter clockwise: the chain starts at E1 and runs down column E.
    key = LedKey(strip, layout=LedLayout(rotation=90), style=PLAIN)
    key.render(START.cover(Coord.parse("E3")), HIGH)
    on_wire = shown(pixels)
    assert on_wire[0] == RED  # E1
    assert on_wire[1] == BLUE  # E2
    assert sum(on_wire[2]) < sum(BLUE)  # E3, covered
    assert on_wire[4] == WHITE  # E5
    assert on_wire[24] == PLAIN.bystander  # A5


def test_offset_pixels_and_spare_pixels_stay_dark() -> None:
    with open_virtual_strip(40) as strip:
        LedKey(strip, layout=LedLayout(offset=2), style=PLAIN).render(START, HIGH)
        on_wire = shown(strip.pixel_strip)
    assert on_wire[:2] == [(0, 0, 0)] * 2
    assert on_wire[2] == RED
    assert on_wire[31:] == [(0, 0, 0)] * 9


def test_brightness_and_gamma_are_applied_before_the_wire(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    LedKey(strip, style=LedStyle(gamma=1.0, brightness=128)).render(START, HIGH)
    assert shown(pixels)[0] == (128, 0, 0)
    LedKey(strip, style=LedStyle(gamma=2.2)).render(START, HIGH)
    bystander = shown(pixels)[LedLayout().index(Coord.parse("E4"))]
    assert bystander == tuple(round(255 * (c / 255) ** 2.2) for c in LedStyle().bystander)
    # The strip's own scaling stays at full, where it cannot round a lit pixel to off.
    assert pixels.getBrightness() == 255


def test_the_dimmest_assassin_is_lit_on_the_leds(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    covered = START.cover(ASSASSIN)
    key = LedKey(strip, style=LedStyle(brightness=1))
    for tenth in range(20):
        key.render(covered, tenth / 10)
        assert max(pixels.lit()[24]) > 0, tenth / 10


def test_writes_only_when_colours_change(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    key = LedKey(strip)
    assert key.render(START, 0.0) is True
    assert pixels.pixel_writes == 29
    # Within the assassin's bright half nothing changes: nothing goes down the wire.
    assert key.render(START, 0.1) is False
    assert key.render(START, 0.4) is False
    assert pixels.shows == 1
    # The blink flips one pixel: one pixel written, one frame shown.
    assert key.render(START, 0.6) is True
    assert (pixels.shows, pixels.pixel_writes) == (2, 30)
    # A covered card: that pixel only.
    assert key.render(START.cover(Coord.parse("C3")), 0.7) is True
    assert (pixels.shows, pixels.pixel_writes) == (3, 31)


def test_a_new_style_takes_effect_at_the_next_render(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    key = LedKey(strip, style=PLAIN)
    key.render(START, HIGH)
    key.style = LedStyle(gamma=1.0, red=(200, 0, 0))
    assert key.render(START, HIGH) is True
    assert shown(pixels)[0] == (200, 0, 0)


def test_blank_and_other_pictures(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    key = LedKey(strip, style=PLAIN)
    key.render(START, HIGH)
    assert key.blank() is True
    assert shown(pixels) == [(0, 0, 0)] * 29
    assert key.show(key_pattern(START, HIGH, PLAIN).dimmed(0.5)) is True
    assert shown(pixels)[0] == (128, 0, 0)


def test_a_strip_shorter_than_the_layout_is_refused() -> None:
    with open_virtual_strip(28) as strip, pytest.raises(LedConfigError) as caught:
        LedKey(strip)
    assert caught.value.key == "count"


# --- strip faults never stop the table --------------------------------------------------------


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name == "firmware.drivers.key_strip" and r.levelno >= logging.ERROR
    ]


@pytest.mark.parametrize(
    "fault", [RuntimeError("ws2811_render failed with code -13"), OSError(5, "EIO")]
)
def test_a_failing_show_is_logged_once_per_outage_and_retried_next_frame(
    strip: Ws281xStrip[VirtualPixelStrip],
    pixels: VirtualPixelStrip,
    caplog: pytest.LogCaptureFixture,
    fault: Exception,
) -> None:
    caplog.set_level(logging.INFO, logger="firmware.drivers.key_strip")
    key = LedKey(strip, style=PLAIN)
    pixels.fail_next_show(fault, times=3)
    for _ in range(3):
        assert key.render(START, HIGH) is False
        assert key.failing
    assert len(errors(caplog)) == 1
    assert str(fault) in errors(caplog)[0].getMessage()
    assert pixels.shows == 0
    # The same state at the same time: nothing "changed", yet the frame goes out now.
    assert key.render(START, HIGH) is True
    assert not key.failing
    assert shown(pixels)[24] == WHITE
    assert any("works again" in r.getMessage() for r in caplog.records)
    # A second outage is a new one, and is logged again.
    pixels.fail_next_show()
    key.render(START, LOW)
    key.render(START, LOW + 1)
    assert len(errors(caplog)) == 2


def test_after_a_fault_every_pixel_is_written_again(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    key = LedKey(strip)
    key.render(START, HIGH)
    writes = pixels.pixel_writes
    pixels.fail_next_show()
    key.render(START, LOW)
    key.render(START, LOW)
    # A failed frame leaves the pixels unknown: all 29 go out again, not only the one that moved.
    assert pixels.pixel_writes == writes + 1 + 29


def test_a_programming_error_is_not_swallowed(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    pixels.fail_next_show(ValueError("not a strip fault"))
    with pytest.raises(ValueError, match="not a strip fault"):
        LedKey(strip).render(START, HIGH)


def test_a_whole_game_survives_a_flaky_strip(
    strip: Ws281xStrip[VirtualPixelStrip], pixels: VirtualPixelStrip
) -> None:
    game = Game(RED_STARTS)
    key = LedKey(strip, style=PLAIN)
    for step, action in enumerate(
        ["clue 2", "touch A1", "touch B1", "touch E4", "clue 1", "touch A3"]
    ):
        if step % 2:
            pixels.fail_next_show()
        key.render(game.play(parse_action(action)), step)
        key.render(game.state, step + 0.1)
    covered = LedLayout().index(Coord.parse("A3"))
    assert sum(shown(pixels)[covered]) < sum(BLUE)
    assert not key.failing


# --- closing ----------------------------------------------------------------------------------


def test_closing_the_key_turns_it_off_once(
    pixels: VirtualPixelStrip, strip: Ws281xStrip[VirtualPixelStrip]
) -> None:
    with LedKey(strip) as key:
        key.render(START, HIGH)
    assert shown(pixels) == [(0, 0, 0)] * 29
    shows = pixels.shows
    key.close()
    strip.close()
    assert key.render(START, HIGH) is False
    assert pixels.shows == shows


def test_closing_a_failing_strip_does_not_raise(
    strip: Ws281xStrip[VirtualPixelStrip],
    pixels: VirtualPixelStrip,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pixels.fail_next_show(OSError("gone"))
    strip.close()
    assert "gone" in caplog.text


# --- backends ---------------------------------------------------------------------------------


def test_virtual_backend() -> None:
    strip = open_virtual_strip(29, brightness=100)
    assert isinstance(strip, Ws281xStrip)
    assert strip.count == 29
    virtual = strip.pixel_strip
    assert isinstance(virtual, VirtualPixelStrip)
    assert (virtual.pin, virtual.freq_hz, virtual.dma, virtual.channel) == (10, 800000, 10, 0)
    assert virtual.begun and virtual.getBrightness() == 100
    strip.close()


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (("neopixel", 29), "backend"),
        # The virtual strip is the twin's to open (firmware.virtual.strip).
        (("virtual", 29), "backend"),
        (("ws281x", 0), "count"),
        (("spi", 29, 256), "strip_brightness"),
    ],
)
def test_bad_strip_settings_are_refused_by_name(args: tuple[Any, ...], key: str) -> None:
    with pytest.raises(LedConfigError) as caught:
        open_strip(*args)
    assert caught.value.key == key


def test_ws281x_backend_drives_rpi_ws281x(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_rpi_ws281x(monkeypatch)
    strip = open_strip("ws281x", 29, 200)
    assert isinstance(strip, Ws281xStrip)
    real = strip.pixel_strip
    assert (real.numPixels(), real.pin, real.getBrightness(), real.begun) == (29, 10, 200, True)
    LedKey(strip, style=PLAIN).render(START, HIGH)
    assert real.getPixelColor(0) == Color(*RED)


WS2811_INIT = "ws2811_init failed with code {} ({})"
"""rpi_ws281x's `PixelStrip.begin()` error, with ws2811.h's return code and its text."""


@pytest.mark.parametrize(
    ("code", "text", "spidev", "fault", "hint"),
    [
        # On a Pi 5, or a board newer than the library's table of revisions.
        (
            -3,
            "Hardware revision is not supported",
            True,
            LedFault.UNSUPPORTED,
            r'does not know this board .*: set \[pins\.led\] backend = "auto" or "spi"$',
        ),
        # SPI off: no /dev/spidev0.0 to open.
        (
            -13,
            "Unable to initialize SPI",
            False,
            LedFault.SPI_OFF,
            r"there is no .*spidev0\.0: enable SPI: dtparam=spi=on in /boot/firmware/config\.txt",
        ),
        # The node is there: this user may not open it (or /dev/gpiomem).
        (
            -13,
            "Unable to initialize SPI",
            True,
            LedFault.NO_ACCESS,
            r"may this user open .*spidev0\.0 \(group spi\) and /dev/gpiomem \(group gpio\)\?$",
        ),
        (-11, "Selected GPIO not possible", True, LedFault.FAILED, r'backend = "spi"$'),
    ],
)
def test_ws281x_backend_that_cannot_start_says_why_and_the_fix_that_fits(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    *,
    code: int,
    text: str,
    spidev: bool,
    fault: LedFault,
    hint: str,
) -> None:
    class RefusingStrip(VirtualPixelStrip):
        def begin(self) -> None:
            raise RuntimeError(WS2811_INIT.format(code, text))

    fake_rpi_ws281x(monkeypatch, RefusingStrip)
    device = tmp_path / "spidev0.0"
    if spidev:
        device.touch()
    with pytest.raises(LedBackendError) as caught:
        open_strip("ws281x", 29, spi_device=device)
    assert caught.value.fault is fault
    message = str(caught.value)
    assert message.startswith("the ws281x LED backend cannot start on GPIO 10: ws2811_init")
    assert re.search(hint, message), message
    assert "\n" not in message


def test_ws281x_backend_without_its_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # makes the import fail
    with pytest.raises(LedBackendError, match=r"ws281x LED backend needs rpi-ws281x.*'pi' extra"):
        open_strip("ws281x", 29)


def test_spi_backend_without_its_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "board", module("board"))
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    with pytest.raises(
        LedBackendError,
        match=r"spi LED backend needs adafruit-circuitpython-neopixel-spi.*'pi' extra",
    ):
        open_strip("spi", 29)


@pytest.fixture
def spi_modules(monkeypatch: pytest.MonkeyPatch) -> FakeSpiBus:
    return fake_spi_libraries(monkeypatch)


def test_spi_backend_drives_neopixel_spi(
    spi_modules: FakeSpiBus, caplog: pytest.LogCaptureFixture
) -> None:
    strip = open_strip("spi", 29, 51)
    assert isinstance(strip, NeoPixelSpiStrip)
    (pixels,) = FakeNeoPixelSpi.made
    assert pixels.spi is spi_modules
    assert pixels.options == {"pixel_order": "GRB", "auto_write": False, "brightness": 0.2}
    key = LedKey(strip, style=PLAIN)
    key.render(START, HIGH)
    assert pixels.shown[0] == RED and pixels.shown[24] == WHITE
    pixels.fault = OSError("SPI transfer failed")
    assert key.render(START, LOW) is False
    pixels.fault = None
    assert key.render(START, LOW) is True
    key.close()
    key.close()
    assert pixels.shown == [(0, 0, 0)] * 29
    assert spi_modules.closed == 1


@pytest.mark.parametrize(
    ("failure", "fault", "hint"),
    [
        # Adafruit_PureIO opens /dev/spidev0.0 in board.SPI(): absent without SPI enabled.
        (
            FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0"),
            LedFault.SPI_OFF,
            r"enable SPI: dtparam=spi=on in /boot/firmware/config\.txt, then reboot$",
        ),
        (
            PermissionError(13, "Permission denied", "/dev/spidev0.0"),
            LedFault.NO_ACCESS,
            r"may not open the SPI bus: .*Permission denied.*add this user to the spi group",
        ),
        (ValueError("No Hardware SPI on (SCLK, MOSI, MISO)"), LedFault.FAILED, r"No Hardware SPI"),
    ],
)
def test_spi_backend_whose_bus_does_not_open_says_why_and_the_fix_that_fits(
    monkeypatch: pytest.MonkeyPatch,
    spi_modules: FakeSpiBus,
    failure: Exception,
    fault: LedFault,
    hint: str,
) -> None:
    def refusing_bus() -> FakeSpiBus:
        raise failure

    monkeypatch.setitem(sys.modules, "board", module("board", SPI=refusing_bus))
    with pytest.raises(LedBackendError) as caught:
        open_strip("spi", 29)
    assert caught.value.fault is fault
    assert re.search(hint, str(caught.value)), str(caught.value)
    assert not FakeNeoPixelSpi.made


def test_spi_backend_on_a_board_blinka_does_not_know(
    monkeypatch: pytest.MonkeyPatch, spi_modules: FakeSpiBus, tmp_path: Path
) -> None:
    # Blinka's `board` raises NotImplementedError on import for a board it does not detect.
    (tmp_path / "board.py").write_text(
        "raise NotImplementedError('Board not supported Raspberry Pi 9')\n", encoding="utf-8"
    )
    monkeypatch.delitem(sys.modules, "board")
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(
        LedBackendError, match=r"Board not supported Raspberry Pi 9.*Blinka"
    ) as caught:
        open_strip("spi", 29)
    assert caught.value.fault is LedFault.UNSUPPORTED


def test_hardware_libraries_are_imported_only_when_their_backend_opens() -> None:
    code = (
        "import sys, firmware.virtual.strip as v; v.open_virtual_strip(29).close();"
        "print(sorted({'rpi_ws281x', 'neopixel_spi', 'board', 'busio'} & set(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- the virtual strip against the real rpi_ws281x --------------------------------------------

NOT_MIRRORED = {"getPixelColorRGBW"}
"""Real `PixelStrip` methods the virtual one leaves out: RGBW strips are not used here."""
MIRRORED_DUNDERS = ("__init__", "__len__", "__getitem__", "__setitem__")


def test_virtual_strip_and_ws281x_backend_match_the_real_rpi_ws281x() -> None:
    """Catches drift between the installed rpi_ws281x and what we call and mirror."""
    rpi_ws281x = pytest.importorskip(
        "rpi_ws281x", reason="rpi_ws281x is a Pi-only package (the 'pi' extra), not installed here"
    )
    real = rpi_ws281x.PixelStrip
    # The virtual strip has the real one's methods, with the same parameters.
    public = {
        name for name, _ in inspect.getmembers(real, inspect.isfunction) if not name.startswith("_")
    }
    assert public - set(dir(VirtualPixelStrip)) == NOT_MIRRORED
    for name in [*sorted(public - NOT_MIRRORED), *MIRRORED_DUNDERS]:
        assert inspect.signature(getattr(VirtualPixelStrip, name)).parameters.keys() == (
            inspect.signature(getattr(real, name)).parameters.keys()
        ), name
    for rgb in [(0, 0, 0), (255, 128, 1), (1, 2, 3)]:
        assert Color(*rgb) == rpi_ws281x.Color(*rgb)
    # The backend's calls, checked against the real signatures.
    strip_class = mock.create_autospec(real)
    strip_class.return_value.numPixels.return_value = 29
    strip = open_pixel_strip(strip_class, 29, 255)
    strip_class.assert_called_once_with(29, 10, 800000, 10, False, 255, 0)
    LedKey(strip, style=PLAIN).render(START, HIGH)
    pixel_strip = strip_class.return_value
    pixel_strip.begin.assert_called_once_with()
    pixel_strip.show.assert_called_once_with()
    assert pixel_strip.setPixelColor.call_args_list[0] == mock.call(0, rpi_ws281x.Color(*RED))
    assert pixel_strip.setPixelColor.call_args_list[24] == mock.call(24, rpi_ws281x.Color(*WHITE))
    assert pixel_strip.setPixelColor.call_count == 29


def test_virtual_strip_is_strict_where_the_real_one_would_crash() -> None:
    virtual = VirtualPixelStrip(3, 10)
    with pytest.raises(RuntimeError, match="begin"):
        virtual.setPixelColor(0, 0)
    virtual.begin()
    with pytest.raises(IndexError):
        virtual.setPixelColor(3, 0)
    virtual.setPixelColorRGB(2, 1, 2, 3)
    assert virtual.getPixelColor(2) == 0x010203
    assert virtual.shown == (0, 0, 0)  # set, not yet shown
    virtual.setBrightness(127)
    virtual.show()
    assert virtual.lit()[2] == (0, 1, 1)
    assert tuple(virtual.getPixelColorRGB(2)) == (1, 2, 3)
