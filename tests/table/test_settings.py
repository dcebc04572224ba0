"""The menu's settings as saved: every one comes back as it was, and a stale value is ignored."""

import pytest

from board_rules.codenames import Mode, Team
from firmware.table.settings import TableSettings


def test_every_setting_comes_back_from_its_saved_values() -> None:
    chosen = TableSettings(
        mode=Mode.COOP,
        language="it",
        brightness=1,
        timer_s=90,
        strict=True,
        timer_autostart=True,
        colour_blind=Team.RED,
    )
    saved = chosen.to_saved()
    assert saved["colour_blind"] == "red"
    assert TableSettings().with_saved(saved) == chosen
    assert TableSettings(colour_blind=Team.BLUE).with_saved({"colour_blind": None}) == (
        TableSettings()
    )


@pytest.mark.parametrize(
    "saved",
    [{"colour_blind": "green"}, {"colour_blind": True}, {"timer_autostart": "yes"}],
)
def test_a_saved_value_the_menu_does_not_offer_is_ignored(saved: dict[str, object]) -> None:
    assert TableSettings().with_saved(saved) == TableSettings()
