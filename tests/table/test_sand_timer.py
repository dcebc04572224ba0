"""The sand timer on injected time: its warning, its end and the seconds it shows."""

import pytest

from firmware.table.sand_timer import WARNING_S, TableTimer, TimerTick


class Ticks:
    """The timer's requests to be looked at again, as the game loop's clock would fire them."""

    def __init__(self) -> None:
        self.now = 0.0
        self.due: list[float] = []

    def schedule(self, delay: float) -> None:
        assert delay > 0
        self.due.append(self.now + delay)

    def run(self, timer: TableTimer, until: float) -> list[tuple[float, TimerTick | None, int]]:
        """Fire every tick due up to `until`: when, what it found, the seconds shown then."""
        seen = []
        while self.due and min(self.due) <= until:
            self.now = min(self.due)
            self.due.remove(self.now)
            found = timer.tick(self.now)
            seen.append((self.now, found, timer.seconds_left(self.now) or 0))
        self.now = until
        return seen


def test_the_timer_warns_once_ten_seconds_before_its_end_then_ends_once() -> None:
    ticks = Ticks()
    timer = TableTimer(1.0, ticks.schedule)
    timer.start(30, ticks.now)
    seen = ticks.run(timer, 40.0)
    found = [(at, what) for at, what, _ in seen if what is not None]
    assert found == [(pytest.approx(30 - WARNING_S), TimerTick.WARNING), (30.0, TimerTick.END)]
    assert timer.seconds_left(40.0) is None


def test_a_restarted_timer_warns_again_and_a_short_one_never() -> None:
    ticks = Ticks()
    timer = TableTimer(1.0, ticks.schedule)
    timer.start(30, 0.0)
    ticks.run(timer, 25.0)
    timer.start(30, 25.0)
    warnings = [at for at, what, _ in ticks.run(timer, 60.0) if what is TimerTick.WARNING]
    assert warnings == [pytest.approx(45.0)]
    timer.start(WARNING_S, 60.0)
    assert [what for _, what, _ in ticks.run(timer, 80.0) if what] == [TimerTick.END]


def test_the_seconds_shown_count_down_whole_and_change_on_the_second_after_a_pause() -> None:
    ticks = Ticks()
    timer = TableTimer(1.0, ticks.schedule)
    timer.start(30, 0.0)
    assert timer.seconds_left(0.0) == 30
    assert timer.seconds_left(0.4) == 30  # 29.6 s left: the count shows 30 until 29
    ticks.run(timer, 5.5)
    assert timer.toggle_pause(5.5)
    assert all(what is None for _, what, _ in ticks.run(timer, 100.0))  # paused: nothing ends
    assert timer.seconds_left(100.0) == 25  # paused at 24.5 s left
    assert not timer.toggle_pause(100.0)
    seen = ticks.run(timer, 104.0)
    # The redraws after the resume land where the count changes, not a second after the resume.
    redraws = [(round(at, 6), shown) for at, _, shown in seen if at > 100.0]
    assert redraws[:3] == [(100.5, 24), (101.5, 23), (102.5, 22)]
