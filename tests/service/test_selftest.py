"""The self-test on virtual hardware, with faults injected in the circuit and the wiring."""

import queue
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from board_rules.codenames import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.console import Console
from firmware.drivers.events import ConsoleButton, InputEvent, MatrixEvent
from firmware.drivers.key_picture import KeyColours
from firmware.drivers.matrix import SwitchMatrix
from firmware.drivers.matrix_wires import SETTLE_S, column_pull_up_ohms, settle_for_pull_up
from firmware.drivers.oled import Oled
from firmware.drivers.pinout import DEFAULT_PIN_MAP, LedBackend
from firmware.service.pi_devices import open_key_strip
from firmware.service.selftest import SWITCHES, Report, SelfTest
from firmware.service.selftest import test_pattern as oled_test_pattern
from firmware.table.i18n import translations
from firmware.table.led_key import LedKey
from firmware.table.oled_render import render_screen
from firmware.table.screen_texts import switch_name
from firmware.table.screens import OledScreen
from firmware.virtual.encoder import VirtualEncoder
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.led_supply import VirtualLedSupply
from firmware.virtual.matrix_circuit import CountingPin, SwitchMatrixCircuit, WireTime
from firmware.virtual.ssd1306 import VirtualSSD1306
from firmware.virtual.strip import open_virtual_strip

from ..conftest import Cli
from ..pixel_libraries import fake_spi_libraries

DEFAULT_SENSE = DEFAULT_PIN_MAP.led_sense or 18


