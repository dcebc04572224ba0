"""`make bench`'s capacitive run in a tiny configuration: the shape of its figures, the games'
touches taken from fingers coming down onto the cards, and no card covered by a hand reached
over it. Nothing here times anything: the figures are read in `make bench`."""

from pathlib import Path

from firmware.table.store import GameStore
from tools.bench_touch_pads import LED_MEDIAN_BUDGET_MS, measure_touch_pads, with_touch_pads

REACH_S = 0.4
"""A hand reached over a card: its rise slows into its rest far from a finger's, and the rule
keeps it out however the loaded machine spaces the reads. A swing in 0.1 s to 10 mm is the
rule's close call, which a rare draw of noise and late reads lets count (the developers' guide):
`make touch-rule-rates` counts those over seeds, and `make bench` includes them."""


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
