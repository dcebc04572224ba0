"""The injected clock: virtual time runs delayed calls in order; the real one runs them too."""

import threading

from firmware.clock import SystemClock, VirtualClock


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
