"""The injected clock: virtual time runs delayed calls in order; the real one runs them too, and
its thread survives what a call or its own scheduling raises."""

import math
import threading
import time

import pytest

from firmware.drivers.clock import SystemClock, VirtualClock
from firmware.drivers.liveness import Liveness


def test_virtual_clock_moves_only_when_advanced_and_runs_calls_in_time_order() -> None:
    clock = VirtualClock()
    seen: list[tuple[str, float]] = []
    clock.call_later(0.2, lambda: seen.append(("b", clock.monotonic())))
    clock.call_later(0.1, lambda: seen.append(("a", clock.monotonic())))
    assert clock.monotonic() == 0.0
    clock.advance(0.15)
    assert seen == [("a", 0.1)]
    clock.advance(1.0)
    assert seen == [("a", 0.1), ("b", 0.2)]
    assert clock.monotonic() == 1.15


def test_virtual_clock_runs_calls_scheduled_by_calls_within_the_same_advance() -> None:
    clock = VirtualClock()
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(clock.monotonic())
        if len(ticks) < 3:
            clock.call_later(0.005, tick)

    clock.call_later(0.005, tick)
    clock.advance(1.0)
    assert ticks == [0.005, 0.01, 0.015]
    assert clock.pending == 0


def test_cancelled_calls_never_run() -> None:
    clock = VirtualClock()
    seen: list[int] = []
    timer = clock.call_later(0.1, lambda: seen.append(1))
    clock.call_later(0.3, lambda: seen.append(3))
    assert clock.next_due == 0.1
    timer.cancel()
    assert clock.next_due == 0.3
    clock.advance(1.0)
    assert seen == [3]
    assert clock.next_due is None


def test_system_clock_runs_a_delayed_call_on_its_thread_and_closes() -> None:
    ran = threading.Event()
    with SystemClock() as clock:
        start = clock.monotonic()
        clock.call_later(0.01, ran.set)
        assert ran.wait(5.0)
        assert clock.monotonic() >= start
    clock.close()  # idempotent


def test_a_failing_call_does_not_stop_the_system_clock() -> None:
    ran = threading.Event()

    def fail() -> None:
        raise RuntimeError("a driver fault")

    with SystemClock() as clock:
        clock.call_later(0.0, fail)
        clock.call_later(0.01, ran.set)
        assert ran.wait(5.0)


@pytest.mark.parametrize("delay", [1e300, math.inf, 10.0**20])
def test_a_delay_too_long_to_wait_for_does_not_stop_the_system_clock(delay: float) -> None:
    # `[table] sleep_after_s = inf` once killed the thread with an OverflowError of the wait.
    ran = threading.Event()
    never = threading.Event()
    with SystemClock() as clock:
        clock.call_later(delay, never.set)
        clock.call_later(0.0, ran.set)
        assert ran.wait(5.0)
        later = threading.Event()
        clock.call_later(0.01, later.set)  # after the thread went back to its long wait
        assert later.wait(5.0)
        thread = clock.progress.thread
        assert thread is not None
        assert thread.is_alive()
    assert not never.is_set()


def test_an_infinite_delay_never_runs_on_the_virtual_clock() -> None:
    clock = VirtualClock()
    seen: list[int] = []
    clock.call_later(math.inf, lambda: seen.append(1))
    clock.advance(1e300)
    assert seen == []
    assert clock.pending == 1


def test_a_delay_that_is_not_a_number_is_refused_to_the_caller() -> None:
    virtual = VirtualClock()
    with pytest.raises(ValueError, match="not NaN"):
        virtual.call_later(math.nan, lambda: None)
    assert virtual.pending == 0
    with SystemClock() as system:
        with pytest.raises(ValueError, match="not NaN"):
            system.call_later(math.nan, lambda: None)
        assert system.progress.thread is None  # nothing was scheduled


def test_a_scheduler_failure_is_logged_and_the_system_clock_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failed = threading.Event()

    def monotonic() -> float:
        # Fails once, on the scheduler's own thread: the caller's reads go through.
        if threading.current_thread().name == "clock" and not failed.is_set():
            failed.set()
            raise RuntimeError("a scheduler fault")
        return time.monotonic()

    ran = threading.Event()
    with SystemClock(monotonic) as clock:
        clock.call_later(0.0, ran.set)
        assert ran.wait(5.0)
        assert failed.is_set()
    assert "the clock's scheduler failed; it goes on" in caplog.text
    assert "RuntimeError: a scheduler fault" in caplog.text


def test_a_scheduler_that_keeps_failing_stays_busy_so_that_it_counts_as_stuck() -> None:
    attempts = threading.Semaphore(0)

    def monotonic() -> float:
        if threading.current_thread().name == "clock":
            attempts.release()
            raise RuntimeError("a scheduler fault")
        return time.monotonic()

    now = [0.0]
    with SystemClock(monotonic, retry_s=0.0) as clock:
        liveness = Liveness([clock.progress], stuck_after_s=5.0, monotonic=lambda: now[0])
        clock.call_later(0.0, lambda: None)
        for _ in range(3):  # the first failure, and retries on the back-off
            assert attempts.acquire(timeout=5.0)
        assert liveness.fault() is None
        now[0] = 5.0
        assert liveness.fault() == (
            "the clock thread is stuck: 5.0 s in the clock's scheduler, failing"
        )