class VirtualRig:
    """The console, OLED and LED key on their virtual twins, on a virtual clock."""

    def __init__(
        self,
        *,
        encoder_reversed: bool = False,
        column_pullup_ohms: float | None = None,
        settle_s: float = SETTLE_S,
        led_supply_v: float | None = None,
    ) -> None:
        """With `column_pullup_ohms`, the columns rise through those resistors (0: the Pi's own
        pull-up alone) on the wires' time, and the scanner waits `settle_s`. With
        `led_supply_v`, the LED supply gives that on its sense divider, which the console
        watches."""
        self.clock = VirtualClock()
        factory = MockFactory(pin_class=CountingPin)
        wire = WireTime(self.clock)
        if column_pullup_ohms is None:
            self.circuit = SwitchMatrixCircuit(factory)
        else:
            self.circuit = SwitchMatrixCircuit(
                factory, now=wire.now, pull_up_ohms=column_pull_up_ohms(column_pullup_ohms)
            )
        a, b = (20, 16) if encoder_reversed else (16, 20)
        self.encoder = VirtualEncoder(factory, a=a, b=b)
        self.supply = (
            None if led_supply_v is None else VirtualLedSupply(factory, DEFAULT_SENSE, led_supply_v)
        )
        self.events: queue.Queue[InputEvent] = queue.Queue()
        clock = self.clock

        def matrix(sink: Callable[[MatrixEvent], None]) -> SwitchMatrix:
            return SwitchMatrix(
                clock, sink, pin_factory=factory, settle_s=settle_s, settle_wait=wire.wait
            )

        self.console = Console(
            self.clock,
            switches=matrix,
            pin_factory=factory,
            events=self.events,
            led_sense=None if led_supply_v is None else DEFAULT_SENSE,
        )
        self.bus = VirtualI2C()
        self.chip = VirtualSSD1306()
        self.bus.attach(0x3C, self.chip)
        self.oled = Oled(self.clock, i2c=self.bus)
        self.strip = open_virtual_strip(29)
        self.lights = LedKey(self.strip)
        self.lit: set[tuple[int, str]] = set()
        """(pixel, colour name) seen lit on the strip."""
        self.images: list[bytes] = []
        """Every picture handed to the OLED."""

    def show_leds(self, picture: KeyColours) -> None:
        self.lights.show(picture)
        for index, (r, g, b) in enumerate(self.strip.pixel_strip.shown_rgb()):
            for name, level in (("red", r), ("green", g), ("blue", b)):
                if level:
                    self.lit.add((index, name))

    def show_oled(self, image: Image.Image) -> None:
        self.images.append(image.tobytes())
        self.oled.show(image)

    def next_event(self, timeout: float) -> InputEvent | None:
        deadline = self.clock.monotonic() + timeout
        while self.events.empty():
            due = self.clock.next_due
            if due is None or due > deadline:
                self.clock.advance(max(deadline - self.clock.monotonic(), 0.0))
                if self.events.empty():
                    return None
                break
            self.clock.advance(max(due - self.clock.monotonic(), 0.0))
        return self.events.get_nowait()

    def pause(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def press(self, switch: Coord | ConsoleButton, hold_s: float = 0.2) -> None:
        self.circuit.press_switch(switch)
        self.clock.call_later(hold_s, lambda: self.circuit.release_switch(switch))

    def close(self) -> None:
        self.console.close()
        self.oled.close()
        self.lights.close()


def operator(rig: VirtualRig, **faults: Callable[[], None]) -> Callable[[str], None]:
    """A person doing as asked, except where `faults` (by request name) say otherwise."""
    by_name = {switch_name(switch): switch for switch in SWITCHES}

    def act(request: str) -> None:
        if request in faults:
            faults[request]()
        elif request == "encoder +1":
            rig.encoder.turn(1)
        elif request == "encoder push":
            rig.encoder.press()
            rig.clock.call_later(0.2, rig.encoder.release)
        else:
            rig.press(by_name[request])

    return act


def run(
    rig: VirtualRig, act: Callable[[str], None], column_pullup_ohms: float | None = None
) -> Report:
    try:
        return SelfTest(
            rig, translations("en"), wait_s=3.0, column_pullup_ohms=column_pullup_ohms
        ).run(on_prompt=act)
    finally:
        rig.close()


def shows(rig: VirtualRig, *lines: str) -> bool:
    expected = render_screen(OledScreen(title="Self-test", lines=lines)).tobytes()
    return rig.chip.to_image().tobytes() == expected


def test_healthy_hardware_passes_and_every_led_shows_every_colour() -> None:
    rig = VirtualRig()
    report = run(rig, operator(rig))
    assert report.ok, report.lines()
    assert rig.lit == {(pixel, name) for pixel in range(29) for name in ("red", "green", "blue")}
    assert shows(rig, "All working")


def test_the_screen_shows_the_test_pattern_then_each_request() -> None:
    rig = VirtualRig()
    seen: list[bool] = []

    def act(request: str) -> None:
        seen.append(shows(rig, f"Press {request}"))
        operator(rig)(request)

    run(rig, act)
    assert oled_test_pattern().tobytes() in rig.images
    assert seen[:30] == [True] * 30  # every switch is asked for by name


def test_a_missing_switch_is_named() -> None:
    rig = VirtualRig()
    report = run(rig, operator(rig, C3=lambda: None, UNDO=lambda: None))
    assert report.missing == ["C3", "UNDO"]
    assert not report.stuck and not report.ghosting
    assert shows(rig, "Faults found", "Details in the terminal")


def test_a_switch_closed_from_the_start_is_stuck() -> None:
    rig = VirtualRig()
    rig.circuit.press_pad(Coord.parse("B2"))  # an object left on the card
    report = run(rig, operator(rig, B2=lambda: None))
    assert report.stuck == ["B2"]
    assert report.missing == []
    assert report.ghosting == []


def test_a_switch_that_closes_another_one_is_ghosting() -> None:
    rig = VirtualRig()

    def short() -> None:  # pressing D4 also closes E4, as a short between them would
        rig.press(Coord.parse("D4"))
        rig.press(Coord.parse("E4"))

    def button_short() -> None:
        rig.press(ConsoleButton.DONE)
        rig.press(Coord.parse("A5"))

    report = run(rig, operator(rig, D4=short, DONE=button_short), column_pullup_ohms=10_000)
    assert report.ghosting == ["D4 also closes E4", "DONE also closes A5"]
    assert report.notes == []  # a short, not a column too slow for the scan


def test_ghosts_on_row_1_name_the_settle_time_and_its_key() -> None:
    # Built without the column resistors, configured as if it had them: a held switch also
    # shows on row 1 (read first after all rows were low) and on the row after its own, its
    # column still rising when they are read.
    rig = VirtualRig(column_pullup_ohms=0)
    report = run(rig, operator(rig), column_pullup_ohms=10_000)
    assert {"C5 also closes C1", "A1 also closes A2", "E2 also closes E1, E3"} <= set(
        report.ghosting
    )
    assert {"TIMER also closes DONE", "PENALTY also closes UNDO"} <= set(report.ghosting)
    (note,) = report.notes
    assert "9 microseconds" in note and "column_pullup_ohms = 10000" in note
    assert note in report.lines()


def test_the_settle_time_of_internal_pull_ups_reads_every_switch_alone() -> None:
    rig = VirtualRig(column_pullup_ohms=0, settle_s=settle_for_pull_up(0))
    report = run(rig, operator(rig), column_pullup_ohms=0)
    assert report.ok


def test_a_reversed_encoder_is_reported() -> None:
    rig = VirtualRig(encoder_reversed=True)
    report = run(rig, operator(rig))
    assert report.encoder == ["reversed: swap the A and B wires (or pins)"]
    assert not report.ok


def test_the_command_exits_2_outside_a_pi(cli: Cli) -> None:
    result = cli("selftest")
    assert result.returncode == 2
    assert "not a Raspberry Pi" in result.stderr
    # It points to what can be done on a desktop instead, in one line.
    assert "codenames-table sim" in result.stderr and "run --virtual" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("problem", ["missing", "stuck", "ghosting", "encoder"])
def test_any_fault_fails_the_report(problem: str) -> None:
    report = Report(**{problem: ["x"]})
    assert not report.ok
    assert any("x" in line for line in report.lines())


def test_an_led_strip_that_did_not_open_fails_the_test_in_one_line_and_shows_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_spi_libraries(monkeypatch)

    def no_spi() -> None:
        raise FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0")

    monkeypatch.setattr("board.SPI", no_spi)
    _, _, error = open_key_strip(LedBackend.SPI, 29)
    assert error is not None
    rig = VirtualRig()
    try:
        report = SelfTest(rig, translations("en"), wait_s=3.0, led_error=error).run(
            on_prompt=operator(rig)
        )
    finally:
        rig.close()
    assert not report.ok
    [line] = report.lines()  # the switches and the encoder all work
    assert line.startswith("LED key off: the spi LED backend cannot open the SPI bus: ")
    assert line.endswith("dtparam=spi=on in /boot/firmware/config.txt, then reboot")
    assert rig.lit == set()  # no chase on a strip that is not there
    off = render_screen(OledScreen(title="Self-test", lines=("LED key off: SPI off",)))
    assert off.tobytes() in rig.images
    assert shows(rig, "Faults found", "Details in the terminal")


def run_with_led_supply(volts: float, language: str) -> tuple[VirtualRig, Report]:
    """The self-test on a rig whose console watches an LED supply giving `volts`."""
    rig = VirtualRig(led_supply_v=volts)
    try:
        test = SelfTest(
            rig, translations(language), wait_s=3.0, led_supply=lambda: rig.console.led_supply
        )
        return rig, test.run(on_prompt=operator(rig))
    finally:
        rig.close()


def test_a_dead_led_supply_fails_the_test_with_where_to_look_and_no_chase() -> None:
    rig, report = run_with_led_supply(0.0, "pt")
    assert not report.ok
    [line] = report.lines()  # the switches and the encoder all work
    assert line.startswith("LED key off: the LED supply is off: ")
    assert "fuse F1" in line and "LED supply" in line
    assert rig.lit == set()  # no chase on unpowered pixels
    off = render_screen(OledScreen(title="Autoteste", lines=("Sem LED: sem corrente",)))
    assert off.tobytes() in rig.images


def test_a_live_led_supply_passes_and_the_chase_runs() -> None:
    rig, report = run_with_led_supply(5.0, "en")
    assert report.ok, report.lines()
    assert len(rig.lit) == 29 * 3
