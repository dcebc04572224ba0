"""The finger's rule on a pad's signal, read by read with the reads' times: a finger's jump that
stops at once counts, a hand's creep or its rise slowing into a rest does not, a first sample
read late still shows the jump, and reads that come late or skip samples never make a hand's
rise a touch."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from firmware.drivers.touch_signal import RiseWatch, TouchRule, added_pf

RULE = TouchRule()
NEAR_PF = 0.12
"""The chip's own threshold (4 counts on a 20 pF pad): the signal before the status changed."""


SAMPLE_S = RULE.sample_ms / 1000


def first_accepted(signal: list[float], times: list[float] | None = None) -> int | None:
    """The index of the read the rule accepts (None: none); the reads a sample apart unless
    `times` says when each came, the chip's status having changed at 0."""
    watch = RiseWatch(RULE, near_pf=NEAR_PF, since=0.0)
    when = times or [index * SAMPLE_S for index in range(len(signal))]
    for index, (value, at) in enumerate(zip(signal, when, strict=True)):
        if watch.add(value, at):
            return index
    return None


def hand_resting(ms: float) -> float:
    """A hand's signal slowing into its rest over 30 ms, in pF at `ms` from the status change."""
    tau = min(ms / 30.0, 1.0)
    return NEAR_PF + 1.1 * (1 - (1 - tau) ** 3)


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
    small = [NEAR_PF + 0.2] * 6  # a step of 0.2 pF: under the rule's 0.25
    assert first_accepted(small) is None


def test_a_rise_that_grew_only_by_a_count_more_than_the_sharpness_is_not_a_touch() -> None:
    # 0.3 pF over 8 ms, then 0.48 pF over the next 8 ms and still: 1.5 times the rise before it
    # and 0.03 pF (a count) more, which a reading's noise can make of a hand slowing to rest.
    before = [round(NEAR_PF + 0.075 * n, 3) for n in range(5)]
    rise = [round(before[-1] + 0.12 * n, 3) for n in range(1, 5)]
    signal = before + rise + [rise[-1]] * 4
    assert first_accepted(signal) is None
    without_allowance = RiseWatch(replace(RULE, noise_pf=0.0), near_pf=NEAR_PF, since=0.0)
    accepted = [without_allowance.add(v, n * SAMPLE_S) for n, v in enumerate(signal)]
    assert accepted.index(True) == 10  # the rise's top (index 8) and two still samples after it


def test_one_noisy_sample_is_not_a_touch() -> None:
    assert first_accepted([0.15, 0.6, 0.15, 0.15, 0.6, 0.15]) is None


def test_the_added_capacitance_follows_the_charge() -> None:
    # 720 counts at 47 µA for 1 µs is a pad of 20.3 pF; 690 counts is 0.88 pF more.
    assert added_pf(47, 1.0, 720, 690) == pytest.approx(0.88, abs=0.01)
    assert added_pf(47, 1.0, 720, 720) == 0.0


def test_a_read_at_the_same_time_as_the_last_is_not_judged_again() -> None:
    watch = RiseWatch(RULE, near_pf=NEAR_PF, since=0.0)
    assert [watch.add(1.2, at) for at in (0.0, 0.002, 0.004)] == [False, False, True]
    assert not RiseWatch(RULE, near_pf=NEAR_PF, since=0.0).add(1.2, 0.0)


