"""The table's OLED as the application sees it: `show()` an image, never wait on the bus.

Underneath, a `firmware.drivers.ssd1306_link.Ssd1306Link` sets the chip up with Adafruit's driver
and sends only what changed. This module is what keeps it alive: an `OSError` from the bus (errno
121 with loose wires) marks the display down, logs one warning per outage, and re-initialises it
with exponential back-off on the injected clock; `show()` meanwhile only remembers the newest
image. Once the chip answers again it is initialised afresh (a chip that lost power forgets its
settings) and the current screen is drawn again in full. Against burn-in, the picture is
shifted by a pixel or so every few minutes, and `set_dimmed` lowers the contrast (the table dims
it when it sleeps). The panel is an SSD1306 or an SSD1309 (`OledConfig.controller`); a second
one, at the bus's other address, is another `Oled` (`firmware.drivers.oled_group`).

Clock timers run on the clock's thread on the Pi, the display worker calls `show()` on its own:
whichever thread finds work takes the I/O lock and does it all, the other returns at once.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from PIL import Image

from firmware.config_keys import FLAG, GPIO, number, one_of, setting, whole
from firmware.drivers.clock import Clock, Timer
from firmware.drivers.framebuffer_diff import check_image, image_to_ram
from firmware.drivers.i2c_bus import I2CBus, open_board_i2c
from firmware.drivers.pinout import DEFAULT_PIN_MAP
from firmware.drivers.ssd1306_link import Ssd1306Link
from firmware.drivers.ssd1306_protocol import FRAME_BYTES, Controller

log = logging.getLogger(__name__)

FULL_FRAME_BYTES = 6 * 2 + 1 + FRAME_BYTES
"""Bytes that Adafruit's `show()` writes for one frame: six 2-byte commands, then 0x40 and RAM."""

_MAX_SHIFT = 4

SECOND_ADDRESS = 0x3D
"""The other address an SSD1306 or SSD1309 module can be strapped to (its D/C pin, or the
resistor on the back marked 0x7A/0x78, the 8-bit form of 0x3D/0x3C)."""


_ADDRESS = whole(0x08, 0x77, "a 7-bit I2C address, as 0x3D")


@dataclass(frozen=True)
class SecondOled:
    """A second display on the same bus, for the other side of the table."""

    address: int = setting(
        SECOND_ADDRESS,
        _ADDRESS,
        "strapped to the other address (the first is [pins.oled] address)",
    )
    rotate_180: bool = setting(True, FLAG, "it faces the other way: the chip turns its picture")
    """It faces the players across the table: mounted the other way round, the chip turns it."""
    reset_pin: int | None = setting(
        None,
        GPIO,
        """its own RES line, if it needs one (GPIO 18: the LED supply sense's, so [pins.led]
        sense = false then)""",
    )
    """BCM GPIO wired to its RES, if its module needs one (as `OledConfig.reset_pin`)."""


@dataclass(frozen=True)
class OledConfig:
    """Settings of the OLED (`[oled]` of the config, its keys declared here); every time is in
    seconds."""

    address: int = DEFAULT_PIN_MAP.oled_address
    controller: Controller = setting(
        Controller.SSD1306,
        one_of(("ssd1306", "ssd1309"), '"ssd1306" or "ssd1309"', Controller),
        '"ssd1309": the larger 2.42-inch panel, wired the same way',
    )
    """The panel's controller: the 0.96-inch SSD1306 or the 2.42-inch SSD1309."""
    reset_pin: int | None = setting(
        None,
        GPIO,
        """a free BCM GPIO wired to RES, pulsed before each init: 2.42-inch boards without a
        reset circuit need it (leave out when RES is high; GPIO 4: no shutdown button then)""",
    )
    """BCM GPIO wired to the module's RES, pulsed low before each initialisation; None when RES
    is held high on the module (most SSD1306 boards)."""
    second: SecondOled | None = None
    """A second display, showing the same screens; None: one display."""
    contrast: int = setting(
        0x7F,
        whole(0, 255),
        "0-255 while in use; half, because full contrast wears the panel sooner",
    )
    """Contrast while in use (0–255). Half the segment current, the chip's own reset value: an
    OLED's pixels fade with the current through them, and faster the higher it is, so over long
    café hours full contrast burns the table's fixed labels into the panel sooner; half is still
    plain to read in a lit room, and a bright one can raise it."""
    dim_contrast: int = setting(0x10, whole(0, 255), "0-255 while the table sleeps")
    """Contrast while dimmed."""
    shift_every_s: float = setting(
        180.0,
        number(10, 86_400, "seconds", off=True),
        "burn-in guard: move the picture a pixel this often, 10-86400 s; 0: off",
    )
    """Move the picture to the next of `shift_offsets` this often; 0: never."""
    shift_offsets: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, 1), (0, 1))
    """Offsets (dx, dy) in pixels, visited in turn; screens keep a margin so nothing is cut."""
    rotate_180: bool = setting(False, FLAG, "true when the display is mounted upside down")
    """The module is mounted upside down: the chip turns the picture (segment remap, COM scan)."""
    retry_first: float = 0.5
    """Back-off before the first re-initialisation after an error; it doubles each failure."""
    retry_max: float = 30.0
    """Longest back-off."""

    def __post_init__(self) -> None:
        # The config's keys are checked where they are read (`firmware.config_keys`); these are
        # the driver's own constants.
        if not self.shift_offsets or any(
            abs(dx) > _MAX_SHIFT or abs(dy) > _MAX_SHIFT for dx, dy in self.shift_offsets
        ):
            raise ValueError(f"OLED shift offsets must be one or more within ±{_MAX_SHIFT} px")
        if not 0 < self.retry_first <= self.retry_max:
            raise ValueError("OLED back-off needs 0 < retry_first <= retry_max")

    @property
    def panels(self) -> tuple[OledConfig, ...]:
        """One config per display: this one, then the second's (its address, turn and reset
        line; every other setting shared)."""
        first = replace(self, second=None)
        if self.second is None:
            return (first,)
        second = replace(
            first,
            address=self.second.address,
            rotate_180=self.second.rotate_180,
            reset_pin=self.second.reset_pin,
        )
        return first, second


