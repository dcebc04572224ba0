"""The colour maths against published reference values."""

from __future__ import annotations

import pytest

from tools.colour_vision import (
    DEUTERANOPIA,
    PROTANOPIA,
    WHITE,
    apply,
    ciede2000,
    lab,
    srgb_to_linear,
)

# Sharma, Wu and Dalal (2005), table 1: L*, a*, b* of each pair and the ΔE00 between them.
SHARMA_2005 = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA_2005)
def test_ciede2000_matches_sharma_wu_dalal_2005(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)
    # The formula is symmetric in its two colours (pairs 7 and 8 of the table show it too).
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=5e-5)


def test_the_same_colour_differs_by_nothing() -> None:
    assert ciede2000((40.0, 20.0, -10.0), (40.0, 20.0, -10.0)) == 0.0


# CIELAB of sRGB colours, D65, as colour calculators and the sRGB literature give them.
@pytest.mark.parametrize(
    ("srgb", "expected"),
    [
        ((255, 255, 255), (100.0, 0.0, 0.0)),
        ((0, 0, 0), (0.0, 0.0, 0.0)),
        ((255, 0, 0), (53.24, 80.09, 67.20)),
        ((0, 255, 0), (87.73, -86.18, 83.18)),
        ((0, 0, 255), (32.30, 79.19, -107.86)),
        ((128, 128, 128), (53.59, 0.0, 0.0)),
        ((255, 255, 0), (97.14, -21.55, 94.48)),
    ],
)
def test_srgb_colours_to_lab(
    srgb: tuple[int, int, int], expected: tuple[float, float, float]
) -> None:
    r, g, b = (srgb_to_linear(v) for v in srgb)
    assert lab((r, g, b)) == pytest.approx(expected, abs=0.03)


def test_the_white_point_is_full_white_which_is_d65() -> None:
    assert pytest.approx((0.95047, 1.0, 1.08883), abs=2e-4) == WHITE


def test_srgb_decoding_has_its_linear_toe() -> None:
    assert srgb_to_linear(0) == 0.0
    assert srgb_to_linear(10) == pytest.approx(10 / 255 / 12.92)
    assert srgb_to_linear(255) == 1.0


@pytest.mark.parametrize("matrix", [PROTANOPIA, DEUTERANOPIA])
def test_dichromats_lose_the_red_green_axis_and_keep_blue_yellow(
    matrix: tuple[tuple[float, float, float], ...],
) -> None:
    # Machado et al. normalise each matrix so that white, and so every grey, stays as it is.
    assert apply(matrix, (1.0, 1.0, 1.0)) == pytest.approx((1.0, 1.0, 1.0), abs=1e-3)
    assert apply(matrix, (0.2, 0.2, 0.2)) == pytest.approx((0.2, 0.2, 0.2), abs=1e-3)
    for primary in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):
        _, a_seen, b_seen = lab(apply(matrix, primary))
        _, a_trichromat, _ = lab(primary)
        assert abs(a_seen) < 10
        assert abs(a_trichromat) > 80
        assert b_seen > 45  # red and green both look yellowish
    _, _, b_blue = lab(apply(matrix, (0.0, 0.0, 1.0)))
    assert b_blue < -85


def test_a_protanope_sees_red_darker_than_a_deuteranope_does() -> None:
    # Without long-wavelength cones, red light loses most of its brightness.
    red = (1.0, 0.0, 0.0)
    protan, deutan, trichromat = (
        lab(apply(PROTANOPIA, red))[0],
        lab(apply(DEUTERANOPIA, red))[0],
        lab(red)[0],
    )
    assert protan < trichromat - 10
    assert deutan > protan + 15


def test_simulated_colours_are_clipped_to_what_light_can_show() -> None:
    # A protanope's pure blue needs a little negative red.
    assert min(apply(PROTANOPIA, (0.0, 0.0, 1.0))) == 0.0
    assert max(apply(DEUTERANOPIA, (0.0, 1.0, 0.0))) <= 1.0
