"""`make bench` in a tiny configuration: the shape of its output and counts that must add up.

Nothing here times anything: the figures depend on the machine, and `make bench` is where they
are read. These runs use an unpaced bus, a few touches and a short idle.
"""

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from board_rules.codenames import Coord, Game, GiveClue, Phase, Touch, generate_key
from firmware.drivers.oled import FULL_FRAME_BYTES
from firmware.table.store import GameStore, TimedAction
from firmware.virtual.mpr121 import VirtualTouchPanel
from tools import bench
from tools.bench import (
    HELD_CPU_BUDGET_PERCENT,
    TOUCH_CPU_BUDGET_MS,
    budgets,
    main,
    measure_play,
    next_move,
    service_nice,
    worst_of,
)
from tools.bench_glitches import measure_glitches


@pytest.mark.parametrize("seed", range(20))
def test_the_bench_plays_the_longest_legal_game_on_any_key(seed: int) -> None:
    game = Game(generate_key(random.Random(seed)))
    touches = 0
    while (move := next_move(game.state)) != "new":
        # Every move is legal: play() raises on an illegal one.
        game.play(GiveClue(0) if move == "clue" else Touch(move))
        touches += move != "clue"
    assert game.state.phase is Phase.OVER
    assert touches == 23  # every card but one agent of each team
    assert len(game.state.covered) == 23


def test_the_output_is_one_json_object_with_every_figure_and_its_budget() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--touches", "2", "--idle", "0.1", "--held", "0.05", "--startup-runs", "1"]
    argv += ["--glitches", "20", "--wear-games", "2"]
    argv.append("--unpaced")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(argv) == 0
    figures = json.loads(out.getvalue())
    for name in ("touch_to_led_ms", "touch_to_oled_ms"):
        assert set(figures[name]) == {"median", "p99"}
        assert 0 < figures[name]["median"] <= figures[name]["p99"]
    assert set(figures["oled_bytes_per_event"]) == {"sent", "full_frame"}
    names = ("idle_pin_reads_per_s", "idle_cpu_percent", "startup_s", "rss_mb")
    for name in (*names, "cpu_ms_per_touch", "held_cpu_percent"):
        assert isinstance(figures[name], int | float) and figures[name] >= 0
    assert figures["startup_s"] > 0 and figures["rss_mb"] > 0
    assert isinstance(figures["nice"], int)
    assert figures["samples"]["touches"] == 2 * 2  # measured twice, the worse reported
    assert figures["glitch_run"]["glitches"] == 20
    assert isinstance(figures["false_guesses"], int)
    assert figures["sd_wear"]["games"] == 2 and figures["sd_wear"]["bytes_per_action"] > 0
    assert figures["within_budget"]["card_years"] is figures["sd_wear"]["card_years_met"]
    assert set(figures["within_budget"]) == set(figures["budgets"])
    assert all(isinstance(ok, bool) for ok in figures["within_budget"].values())
    # The human-readable comparison names every budget.
    assert all(name in err.getvalue() for name in figures["budgets"])


def test_the_cpu_figures_are_milliseconds_per_touch_and_a_share_of_one_core(
    tmp_path: Path,
) -> None:
    figures = measure_play(tmp_path, touches=2, paced=False, idle_s=0.1, held_s=0.05)
    assert figures["samples"]["touches"] == 2
    # Some CPU is always spent on a touch; a held pad's share of one core is a percentage.
    assert isinstance(figures["cpu_ms_per_touch"], float) and figures["cpu_ms_per_touch"] > 0
    assert isinstance(figures["held_cpu_percent"], float)
    assert 0 <= figures["held_cpu_percent"] <= 100 * 2  # at most every core of this machine
    # The same CPU by thread: the scanner's clock, the game loop and the OLED worker, adding up
    # to the whole; and each touch wakes the game loop at least for its press.
    by_thread = figures["cpu_ms_per_touch_by_thread"]
    assert {"clock", "game", "display"} <= set(by_thread)
    assert sum(by_thread.values()) == pytest.approx(figures["cpu_ms_per_touch"], abs=0.01)
    assert figures["wake_ups_per_touch_by_thread"]["game"] >= 1