def test_the_rule_refuses_a_window_of_nothing() -> None:
    with pytest.raises(ValueError, match="1 sample or more"):
        TouchRule(rise_samples=0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        TouchRule(still_share=1.0)
    with pytest.raises(ValueError, match="sample period"):
        TouchRule(sample_ms=0.0)
    with pytest.raises(ValueError, match="noise allowance"):
        TouchRule(noise_pf=-0.01)


def test_a_hand_read_only_at_the_two_ends_of_its_rise_is_not_a_touch() -> None:
    # Read at the status change, then 30 ms later at rest, then regularly: read for read, a step.
    times = [0.0, 0.030, 0.032, 0.034, 0.036, 0.038, 0.040]
    signal = [hand_resting(t * 1000) for t in times]
    assert first_accepted(signal, times) is None
    # The same reads taken a sample apart, as the count of reads would have them, is a finger's.
    assert first_accepted(signal) is not None


def test_a_first_read_long_after_the_status_changed_is_not_judged_on_what_came_before() -> None:
    times = [0.025 + n * SAMPLE_S for n in range(8)]
    signal = [hand_resting(t * 1000) for t in times]
    assert first_accepted(signal, times) is None


@pytest.mark.parametrize("seed", range(20))
def test_reads_late_by_up_to_a_sample_keep_a_hand_slowing_into_its_rest_out(seed: int) -> None:
    rng = random.Random(seed)
    times = list(itertools.accumulate(rng.uniform(SAMPLE_S, 3 * SAMPLE_S) for _ in range(40)))
    rest = [0.15, 0.25, 0.37, 0.5, 0.63, 0.75, 0.86, 0.95, 1.02, 1.08, 1.13, 1.17, 1.2, 1.22]
    rest += [1.23, 1.24] + [1.24] * 30

    def signal_at(at: float) -> float:
        # The regular samples above, a line between them.
        position = min(at / SAMPLE_S, len(rest) - 1.0)
        low = int(position)
        high = min(low + 1, len(rest) - 1)
        return rest[low] + (rest[high] - rest[low]) * (position - low)

    assert first_accepted([signal_at(t) for t in times], times) is None


@pytest.mark.parametrize("seed", range(20))
def test_a_finger_read_late_and_unevenly_still_counts(seed: int) -> None:
    # Reads 2 to 4 ms apart (a sample skipped now and then): the step, spread over 8 ms by the
    # second filter, and the rest after it are all seen.
    rng = random.Random(seed)
    times = list(itertools.accumulate(rng.uniform(SAMPLE_S, 2 * SAMPLE_S) for _ in range(20)))
    step = [0.15, 0.5, 0.9, 1.2]

    def signal_at(at: float) -> float:
        return step[min(int(at / SAMPLE_S), len(step) - 1)]

    accepted = first_accepted([signal_at(t) for t in times], times)
    assert accepted is not None
    assert times[accepted] <= 0.020


def test_a_finger_read_again_after_a_short_stall_counts_once_the_reads_are_regular() -> None:
    # A 6 ms stall over the finger's step: the rise is judged from the reads around it.
    times = [0.0, 0.002, 0.008, 0.010, 0.012, 0.014, 0.016, 0.018, 0.020]
    signal = [0.15, 0.15, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2]
    assert first_accepted(signal, times) is not None


def test_a_rise_still_creeping_after_a_stall_is_judged_as_regular_reads_would_judge_it() -> None:
    # A rise of 1.08 pF over 14 ms that keeps creeping at 0.02 pF/ms: a hand's tail, not a
    # finger stopped by the card. Measured from the read before a 12 ms stall, the rise would
    # look larger against the same tail.
    def signal_at(at: float) -> float:
        ms = at * 1000
        return NEAR_PF + 1.08 * min(ms / 14, 1.0) + 0.02 * max(ms - 14, 0.0)

    regular = [n * SAMPLE_S for n in range(20)]
    stalled = [0.0] + [0.012 + n * SAMPLE_S for n in range(14)]
    assert first_accepted([signal_at(t) for t in regular], regular) is None
    assert first_accepted([signal_at(t) for t in stalled], stalled) is None


def test_a_small_rise_read_across_a_stall_is_not_measured_from_before_the_stall() -> None:
    # A hand come to rest 20 mm over a card, as a busy table read it in the bench's hover run
    # (its status changed at 0): one read, a 7 ms stall, then reads 2.5 to 3.5 ms apart. Its
    # whole rise, measured from before the stall, would pass for a finger's size.
    times = [0.00175, 0.00852, 0.01095, 0.01370, 0.01626, 0.01963]
    signal = [0.088, 0.235, 0.265, 0.325, 0.355, 0.355]
    assert first_accepted(signal, times) is None
