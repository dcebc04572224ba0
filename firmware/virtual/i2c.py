"""A virtual I2C bus with the `busio.I2C` API, for the real Adafruit drivers to run on.

Devices (such as `firmware.virtual.ssd1306.VirtualSSD1306`) are attached at an address; each
write transaction hands them its bytes, as a real bus would after the address byte. The bus
counts what crosses it, can be paced like a real bus at a given clock rate, and injects the
faults loose wires cause: writes failing with `OSError(121, "Remote I/O error")` (the errno
Linux reports for a NACK), or a device unplugged until it is plugged in again.
"""

from __future__ import annotations

import errno
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

BITS_PER_BYTE = 9
"""Eight data bits and the acknowledge bit."""

START_STOP_BITS = 2
"""A start and a stop condition, each about one clock period."""


class I2CTarget(Protocol):
    """A device on the virtual bus, as seen from the controller."""

    def write(self, data: bytes) -> None:
        """Receive the bytes of one write transaction (the address byte excluded)."""

    def read(self, count: int) -> bytes:
        """Answer a read transaction of `count` bytes."""

    def power_cycle(self) -> None:
        """Lose power and come back: the device returns to its power-on state."""


@dataclass(frozen=True)
class Transaction:
    """One transaction that the bus carried (failed ones included)."""

    address: int
    data: bytes
    """The bytes written (for a read, the bytes returned)."""
    read: bool = False
    ok: bool = True


def _nack() -> OSError:
    return OSError(errno.EREMOTEIO, "Remote I/O error")


