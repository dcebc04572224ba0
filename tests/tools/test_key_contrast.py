"""The LED key's measured contrast: the table's key meets the goal, and the measurement would
catch a key that does not."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

import pytest

from board_rules.codenames import Identity, Team
from firmware.table.key_feedback import BRIGHTNESS_STEPS
from firmware.table.led_pattern import LedStyle, next_blink_edge
from tools.key_contrast import (
    GOAL,
    STATES,
    VIEWS,
    CellState,
    Figure,
    blink_times,
    emitted,
    main,
    measure,
    must_differ,
    report,
    worst_pair,
)

from ..paths import DEVELOPERS_GUIDE

RED, BYSTANDER, ASSASSIN = (
    CellState(i, False) for i in (Identity.RED, Identity.BYSTANDER, Identity.ASSASSIN)
)
COVERED_BYSTANDER = CellState(Identity.BYSTANDER, True)


@pytest.mark.parametrize("team", [Team.BLUE, Team.RED])
def test_the_tables_key_meets_the_goal_at_every_level_and_view(team: Team) -> None:
    """A later change of palette, blink or brightness steps that makes two states hard to tell
    apart fails here, with the level, view and pair named."""
    results = list(measure(LedStyle(colour_blind_team=team)))
    assert {level for level, _, _ in results} == set(BRIGHTNESS_STEPS) == {1, 2, 3, 4, 5}
    assert len(results) == len(BRIGHTNESS_STEPS) * len(VIEWS)
    failing = [
        f"level {level}, {view.name}: {figure}"
        for level, view, figure in results
        if figure.delta_e < GOAL
    ]
    assert failing == []


def test_the_old_key_fails_as_the_issue_measured_it() -> None:
    """The palette and levels before the fix: a bystander and a covered one were the same on
    the wire at level 1, and a protanope barely told red agents from bystanders."""
    old = LedStyle(bystander=(110, 85, 45), assassin_low=0.25)
    results = {(level, view.name): figure for level, view, figure in measure(old, {1: 40, 5: 255})}
    dimmest = results[1, "normal"]
    assert dimmest.delta_e == 0.0
    assert {dimmest.first, dimmest.second} == {BYSTANDER, COVERED_BYSTANDER}
    protanope = results[5, "colour-blind, protanope"]
    assert {protanope.first, protanope.second} == {RED, BYSTANDER}
    assert 4 < protanope.delta_e < 8
    assert results[5, "normal"].delta_e > GOAL  # a trichromat at full brightness was fine


def test_covered_cells_need_not_differ_from_each_other_and_everything_else_must() -> None:
    pairs = [pair for pair in itertools.combinations(STATES, 2) if must_differ(*pair)]
    assert len(STATES) == 8
    assert len(pairs) == 28 - 6
    assert not must_differ(COVERED_BYSTANDER, CellState(Identity.RED, True))
    assert must_differ(BYSTANDER, COVERED_BYSTANDER)


def test_a_pair_counts_at_the_moment_of_the_cycle_it_differs_most() -> None:
    """Blinking apart counts: an assassin the bystanders' grey in one half of its blink and
    white in the other is told apart from them by the blink."""
    grey, white = (60, 60, 60), (255, 255, 255)
    colours = {state: (state_colour(state),) * 2 for state in STATES}
    colours[BYSTANDER] = (grey, grey)
    colours[ASSASSIN] = (grey, grey)
    steady = worst_pair(colours, None)
    assert ({steady.first, steady.second}, steady.delta_e) == ({BYSTANDER, ASSASSIN}, 0.0)
    colours[ASSASSIN] = (grey, white)
    blinking = worst_pair(colours, None)
    assert {blinking.first, blinking.second} != {BYSTANDER, ASSASSIN}
    assert blinking.delta_e > 0


def state_colour(state: CellState) -> tuple[int, int, int]:
    """A colour of its own for each state, none of them grey."""
    index = STATES.index(state)
    return (0, 20 + 25 * index, 255 - 25 * index)


def test_the_blink_cycle_is_sampled_whole_once() -> None:
    # The assassin every 4/3 s and the colour-blind marking every 2 s repeat together after 4 s.
    style = LedStyle(assassin_blink_hz=0.75, colour_blind=True, colour_blind_blink_hz=0.5)
    times = blink_times(style)
    assert times[0] > 0
    assert times[-1] < 4.0
    # One moment between each two blink edges, none skipped, and the cycle ends at the last.
    for now, later in itertools.pairwise(times):
        assert now < next_blink_edge(now, style) < later
        assert next_blink_edge(next_blink_edge(now, style), style) >= later
    assert next_blink_edge(times[-1], style) == pytest.approx(4.0)
    assert blink_times(replace(style, colour_blind=False)) == pytest.approx((1 / 3, 1.0))


def test_the_colours_measured_are_the_ones_on_the_wire() -> None:
    style = LedStyle(gamma=1.0, brightness=255)
    colours = emitted(style)
    assert set(colours[RED]) == {style.red}
    assert set(colours[ASSASSIN]) == {style.assassin, (128, 128, 128)}  # its blink, at half
    # At the lowest brightness the gamma table's floor of 1 is what the strip receives.
    dim = emitted(LedStyle(brightness=1))
    assert set(dim[COVERED_BYSTANDER]) == {(1, 1, 1)}


def test_the_script_prints_every_level_and_view_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for level in BRIGHTNESS_STEPS:
        for view in VIEWS:
            assert any(
                line.startswith(f"{level}") and view.name in line for line in out.splitlines()
            ), (level, view.name)
    assert "All meet the goal" in out


def test_a_figure_under_the_goal_makes_the_report_fail(capsys: pytest.CaptureFixture[str]) -> None:
    low = Figure(RED, BYSTANDER, GOAL - 0.1)
    high = Figure(RED, ASSASSIN, GOAL)
    assert report([(1, VIEWS[0], high)]) == 0
    assert report([(1, VIEWS[0], high), (2, VIEWS[3], low)]) == 1
    out = capsys.readouterr().out
    assert "1 of 2 under the goal" in out
    assert "red / bystander" in out


def test_the_readme_shows_the_figures_the_script_measures() -> None:
    readme = DEVELOPERS_GUIDE.read_text(encoding="utf-8")
    section = readme.split("### The LED key's contrast", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| \d \(", line)]
    shown = {int(row[2]): [float(n) for n in re.findall(r"\*\*([\d.]+)\*\*", row)] for row in rows}
    measured: dict[int, list[float]] = {}
    for level, _, figure in measure(LedStyle()):
        measured.setdefault(level, []).append(round(figure.delta_e, 1))
    assert shown == measured
    for level, brightness in BRIGHTNESS_STEPS.items():
        assert f"| {level} ({brightness}) |" in section
