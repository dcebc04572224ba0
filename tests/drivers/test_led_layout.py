"""The coordinate → pixel map of the LED key, against hand-drawn wiring charts of real builds."""

from __future__ import annotations

import itertools

import pytest

from board_rules.codenames import ALL_COORDS, Coord
from firmware.config_keys import SettingError, read
from firmware.drivers.led_layout import LedLayout, Side


def chart(layout: LedLayout) -> list[list[int]]:
    """The pixel index of each cell, drawn as the table is seen: rows 1–5, columns A–E."""
    return [[layout.index(Coord(row, column)) for column in range(5)] for row in range(5)]


def edges(layout: LedLayout) -> dict[Side, int]:
    return {side: layout.edge_index(side) for side in Side}


# Each chart was drawn by following the strip by hand on paper, not from the code.
CHARTS = {
    LedLayout(): (
        [
            [0, 1, 2, 3, 4],
            [9, 8, 7, 6, 5],
            [10, 11, 12, 13, 14],
            [19, 18, 17, 16, 15],
            [20, 21, 22, 23, 24],
        ],
        {Side.TOP: 25, Side.RIGHT: 26, Side.BOTTOM: 27, Side.LEFT: 28},
    ),
    LedLayout(rotation=90): (
        [
            [20, 19, 10, 9, 0],
            [21, 18, 11, 8, 1],
            [22, 17, 12, 7, 2],
            [23, 16, 13, 6, 3],
            [24, 15, 14, 5, 4],
        ],
        {Side.RIGHT: 25, Side.BOTTOM: 26, Side.LEFT: 27, Side.TOP: 28},
    ),
    LedLayout(rotation=180): (
        [
            [24, 23, 22, 21, 20],
            [15, 16, 17, 18, 19],
            [14, 13, 12, 11, 10],
            [5, 6, 7, 8, 9],
            [4, 3, 2, 1, 0],
        ],
        {Side.BOTTOM: 25, Side.LEFT: 26, Side.TOP: 27, Side.RIGHT: 28},
    ),
    LedLayout(rotation=270): (
        [
            [4, 5, 14, 15, 24],
            [3, 6, 13, 16, 23],
            [2, 7, 12, 17, 22],
            [1, 8, 11, 18, 21],
            [0, 9, 10, 19, 20],
        ],
        {Side.LEFT: 25, Side.TOP: 26, Side.RIGHT: 27, Side.BOTTOM: 28},
    ),
    LedLayout(mirror=True): (
        [
            [4, 3, 2, 1, 0],
            [5, 6, 7, 8, 9],
            [14, 13, 12, 11, 10],
            [15, 16, 17, 18, 19],
            [24, 23, 22, 21, 20],
        ],
        {Side.TOP: 25, Side.LEFT: 26, Side.BOTTOM: 27, Side.RIGHT: 28},
    ),
    LedLayout(mirror=True, rotation=90): (
        [
            [24, 15, 14, 5, 4],
            [23, 16, 13, 6, 3],
            [22, 17, 12, 7, 2],
            [21, 18, 11, 8, 1],
            [20, 19, 10, 9, 0],
        ],
        {Side.RIGHT: 25, Side.TOP: 26, Side.LEFT: 27, Side.BOTTOM: 28},
    ),
    LedLayout(serpentine=False): (
        [
            [0, 1, 2, 3, 4],
            [5, 6, 7, 8, 9],
            [10, 11, 12, 13, 14],
            [15, 16, 17, 18, 19],
            [20, 21, 22, 23, 24],
        ],
        {Side.TOP: 25, Side.RIGHT: 26, Side.BOTTOM: 27, Side.LEFT: 28},
    ),
    LedLayout(serpentine=False, rotation=90): (
        [
            [20, 15, 10, 5, 0],
            [21, 16, 11, 6, 1],
            [22, 17, 12, 7, 2],
            [23, 18, 13, 8, 3],
            [24, 19, 14, 9, 4],
        ],
        {Side.RIGHT: 25, Side.BOTTOM: 26, Side.LEFT: 27, Side.TOP: 28},
    ),
}


@pytest.mark.parametrize("layout", list(CHARTS), ids=repr)
def test_layout_matches_its_wiring_chart(layout: LedLayout) -> None:
    cells, sides = CHARTS[layout]
    assert chart(layout) == cells
    assert edges(layout) == sides


def test_default_is_the_reference_build() -> None:
    """Pixel 0 at A1, serpentine rows, then the edge lights top, right, bottom, left."""
    layout = LedLayout()
    order = layout.wire_order()
    assert [str(light) for light in order[:10]] == [
        "A1", "B1", "C1", "D1", "E1", "E2", "D2", "C2", "B2", "A2",
    ]  # fmt: skip
    assert order[25:] == (Side.TOP, Side.RIGHT, Side.BOTTOM, Side.LEFT)
    assert layout.pixel_count == 29


@pytest.mark.parametrize(
    ("serpentine", "rotation", "mirror", "offset"),
    list(itertools.product((True, False), (0, 90, 180, 270), (False, True), (0, 2))),
)
def test_every_layout_puts_each_light_on_exactly_one_pixel(
    serpentine: bool, rotation: int, mirror: bool, offset: int
) -> None:
    layout = LedLayout(serpentine=serpentine, rotation=rotation, mirror=mirror, offset=offset)
    order = layout.wire_order()
    assert len(order) == layout.pixel_count == 29 + offset
    assert order[:offset] == (None,) * offset
    assert set(order[offset:]) == set(ALL_COORDS) | set(Side)
    for index, light in enumerate(order):
        if isinstance(light, Coord):
            assert layout.index(light) == index
        elif isinstance(light, Side):
            assert layout.edge_index(light) == index


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_chain_neighbours_are_table_neighbours_on_a_serpentine_board(rotation: int) -> None:
    """A strip laid in one piece has no jumps: consecutive cells always touch."""
    order = LedLayout(rotation=rotation).wire_order()[:25]
    for a, b in itertools.pairwise(order):
        assert isinstance(a, Coord) and isinstance(b, Coord)
        assert abs(a.row - b.row) + abs(a.column - b.column) == 1, (a, b)


def test_offset_keeps_leading_pixels_dark_and_shifts_the_key() -> None:
    layout = LedLayout(offset=1)
    assert layout.wire_order()[0] is None
    assert layout.index(Coord.parse("A1")) == 1
    assert layout.edge_index(Side.LEFT) == 29
    assert layout.pixel_count == 30


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"rotation": 45}, "rotation"),
        ({"rotation": "90"}, "rotation"),
        ({"rotation": True}, "rotation"),
        ({"rotation": -90}, "rotation"),
        ({"serpentine": "yes"}, "serpentine"),
        ({"mirror": 1}, "mirror"),
        ({"offset": -1}, "offset"),
        ({"offset": 1.5}, "offset"),
        ({"rotate": 90}, "rotate"),
    ],
)
def test_bad_settings_are_refused_by_name(settings: dict[str, object], key: str) -> None:
    with pytest.raises(SettingError) as caught:
        read(LedLayout, settings, "led.layout")
    assert caught.value.key == f"led.layout.{key}"
    assert str(caught.value).startswith(f"led.layout.{key}: ")
    assert isinstance(caught.value, ValueError)


def test_settings_from_a_config_table() -> None:
    layout = read(LedLayout, {"rotation": 180, "mirror": True, "serpentine": False}, "led")
    assert layout == LedLayout(serpentine=False, rotation=180, mirror=True)
    assert read(LedLayout, {}, "led") == LedLayout()
