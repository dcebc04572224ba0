"""What the LED key shows, sampled at chosen times: a pure function of game state and time."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board_rules.codenames import ALL_COORDS, Coord, Game, GameState, Key, Team, parse_action
from firmware.config_keys import SettingError, read
from firmware.drivers.key_picture import ALL_OFF, BLACK, KeyColours, scale
from firmware.drivers.led_layout import Light, Side
from firmware.table.cover_choice import CoverMark
from firmware.table.led_pattern import (
    CHOICE_BLINK_HZ,
    LedStyle,
    gamma_table,
    key_pattern,
    next_blink_edge,
    wiring_pattern,
)

from ..rules_helpers import KEY as RED_STARTS

BLUE_STARTS = Key.parse("BBBBB/BBBBR/RRRRR/RRNNN/NNNNA")
RED, BLUE, BYSTANDER, ASSASSIN = (Coord.parse(c) for c in ("A1", "A3", "E4", "E5"))
"""What hides at these cells when red starts; bystander and assassin are the same in both keys."""
BLUE_STARTS_BLUE, BLUE_STARTS_RED = RED, BLUE

# Default blinks: the assassin at 1 Hz, colour-blind marking at 0.5 Hz; both start high at 0.
ASSASSIN_HIGH, ASSASSIN_LOW = 0.25, 0.75
MARK_HIGH, MARK_LOW = 0.25, 1.25

STYLE = LedStyle()
times = st.floats(min_value=-1e6, max_value=1e7, allow_nan=False, allow_infinity=False)


def play(key: Key, *actions: str) -> GameState:
    game = Game(key)
    for action in actions:
        game.play(parse_action(action))
    return game.state


def level(colour: tuple[int, int, int]) -> int:
    return sum(colour)


def test_uncovered_cells_show_their_identity() -> None:
    picture = key_pattern(GameState.start(RED_STARTS), ASSASSIN_HIGH, STYLE)
    assert picture[RED] == STYLE.red
    assert picture[BLUE] == STYLE.blue
    assert picture[BYSTANDER] == STYLE.bystander
    assert picture[ASSASSIN] == STYLE.assassin
    assert {picture[c] for c in ALL_COORDS} == {
        STYLE.red,
        STYLE.blue,
        STYLE.bystander,
        STYLE.assassin,
    }


def test_bystanders_are_a_pale_warm_white_below_the_assassin() -> None:
    r, g, b = STYLE.bystander
    assert r > g > b > 0, "warm: red over green over blue, but every channel lit"
    assert r - b >= 50, "warm enough to tell from the assassin's cold white"
    assert all(c < full for c, full in zip(STYLE.bystander, STYLE.assassin, strict=True))


def test_the_assassin_blinks_between_full_and_a_lower_lit_level() -> None:
    state = GameState.start(RED_STARTS)
    high = key_pattern(state, ASSASSIN_HIGH, STYLE)[ASSASSIN]
    low = key_pattern(state, ASSASSIN_LOW, STYLE)[ASSASSIN]
    assert high == STYLE.assassin
    assert 0 < level(low) < level(high)
    # One period later it is where it was, and nothing else on the key moved.
    assert key_pattern(state, ASSASSIN_LOW + 1.0, STYLE) == key_pattern(state, ASSASSIN_LOW, STYLE)
    assert (
        key_pattern(state, ASSASSIN_HIGH, STYLE)[RED]
        == key_pattern(state, ASSASSIN_LOW, STYLE)[RED]
    )


@given(
    t=times,
    covered=st.booleans(),
    brightness=st.integers(1, 255),
    colour_blind=st.booleans(),
    gamma=st.floats(1.0, 3.0),
)
def test_the_assassin_is_never_off_at_any_time_on_the_wire(
    t: float, covered: bool, brightness: int, colour_blind: bool, gamma: float
) -> None:
    """Not in the pattern, and not after the colour curve at the lowest brightness either."""
    style = LedStyle(brightness=brightness, colour_blind=colour_blind, gamma=gamma)
    state = GameState.start(RED_STARTS)
    if covered:
        state = play(RED_STARTS, "clue 1", "touch E5")
    colour = key_pattern(state, t, style)[ASSASSIN]
    curve = gamma_table(style)
    assert max(colour) > 0
    assert max(curve[channel] for channel in colour) > 0


@pytest.mark.parametrize("t", [0.0, 0.4999999, 0.5, 0.9999999, 1.0, 1e9 + 0.5, -0.25])
def test_the_assassin_is_lit_on_and_around_blink_edges(t: float) -> None:
    colour = key_pattern(GameState.start(RED_STARTS), t, STYLE)[ASSASSIN]
    assert max(colour) > 0


@pytest.mark.parametrize("t", [ASSASSIN_HIGH, ASSASSIN_LOW])
def test_covered_cells_are_dimmer_than_uncovered_but_lit(t: float) -> None:
    before = GameState.start(RED_STARTS)
    after = before
    for coord in (RED, BLUE, BYSTANDER, ASSASSIN):
        after = after.cover(coord)
    for coord in (RED, BLUE, BYSTANDER, ASSASSIN):
        uncovered = key_pattern(before, t, STYLE)[coord]
        covered = key_pattern(after, t, STYLE)[coord]
        assert 0 < level(covered) < level(uncovered), coord
    # Covering one card dims that card only.
    changed = [
        c for c in ALL_COORDS if key_pattern(before, t, STYLE)[c] != key_pattern(after, t, STYLE)[c]
    ]
    assert changed == [RED, BLUE, BYSTANDER, ASSASSIN]


@pytest.mark.parametrize(("key", "team"), [(RED_STARTS, Team.RED), (BLUE_STARTS, Team.BLUE)])
def test_edge_lights_show_the_starting_team_all_game(key: Key, team: Team) -> None:
    expected = STYLE.team_colour(team)
    # After a turn the other team plays, but a key card's lights do not change.
    for state in (GameState.start(key), play(key, "clue 1", "touch E4")):
        for t in (ASSASSIN_HIGH, ASSASSIN_LOW, MARK_LOW):
            picture = key_pattern(state, t, STYLE)
            assert [picture[side] for side in Side] == [expected] * 4


def test_edge_lights_show_the_winner_once_the_game_is_over() -> None:
    # Red starts and touches the assassin: blue wins.
    state = play(RED_STARTS, "clue 1", "touch E5")
    assert state.is_over and state.winner is Team.BLUE
    picture = key_pattern(state, ASSASSIN_HIGH, STYLE)
    assert [picture[side] for side in Side] == [STYLE.blue] * 4


def test_colour_blind_mode_blinks_one_teams_lights_slowly() -> None:
    style = LedStyle(colour_blind=True)
    state = GameState.start(BLUE_STARTS)
    high, low = key_pattern(state, MARK_HIGH, style), key_pattern(state, MARK_LOW, style)
    assert high[BLUE_STARTS_BLUE] == style.blue
    assert 0 < level(low[BLUE_STARTS_BLUE]) < level(style.blue)
    # The edges show blue too, so they carry the marking.
    assert 0 < level(low[Side.TOP]) < level(high[Side.TOP]) == level(style.blue)
    # Red and the bystanders stay steady.
    assert low[BLUE_STARTS_RED] == high[BLUE_STARTS_RED] == style.red
    assert low[BYSTANDER] == high[BYSTANDER]
    # Slow: the same level over a whole second, half of its 2 s period.
    assert (
        key_pattern(state, 0.0, style)[BLUE_STARTS_BLUE]
        == key_pattern(state, 0.999, style)[BLUE_STARTS_BLUE]
    )


def test_colour_blind_mode_can_mark_red_instead() -> None:
    style = LedStyle(colour_blind=True, colour_blind_team=Team.RED)
    state = GameState.start(RED_STARTS)
    assert key_pattern(state, MARK_LOW, style)[RED] != key_pattern(state, MARK_HIGH, style)[RED]
    assert key_pattern(state, MARK_LOW, style)[BLUE] == key_pattern(state, MARK_HIGH, style)[BLUE]


def test_without_colour_blind_mode_only_the_assassin_changes_with_time() -> None:
    state = GameState.start(BLUE_STARTS)
    samples = [key_pattern(state, t / 10, STYLE) for t in range(40)]
    for coord in (*ALL_COORDS, *Side):
        if coord == ASSASSIN:
            continue
        assert len({picture[coord] for picture in samples}) == 1, coord


@given(t=times, colour_blind=st.booleans())
def test_the_key_holds_still_until_the_next_blink_edge(t: float, colour_blind: bool) -> None:
    style = LedStyle(colour_blind=colour_blind)
    state = GameState.start(RED_STARTS)
    edge = next_blink_edge(t, style)
    assert t < edge <= t + 0.5 + 1e-6
    before_edge = math.nextafter(edge, -math.inf)
    if before_edge >= t:
        assert key_pattern(state, before_edge, style) == key_pattern(state, t, style)
    # The assassin flips at every edge, so the picture does change there.
    assert key_pattern(state, edge, style) != key_pattern(state, t, style)


def test_next_blink_edge_on_an_edge_is_the_one_after() -> None:
    assert next_blink_edge(0.0, STYLE) == 0.5
    assert next_blink_edge(0.5, STYLE) == 1.0
    assert next_blink_edge(0.2, LedStyle(assassin_blink_hz=0.25)) == 2.0
    slow_assassin = LedStyle(assassin_blink_hz=0.25, colour_blind=True)
    assert next_blink_edge(0.2, slow_assassin) == 1.0


def test_the_pattern_is_a_pure_function() -> None:
    state = play(RED_STARTS, "clue 1", "touch A1")
    assert key_pattern(state, 12.3, STYLE) == key_pattern(state, 12.3, STYLE)


def lit_lights(picture: KeyColours) -> list[Light]:
    lights: tuple[Light, ...] = (*ALL_COORDS, *Side)
    return [light for light in lights if picture[light] != BLACK]


def test_wiring_chase_walks_the_key_in_reading_order_then_the_edges() -> None:
    assert lit_lights(wiring_pattern(0.0)) == [Coord.parse("A1")]
    assert lit_lights(wiring_pattern(0.5)) == [Coord.parse("B1")]
    assert lit_lights(wiring_pattern(0.5 * 12)) == [Coord.parse("C3")]
    assert lit_lights(wiring_pattern(0.5 * 25)) == [Side.TOP]
    assert lit_lights(wiring_pattern(0.5 * 28)) == [Side.LEFT]
    assert wiring_pattern(0.0)[Coord.parse("A1")] == (255, 0, 0)
    assert wiring_pattern(0.5 * 29)[Coord.parse("A1")] == (0, 255, 0)
    assert wiring_pattern(0.5 * 58)[Coord.parse("A1")] == (0, 0, 255)
    assert wiring_pattern(0.5 * 87)[Coord.parse("A1")] == (255, 0, 0)


def test_off_and_dimmed_pictures() -> None:
    assert lit_lights(ALL_OFF) == []
    picture = key_pattern(GameState.start(RED_STARTS), ASSASSIN_HIGH, STYLE)
    assert picture.dimmed(0.0) == ALL_OFF
    dim = picture.dimmed(0.05)
    assert len(lit_lights(dim)) == 29
    assert all(level(dim[c]) < level(picture[c]) for c in ALL_COORDS)


def test_scale_keeps_lit_channels_lit_and_dark_ones_dark() -> None:
    assert scale((255, 10, 0), 0.01) == (3, 1, 0)
    assert scale((255, 10, 0), 1.0) == (255, 10, 0)
    assert scale((255, 10, 0), 0.0) == BLACK


@pytest.mark.parametrize("brightness", [1, 40, 255])
@pytest.mark.parametrize("gamma", [1.0, 2.2, 3.0])
def test_the_colour_curve_rises_and_never_turns_a_lit_channel_off(
    brightness: int, gamma: float
) -> None:
    curve = gamma_table(LedStyle(brightness=brightness, gamma=gamma))
    assert len(curve) == 256
    assert curve[0] == 0
    assert all(1 <= value <= 255 for value in curve[1:])
    assert list(curve) == sorted(curve)


def test_the_colour_curve_at_full_brightness() -> None:
    assert gamma_table(LedStyle(gamma=1.0)) == tuple(range(256))
    curve = gamma_table(LedStyle(gamma=2.2))
    assert curve[255] == 255
    assert curve[128] == round(255 * (128 / 255) ** 2.2)  # 56: half level is a fifth of the duty
    assert gamma_table(LedStyle(gamma=1.0, brightness=128))[255] == 128


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"red": [256, 0, 0]}, "red"),
        ({"blue": [0, 0]}, "blue"),
        ({"bystander": "#fff"}, "bystander"),
        ({"assassin": [0, 0, 0]}, "assassin"),
        ({"covered_dim": 0}, "covered_dim"),
        ({"covered_dim": 1.5}, "covered_dim"),
        ({"assassin_low": 0.0}, "assassin_low"),
        ({"assassin_blink_hz": 0}, "assassin_blink_hz"),
        ({"colour_blind": "on"}, "colour_blind"),
        ({"colour_blind_team": "green"}, "colour_blind_team"),
        ({"brightness": 0}, "brightness"),
        ({"brightness": 256}, "brightness"),
        ({"brightness": 12.5}, "brightness"),
        ({"gamma": 0.5}, "gamma"),
        ({"gamma": "2.2"}, "gamma"),
        ({"colour": [1, 2, 3]}, "colour"),
    ],
)
def test_bad_style_settings_are_refused_by_name(settings: dict[str, object], key: str) -> None:
    with pytest.raises(SettingError) as caught:
        read(LedStyle, settings, "led.style")
    assert caught.value.key == f"led.style.{key}"
    assert isinstance(caught.value, ValueError)


def test_style_from_a_config_table() -> None:
    style = read(
        LedStyle,
        {"red": "#FF2000", "blue": [0, 0, 255], "colour_blind": True, "colour_blind_team": "Red"},
        "led.style",
    )
    assert style == LedStyle(
        red=(255, 32, 0), blue=(0, 0, 255), colour_blind=True, colour_blind_team=Team.RED
    )
    assert read(LedStyle, {}, "led.style") == LedStyle()


def test_a_key_picture_has_25_cells_and_4_edges() -> None:
    with pytest.raises(ValueError, match="25 cells"):
        KeyColours((BLACK,) * 24, (BLACK,) * 4)


CHOICE_HIGH, CHOICE_LOW = 0.1, 0.1 + 1 / (2 * CHOICE_BLINK_HZ)


def test_a_card_that_may_be_covered_blinks_dark_and_nothing_else_changes() -> None:
    state = play(RED_STARTS, "clue 2", "penalty")  # blue may cover one of its agents
    mark = CoverMark(BLUE, allowed=True)
    plain = key_pattern(state, CHOICE_LOW, STYLE)
    high, low = (key_pattern(state, t, STYLE, mark) for t in (CHOICE_HIGH, CHOICE_LOW))
    assert high[BLUE] == plain[BLUE] != BLACK
    assert low[BLUE] == BLACK
    others = [light for light in (*ALL_COORDS, *Side) if light != BLUE]
    assert all(low[light] == plain[light] for light in others)


def test_a_card_that_may_not_be_covered_keeps_its_colour_and_the_edges_blink() -> None:
    state = play(RED_STARTS, "clue 2", "penalty")
    mark = CoverMark(BYSTANDER, allowed=False)
    plain = key_pattern(state, CHOICE_LOW, STYLE)
    high, low = (key_pattern(state, t, STYLE, mark) for t in (CHOICE_HIGH, CHOICE_LOW))
    assert high[BYSTANDER] == low[BYSTANDER] == plain[BYSTANDER]
    assert all(high[side] == plain[side] != BLACK and low[side] == BLACK for side in Side)


@given(times)
def test_a_marked_key_holds_still_until_the_next_blink_edge(t: float) -> None:
    state = play(RED_STARTS, "clue 2", "penalty")
    mark = CoverMark(BLUE, allowed=True)
    edge = next_blink_edge(t, STYLE, marked=True)
    assert edge <= next_blink_edge(t, STYLE)
    before_edge = math.nextafter(edge, -math.inf)
    if before_edge > t:
        assert key_pattern(state, before_edge, STYLE, mark) == key_pattern(state, t, STYLE, mark)
