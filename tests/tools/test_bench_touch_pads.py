"""`make bench`'s capacitive run in a small configuration (3 touches, 3 hands): the form of
its figures, each game's touches taken from fingers coming down onto the cards, and no card
guessed because of a hand held over it. This module measures no times; `make bench` reports the
figures."""

from pathlib import Path

from firmware.table.store import GameStore
from tools.bench_touch_pads import LED_MEDIAN_BUDGET_MS, measure_touch_pads, with_touch_pads

REACH_S = 0.8
"""How long each hand takes to come to rest over its card: a slow reach, whose rise slows into
its rest unlike a finger's. Beside three busy loops the rule took 0 of 300 hands brought to
10 mm in 0.4 s for a touch (95 % interval 0–1.3 %); a slower reach rises more gently still.
A hand brought there in 0.1 s is one of the rule's close calls, taken for a touch 2 times in
820 (the developers' guide): `make touch-rule-rates` measures those over seeds, and
`make bench` includes three."""


def test_fingers_are_timed_from_the_card_and_hovering_hands_cover_nothing(tmp_path: Path) -> None:
    figures = measure_touch_pads(tmp_path, touches=3, paced=False, hovers=3, durations_s=(REACH_S,))
    assert figures["samples_mpr121"] == {"touches": 3}
    led = figures["touch_to_led_ms_mpr121"]
    assert led["median"] <= led["p99"]
    assert figures["hover_run_mpr121"]["hovers"] == 3
    assert figures["hover_run_mpr121"]["durations_s"] == [REACH_S]
    assert figures["false_guesses_mpr121"] == 0
    with GameStore(tmp_path) as store:
        latest = store.latest_game()
        assert latest is not None
        assert sum(str(timed.action).startswith("touch") for timed in latest.actions) >= 3


def test_the_run_adds_its_budgets_beside_the_benchs() -> None:
    figures = {"budgets": {"rss_mb": 60.0}, "within_budget": {"rss_mb": True}}
    with_touch_pads(figures, touches=1, paced=False, hovers=1)
    assert figures["budgets"]["touch_to_led_ms_mpr121_median"] == LED_MEDIAN_BUDGET_MS == 20.0
    assert figures["budgets"]["false_guesses_mpr121"] == 0
    assert set(figures["within_budget"]) == set(figures["budgets"])
    assert figures["within_budget"]["false_guesses_mpr121"] is (
        figures["false_guesses_mpr121"] == 0
    )