class Oled:
    """The OLED of the table: `show()` a 1-bit 128 × 64 image; never raises for the bus.

    `i2c` is the bus (`busio.I2C` on the Pi, `VirtualI2C` elsewhere); without one, the Pi's
    I2C1 is opened (its speed is set in the Pi's config.txt, 400 kHz wanted) and closed with the
    display. It is opened with the chip's first initialisation, so a bus that cannot be opened
    (I2C left off in config.txt, no access to /dev/i2c-1) is an outage like any other, not a
    table that fails to start. Use as a context manager, or call `close()`.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        i2c: I2CBus | None = None,
        config: OledConfig | None = None,
        reset: Callable[[], None] | None = None,
    ) -> None:
        self.config = config or OledConfig()
        self._reset = reset
        """Pulses the module's RES line before each initialisation (`reset_pin`)."""
        self._clock = clock
        self._owns_bus = i2c is None
        self._bus: I2CBus | None = i2c  # opened by `_initialise` when not given
        # What is wanted, and the outage bookkeeping: under _lock, which is never held for I/O.
        self._lock = threading.Lock()
        self._image: Image.Image | None = None
        self._shift_index = 0
        self._dimmed = False
        self._wanted = 0  # bumped by every change of what is wanted
        self._done = -1  # the last `_wanted` carried out
        self._up = False
        self._init_due = True
        self._closed = False
        self._outage_since: float | None = None
        self._failures = 0
        self._retry_delay = self.config.retry_first
        self._retry_timer: Timer | None = None
        self._shift_timer: Timer | None = None
        self.defer: Callable[[Callable[[], None]], None] | None = None
        """Where the timers' I2C work (retry, burn-in shift) runs. None: on the
        clock's thread. The Pi hands it to the display worker (`DisplayWorker.run_soon`): the
        clock's thread also scans the switches, and a redraw would hold it for 23-92 ms."""
        # What the chip holds: only touched by the thread that holds _io.
        self._io = threading.Lock()
        self._chip: Ssd1306Link | None = None
        with self._lock:
            if self.config.shift_every_s and len(self.config.shift_offsets) > 1:
                self._shift_timer = clock.call_later(self.config.shift_every_s, self._shift_due)
        self._pump()

    # The application's side

    def show(self, image: Image.Image) -> None:
        """Show `image` (1-bit, 128 × 64), sending what changed; while the display is down, only
        remember it for when it is back. Raises only for a wrong image or a closed display."""
        check_image(image)
        copy = image.copy()  # the caller may draw on its image again at once
        with self._lock:
            self._check_open()
            self._image = copy
            self._wanted += 1
        self._pump()

    def set_dimmed(self, dimmed: bool) -> None:
        """Dim (the table asleep) or light up again."""
        with self._lock:
            self._check_open()
            self._dimmed = dimmed
            self._wanted += 1
        self._pump()

    @property
    def is_up(self) -> bool:
        """Whether the display is initialised and answering."""
        with self._lock:
            return self._up

    @property
    def dimmed(self) -> bool:
        """Whether the display is dimmed."""
        with self._lock:
            return self._dimmed

    @property
    def shift(self) -> tuple[int, int]:
        """The burn-in offset (dx, dy) applied to the picture now."""
        with self._lock:
            return self.config.shift_offsets[self._shift_index]

    def close(self) -> None:
        """Stop the timers and switch the display off (if it answers). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            timers = [self._retry_timer, self._shift_timer]
            self._retry_timer = self._shift_timer = None
        for timer in timers:
            if timer is not None:
                timer.cancel()
        with self._io:  # after any transfer in flight
            if self._chip is not None:
                # A display that does not answer is dark or soon will be.
                with contextlib.suppress(OSError):
                    self._chip.poweroff()
                self._chip = None
            if self._owns_bus and self._bus is not None:
                deinit: Callable[[], None] | None = getattr(self._bus, "deinit", None)
                if deinit is not None:
                    deinit()

    def __enter__(self) -> Oled:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Timers (the clock's thread on the Pi)

    def _retry_due(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._retry_timer = None
            self._init_due = True
            self._wanted += 1
        self._pump_from_timer()

    def _shift_due(self) -> None:
        with self._lock:
            if self._closed or not self.config.shift_every_s:
                return
            self._shift_index = (self._shift_index + 1) % len(self.config.shift_offsets)
            self._wanted += 1
            self._shift_timer = self._clock.call_later(self.config.shift_every_s, self._shift_due)
        self._pump_from_timer()

    # Talking to the chip

    def _pump_from_timer(self) -> None:
        defer = self.defer
        if defer is None:
            self._pump()
        else:
            defer(self._pump)

    def _pump(self) -> None:
        """Carry out what is wanted, unless another thread is at it and will see the news."""
        while True:
            if not self._io.acquire(blocking=False):
                return
            try:
                self._carry_out()
            finally:
                self._io.release()
            with self._lock:
                # Wanted changed after _carry_out looked, while its thread held _io: redo.
                if self._closed or self._done == self._wanted:
                    return

    def _carry_out(self) -> None:
        while True:
            with self._lock:
                if self._closed or self._done == self._wanted:
                    return
                wanted = self._wanted
                up, init_due = self._up, self._init_due
                image, offset = self._image, self.config.shift_offsets[self._shift_index]
                dimmed = self._dimmed
            if up or init_due:  # while down, only the retry timer brings the chip back
                try:
                    chip = self._initialise() if self._chip is None else self._chip
                    self._update(chip, image, offset, dimmed)
                except OSError as error:
                    self._fail(error)
                else:
                    self._recovered()
            with self._lock:
                self._done = wanted

    def _initialise(self) -> Ssd1306Link:
        with self._lock:
            self._init_due = False
        if self._bus is None:
            self._bus = open_board_i2c()
        self._chip = Ssd1306Link(
            self._bus,
            self.config.address,
            rotate_180=self.config.rotate_180,
            controller=self.config.controller,
            reset=self._reset,
        )
        with self._lock:
            self._up = True
        return self._chip

    def _update(
        self, chip: Ssd1306Link, image: Image.Image | None, offset: tuple[int, int], dimmed: bool
    ) -> None:
        chip.set_contrast(self.config.dim_contrast if dimmed else self.config.contrast)
        if image is not None:
            chip.draw(image_to_ram(_shifted(image, offset)))

    def _fail(self, error: Exception) -> None:
        self._chip = None
        with self._lock:
            self._up = False
            self._init_due = False
            self._failures += 1
            first = self._outage_since is None
            if first:
                self._outage_since = self._clock.monotonic()
            delay = self._retry_delay
            self._retry_delay = min(delay * 2, self.config.retry_max)
            if not self._closed:
                self._retry_timer = self._clock.call_later(delay, self._retry_due)
        if first:
            log.warning(
                "OLED at 0x%02x not answering (%s); retrying with back-off",
                self.config.address,
                error,
            )
        else:
            log.debug("OLED still down (%s); next try in %.1f s", error, delay)

    def _recovered(self) -> None:
        with self._lock:
            if self._outage_since is None or not self._up:
                return
            seconds = self._clock.monotonic() - self._outage_since
            failures = self._failures
            self._outage_since = None
            self._failures = 0
            self._retry_delay = self.config.retry_first
        log.info(
            "OLED at 0x%02x back after %.1f s and %d failed tries",
            self.config.address,
            seconds,
            failures,
        )

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the OLED is closed")


def _shifted(image: Image.Image, offset: tuple[int, int]) -> Image.Image:
    if offset == (0, 0):
        return image
    moved = Image.new("1", image.size, 0)
    moved.paste(image, offset)
    return moved