@pytest.mark.parametrize(
    ("touch_ms", "held_percent", "within"),
    [
        (TOUCH_CPU_BUDGET_MS, HELD_CPU_BUDGET_PERCENT, (True, True)),
        (TOUCH_CPU_BUDGET_MS + 0.001, HELD_CPU_BUDGET_PERCENT + 0.001, (False, False)),
        (0.0, 0.0, (True, True)),
    ],
)
def test_the_cpu_figures_are_judged_against_their_budgets(
    touch_ms: float, held_percent: float, within: tuple[bool, bool]
) -> None:
    figures = {
        "touch_to_led_ms": {"median": 1.0, "p99": 2.0},
        "touch_to_oled_ms": {"median": 1.0},
        "oled_bytes_per_event": {"sent": 1.0, "full_frame": 10.0},
        "idle_pin_reads_per_s": 0,
        "idle_cpu_percent": 0.0,
        "cpu_ms_per_touch": touch_ms,
        "held_cpu_percent": held_percent,
        "startup_s": 0.1,
        "rss_mb": 1.0,
    }
    judged = budgets(figures, debounce_ms=30)
    assert judged["budgets"]["cpu_ms_per_touch"] == TOUCH_CPU_BUDGET_MS == 1.5
    assert judged["budgets"]["held_cpu_percent"] == HELD_CPU_BUDGET_PERCENT == 2.0
    verdicts = judged["within_budget"]
    assert (verdicts["cpu_ms_per_touch"], verdicts["held_cpu_percent"]) == within


def test_touches_events_and_bytes_add_up_across_a_new_game(tmp_path: Path) -> None:
    # A saved game two touches from its end: the table resumes it, the bench finishes it (the last
    # bystander, a clue, the assassin), holds NEW, announces a clue and touches once more.
    key = generate_key(random.Random(11))
    game = Game(key)
    while (move := next_move(game.state)) == "clue" or len(game.state.covered) < 21:
        assert move != "new"
        game.play(GiveClue(0) if move == "clue" else Touch(move))
    with GameStore(tmp_path) as store:
        game_id = store.start_game(key, game.mode)
        store.save(game_id, game, [TimedAction(action, 0.0) for action in game.applied])

    figures = measure_play(tmp_path, touches=3, paced=False, idle_s=0.1, held_s=0.05)

    # The last bystander, a clue, the assassin, a new game, a clue, a touch: six screens.
    assert figures["samples"] == {"touches": 3, "oled_events": 6}
    traffic = figures["oled_bytes_per_event"]
    assert traffic["full_frame"] == FULL_FRAME_BYTES
    assert 0 < traffic["sent"] <= traffic["full_frame"]
    assert figures["idle_pin_reads_per_s"] == 0  # an idle scanner reads no pin at all
    with GameStore(tmp_path) as store:
        assert len(store.game_ids()) == 2
        latest = store.latest_game()
        assert latest is not None
        assert [str(timed.action) for timed in latest.actions][:1] == ["clue 0"]
        assert len(latest.actions) == 2


def test_the_capacitive_backend_is_benched_the_same_way(tmp_path: Path) -> None:
    figures = measure_play(
        tmp_path, touches=3, paced=False, idle_s=0.1, backend="mpr121", held_s=0.05
    )
    assert figures["samples"]["touches"] == 3
    assert figures["cpu_ms_per_touch"] > 0 and figures["held_cpu_percent"] >= 0
    # Idle, the chips' IRQ lines stay high: no status read and no pin read.
    assert figures["idle_pin_reads_per_s"] == 0
    assert 0 < figures["touch_to_led_ms"]["median"] <= figures["touch_to_led_ms"]["p99"]
    with GameStore(tmp_path) as store:
        latest = store.latest_game()
        assert latest is not None
        assert sum(str(timed.action).startswith("touch") for timed in latest.actions) == 3


