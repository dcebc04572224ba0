"""The touch rule's rates over noise seeds: what one seed's sweep counts, the figures it prints
and the seeds it takes. The rates themselves are read from `make touch-rule-rates`."""

import argparse
import io
import json
from collections import Counter
from contextlib import redirect_stdout
from dataclasses import replace

import pytest

from firmware.virtual.mpr121_physics import SUPPORTED_STACKS
from tools.touch_rule_rates import (
    FINGER_SPEEDS_MM_S,
    HAND_DURATIONS_S,
    HAND_HEIGHTS_MM,
    Tally,
    main,
    parse_seeds,
    rates,
)


def test_one_seed_sweeps_every_gesture_over_every_stack_and_prints_its_figures() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--seeds", "4:5", "--reads", "regular", "--jobs", "1"]) == 0
    figures = json.loads(out.getvalue())
    assert list(figures) == ["regular"]
    regular = figures["regular"]
    stacks = len(SUPPORTED_STACKS)
    assert regular["hands_counted"][1] == stacks * len(HAND_HEIGHTS_MM) * len(HAND_DURATIONS_S)
    assert regular["fingers_seen"][1] == stacks * len(FINGER_SPEEDS_MM_S)
    counted = regular["hands_that_counted"].values()
    assert regular["hands_counted"][0] == sum(len(hand["seeds"]) for hand in counted)
    missed = sum(regular["fingers_missed"].values())
    assert regular["fingers_seen"][0] == regular["fingers_seen"][1] - missed
    assert regular["seeds"] == [4, 4]


def test_the_figures_carry_their_95_percent_interval_and_what_counted() -> None:
    tally = Tally(
        hand_seeds={"hand 5 mm in 0.4 s": [7]},
        hand_tries=Counter({"hand 5 mm in 0.4 s": 500, "hand 40 mm in 0.1 s": 500}),
        fingers=Counter({"finger at 10 cm/s": 98, "finger at 40 cm/s": 100}),
        finger_tries=Counter({"finger at 10 cm/s": 100, "finger at 40 cm/s": 100}),
    )
    other = replace(tally, hand_seeds={"hand 5 mm in 0.4 s": [3]})
    figures = rates(tally + other, range(3, 10))
    assert figures["hands_counted"] == [2, 2000]
    assert figures["hands_counted_percent"] == [0.1, 0.0, 0.4]
    assert figures["hands_that_counted"] == {"hand 5 mm in 0.4 s": {"seeds": [3, 7]}}
    assert figures["fingers_seen"] == [396, 400]
    assert figures["fingers_missed"] == {"finger at 10 cm/s": 4}
    assert figures["seeds"] == [3, 9]


@pytest.mark.parametrize("text", ["60", "a:b", "5:5", "9:2"])
def test_seeds_that_are_not_a_range_get_one_clear_line(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="seed"):
        parse_seeds(text)
