"""The finger's rule on a pad's signal, sample by sample: a finger's jump that stops at once
counts, a hand's creep or its rise slowing into a rest does not, and a first sample read late
still shows the jump."""

from __future__ import annotations

import pytest

from firmware.drivers.touch_signal import RiseWatch, TouchRule, added_pf

RULE = TouchRule()
NEAR_PF = 0.12
"""The chip's own threshold (4 counts on a 20 pF pad): the signal before the status changed."""


def first_accepted(signal: list[float]) -> int | None:
    watch = RiseWatch(RULE, near_pf=NEAR_PF)
    for index, value in enumerate(signal):
        if watch.add(value):
            return index
    return None


def test_a_finger_step_spread_by_the_second_filter_counts_once_it_has_stopped() -> None:
    ramp = [0.15, 0.5, 0.9, 1.2, 1.2, 1.2, 1.2]
    assert first_accepted(ramp) == 5  # the ramp's top (index 3) and two still samples after it


def test_a_step_read_a_few_milliseconds_late_still_counts() -> None:
    assert first_accepted([1.2, 1.2, 1.2]) == 2


def test_a_hand_that_creeps_up_never_counts_however_large() -> None:
    creep = [NEAR_PF + 0.05 * n for n in range(80)]  # 0.05 pF a sample: 4 pF in the end
    assert first_accepted(creep) is None


def test_a_hand_slowing_into_its_rest_never_counts() -> None:
    # A large rise from the chip's threshold up, its steps growing and then shrinking, then still.
    rest = [0.15, 0.25, 0.37, 0.5, 0.63, 0.75, 0.86, 0.95, 1.02, 1.08, 1.13, 1.17, 1.2, 1.22]
    rest += [1.23, 1.24, 1.24, 1.24, 1.24]
    assert first_accepted(rest) is None


def test_a_finger_under_the_size_is_not_a_touch() -> None:
    small = [NEAR_PF + 0.15] * 6  # a step of 0.15 pF: under the rule's 0.2
    assert first_accepted(small) is None


def test_one_noisy_sample_is_not_a_touch() -> None:
    assert first_accepted([0.15, 0.6, 0.15, 0.15, 0.6, 0.15]) is None


def test_the_added_capacitance_follows_the_charge() -> None:
    # 720 counts at 47 µA for 1 µs is a pad of 20.3 pF; 690 counts is 0.88 pF more.
    assert added_pf(47, 1.0, 720, 690) == pytest.approx(0.88, abs=0.01)
    assert added_pf(47, 1.0, 720, 720) == 0.0


def test_the_rule_refuses_a_window_of_nothing() -> None:
    with pytest.raises(ValueError, match="1 sample or more"):
        TouchRule(rise_samples=0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        TouchRule(still_share=1.0)