def lose_fingers(monkeypatch: pytest.MonkeyPatch, count: int) -> list[Coord]:
    """The first `count` fingers never reach the chip, as touches lost to reads stalled over
    their arrival; the list fills with the cards they were on."""
    press = VirtualTouchPanel.press_pad
    lost: list[Coord] = []

    def losing(panel: VirtualTouchPanel, coord: Coord) -> None:
        if len(lost) < count:
            lost.append(coord)
            return
        press(panel, coord)

    monkeypatch.setattr(VirtualTouchPanel, "press_pad", losing)
    return lost


def second_saved_action(state_dir: Path) -> str:
    with GameStore(state_dir) as store:
        latest = store.latest_game()
        assert latest is not None
        return str(latest.actions[1].action)


def test_a_card_the_capacitive_pads_missed_is_touched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The player lifts the finger and touches the card again instead of giving up.
    missed = lose_fingers(monkeypatch, 1)
    figures = measure_play(
        tmp_path, touches=2, paced=False, idle_s=0.1, backend="mpr121", held_s=0.05
    )
    assert len(missed) == 1
    # At least that one: on a loaded machine a finger that did reach the chip may also wait
    # past the player's patience, and be touched again as well.
    assert figures["retaps"] >= 1
    assert figures["unlit"] == 0
    assert figures["samples"]["touches"] == 2
    assert second_saved_action(tmp_path) == f"touch {missed[0]}"


def test_a_card_no_retap_lit_is_given_up_counted_and_touched_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every finger of the first touch is lost: the player gives that touch up, and the next
    # move touches the same card again.
    lost = lose_fingers(monkeypatch, bench.RETAPS + 1)
    monkeypatch.setattr(bench, "RETAP_AFTER_S", 0.2)
    monkeypatch.setattr(bench, "TIMEOUT_S", 3.0)
    figures = measure_play(
        tmp_path, touches=1, paced=False, idle_s=0.1, backend="mpr121", held_s=0.05
    )
    assert len(set(lost)) == 1
    assert len(lost) == bench.RETAPS + 1
    assert figures["unlit"] == 1
    assert figures["samples"]["touches"] == 1
    assert second_saved_action(tmp_path) == f"touch {lost[0]}"


def test_each_figure_is_the_worse_of_the_two_measures() -> None:
    first = {"cpu_ms_per_touch": 1.0, "touch_to_led_ms": {"median": 5.0, "p99": 9.0}}
    second = {"cpu_ms_per_touch": 2.0, "touch_to_led_ms": {"median": 6.0, "p99": 7.0}}
    assert worst_of([first, second]) == {
        "cpu_ms_per_touch": 2.0,
        "touch_to_led_ms": {"median": 6.0, "p99": 9.0},
    }


def test_the_glitch_run_pulses_as_asked_and_counts_cards_nobody_touched(tmp_path: Path) -> None:
    figures = measure_glitches(tmp_path, glitches=40, paced=False)
    assert figures["glitch_run"]["glitches"] == 40
    assert figures["glitch_run"]["touches"] > 0  # half the pulses came during play
    assert figures["false_guesses"] == 0
    assert figures["glitch_run"]["idle_state_changed"] is False


def test_the_bench_reads_the_services_priority_from_its_unit(tmp_path: Path) -> None:
    unit = tmp_path / "table.service"
    unit.write_text("[Service]\n# Nice=3 in a comment is no setting\nNice = -7\n", encoding="utf-8")
    assert service_nice(unit) == -7
    unit.write_text("[Service]\nType=notify\n", encoding="utf-8")
    assert service_nice(unit) == 0
    # The table's own unit raises the priority (a negative Nice=).
    assert service_nice() < 0