class VirtualI2C:
    """A fake `busio.I2C`: the methods `adafruit_bus_device.i2c_device.I2CDevice` calls, and more.

    Pacing: every transaction takes `transfer_seconds(n)` of bus time at `frequency`, summed in
    `bus_seconds`; when `pace` is given it is also called with that time: pass `time.sleep` to
    run at the speed of a real bus, or a `VirtualClock`'s `advance` to let virtual time pass
    (its due calls then run inside the transfer). Counters cover only what reached a device:
    `bytes_written` counts the bytes of every write the devices received.
    """

    def __init__(
        self,
        *,
        frequency: int = 400_000,
        pace: Callable[[float], None] | None = None,
        record: bool = False,
    ) -> None:
        if frequency <= 0:
            raise ValueError(f"the bus frequency must be positive, not {frequency}")
        self.frequency = frequency
        self.pace = pace
        self.transactions: list[Transaction] | None = [] if record else None
        """Every transaction in order, when `record` was asked (else None, to save memory)."""
        self.bytes_written = 0
        self.writes = 0
        self.failed_writes = 0
        self.bus_seconds = 0.0
        self._devices: dict[int, I2CTarget] = {}
        self._unplugged: set[int] = set()
        self._fail_next = 0
        self._fail_deliver = 0
        self._fail_fraction = 0.0
        self._fail_random: random.Random | None = None
        self._lock = threading.Lock()
        self._state = threading.Lock()  # guards faults and counters against test threads
        self._closed = False

    # Devices and faults

    def attach(self, address: int, device: I2CTarget) -> None:
        """Plug `device` in at the 7-bit `address`."""
        if not 0x08 <= address <= 0x77:
            raise ValueError(f"0x{address:02x} is not a usable 7-bit I2C address")
        with self._state:
            if address in self._devices:
                raise ValueError(f"a device is already at 0x{address:02x}")
            self._devices[address] = device

    def unplug(self, address: int) -> None:
        """Pull the device at `address` off the bus: every transaction to it fails until replug."""
        with self._state:
            self._device(address)
            self._unplugged.add(address)

    def replug(self, address: int) -> None:
        """Plug the device back in; it had no power meanwhile, so it starts from power-on."""
        with self._state:
            device = self._device(address)
            if address not in self._unplugged:
                return
            # Reset before it answers again, so no write reaches the chip of before the outage.
            device.power_cycle()
            self._unplugged.discard(address)

    def fail_next_writes(self, count: int, *, deliver: int = 0) -> None:
        """Make the next `count` writes fail; each first delivers its `deliver` leading bytes.

        A device that stops acknowledging mid-transfer has taken in what came before the NACK,
        hence `deliver`.
        """
        if count < 0 or deliver < 0:
            raise ValueError("count and deliver must not be negative")
        with self._state:
            self._fail_next = count
            self._fail_deliver = deliver

    def fail_fraction(self, fraction: float, rng: random.Random) -> None:
        """Make each write fail with probability `fraction` (0 turns it off), drawn from `rng`."""
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"the fraction must be within 0 and 1, not {fraction}")
        with self._state:
            self._fail_fraction = fraction
            self._fail_random = rng if fraction else None

    def transfer_seconds(self, count: int) -> float:
        """Bus time of one transaction carrying `count` bytes after the address byte."""
        return ((count + 1) * BITS_PER_BYTE + START_STOP_BITS) / self.frequency

    def reset_counters(self) -> None:
        """Zero the counters and forget recorded transactions (say, after initialisation)."""
        with self._state:
            self.bytes_written = 0
            self.writes = 0
            self.failed_writes = 0
            self.bus_seconds = 0.0
            if self.transactions is not None:
                self.transactions.clear()

    # The busio.I2C API

    def try_lock(self) -> bool:
        """Take the bus for one user; False if another holds it."""
        self._check_open()
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        """Release the bus."""
        self._lock.release()

    def scan(self) -> list[int]:
        """The addresses that acknowledge, as `busio.I2C.scan` reports them."""
        self._check_locked()
        with self._state:
            return sorted(a for a in self._devices if a not in self._unplugged)

    def writeto(
        self,
        address: int,
        buffer: bytes | bytearray | memoryview,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None:
        """Write `buffer[start:end]` to the device at `address` in one transaction."""
        self._check_locked()
        data = bytes(memoryview(buffer)[start:end])
        with self._state:
            device = self._reachable(address)
            failing, deliver = (True, 0) if device is None else self._draw_failure(data)
            sent = data[:deliver]
            self.writes += 1
            self.failed_writes += failing
            self.bytes_written += len(sent)
            seconds = self.transfer_seconds(len(sent))
            self.bus_seconds += seconds
            if self.transactions is not None:
                self.transactions.append(Transaction(address, sent, ok=not failing))
        if device is not None and sent:
            device.write(sent)
        self._pace(seconds)
        if failing:
            raise _nack()

    def readfrom_into(
        self,
        address: int,
        buffer: bytearray | memoryview,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None:
        """Read `len(buffer[start:end])` bytes from the device at `address` into that slice."""
        self._check_locked()
        view = memoryview(buffer)[start:end]
        with self._state:
            device = self._reachable(address)
        if device is None:
            raise _nack()
        data = device.read(len(view))
        view[:] = data
        seconds = self.transfer_seconds(len(view))
        with self._state:
            self.bus_seconds += seconds
            if self.transactions is not None:
                self.transactions.append(Transaction(address, bytes(data), read=True))
        self._pace(seconds)

    def writeto_then_readfrom(
        self,
        address: int,
        buffer_out: bytes | bytearray | memoryview,
        buffer_in: bytearray | memoryview,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        """A write then a read with a repeated start, as one locked exchange."""
        self.writeto(address, buffer_out, start=out_start, end=out_end)
        self.readfrom_into(address, buffer_in, start=in_start, end=in_end)

    def deinit(self) -> None:
        """Release the bus for good, as `busio.I2C.deinit` does. Idempotent."""
        self._closed = True

    def close(self) -> None:
        """The same as `deinit`."""
        self.deinit()

    def __enter__(self) -> VirtualI2C:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()

    # Inside

    def _device(self, address: int) -> I2CTarget:
        try:
            return self._devices[address]
        except KeyError:
            raise ValueError(f"no device attached at 0x{address:02x}") from None

    def _reachable(self, address: int) -> I2CTarget | None:
        if address in self._unplugged:
            return None
        return self._devices.get(address)

    def _draw_failure(self, data: bytes) -> tuple[bool, int]:
        """Whether this write fails, and how many of its bytes reach the device."""
        if self._fail_next:
            self._fail_next -= 1
            return True, min(self._fail_deliver, len(data))
        if self._fail_random is not None and self._fail_random.random() < self._fail_fraction:
            return True, 0
        return False, len(data)

    def _pace(self, seconds: float) -> None:
        if self.pace is not None:
            self.pace(seconds)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the I2C bus is deinitialised")

    def _check_locked(self) -> None:
        self._check_open()
        # busio requires the lock for every transfer; a driver that forgets it is a bug to catch.
        if not self._lock.locked():
            raise RuntimeError("the I2C bus must be locked with try_lock() first")
