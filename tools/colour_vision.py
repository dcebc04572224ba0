"""How a colour is seen: linear light to CIELAB, the CIEDE2000 difference, and colour blindness.

The LED key is judged by what a spymaster perceives, not by the numbers on the wire. The pieces:

- `srgb_to_linear`: an sRGB-encoded value (a screen colour) to linear light, for checking the
  maths against published sRGB figures. An LED's PWM duty is already linear light, so wire
  values go straight to `lab` as value / 255.
- `lab`: linear RGB through the sRGB (ITU-R BT.709) primaries to CIE XYZ, then CIELAB with the
  XYZ of full white (linear 1, 1, 1; practically D65) as the white point.
- `ciede2000`: the CIE 2000 colour difference, as written out by Sharma, Wu and Dalal, "The
  CIEDE2000 color-difference formula: implementation notes, supplementary test data, and
  mathematical observations", Color Research & Application 30(1), 2005.
- `PROTANOPIA`, `DEUTERANOPIA`: what a dichromat sees, as linear-RGB matrices.

>>> [round(v, 2) for v in lab((1.0, 1.0, 1.0))]
[100.0, 0.0, 0.0]
>>> round(ciede2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)), 4)
27.1492
"""

from __future__ import annotations

import math

Linear = tuple[float, float, float]
"""Red, green and blue as linear light, 0 (off) to 1 (full)."""
Lab = tuple[float, float, float]
"""CIE L*, a*, b*."""
Matrix = tuple[Linear, Linear, Linear]

SRGB_TO_XYZ: Matrix = (
    (0.4124, 0.3576, 0.1805),
    (0.2126, 0.7152, 0.0722),
    (0.0193, 0.1192, 0.9505),
)
"""Linear sRGB (BT.709 primaries, D65 white) to CIE XYZ, as IEC 61966-2-1 gives it."""

# Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE Transactions on Visualization and Computer Graphics 15(6), 2009: the matrices
# for severity 1.0 from the authors' table of precomputed matrices. They act on linear RGB.
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
"""Linear RGB as a protanope (no long-wavelength cones) sees it; Machado et al. 2009, 1.0."""
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
"""Linear RGB as a deuteranope (no middle-wavelength cones) sees it; Machado et al. 2009, 1.0."""


def srgb_to_linear(value: int) -> float:
    """Linear light of an sRGB-encoded channel value 0–255 (IEC 61966-2-1)."""
    v = value / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def apply(matrix: Matrix, rgb: Linear) -> Linear:
    """`matrix` times `rgb`, clipped to 0–1: a simulated colour outside what light can show is
    shown as the nearest it can."""
    r, g, b = (min(1.0, max(0.0, value)) for value in _product(matrix, rgb))
    return (r, g, b)


def _product(matrix: Matrix, rgb: Linear) -> Linear:
    x, y, z = (sum(m * c for m, c in zip(row, rgb, strict=True)) for row in matrix)
    return (x, y, z)


WHITE = _product(SRGB_TO_XYZ, (1.0, 1.0, 1.0))
"""The white point: every channel at full."""

_EPSILON = (6 / 29) ** 3
_KAPPA = (29 / 3) ** 3


def _f(t: float) -> float:
    return t ** (1 / 3) if t > _EPSILON else (_KAPPA * t + 16) / 116


def lab(rgb: Linear) -> Lab:
    """CIELAB of linear RGB, relative to `WHITE`."""
    fx, fy, fz = (_f(c / w) for c, w in zip(_product(SRGB_TO_XYZ, rgb), WHITE, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """ΔE00 between two CIELAB colours, with the parametric factors kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = _hue(a1p, b1), _hue(a2p, b2)

    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh_angle = 0.0
    else:
        dh_angle = h2p - h1p
        if dh_angle > 180:
            dh_angle -= 360
        elif dh_angle < -180:
            dh_angle += 360
    dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh_angle / 2))

    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_mean = (h1p + h2p + 360) / 2
    else:
        hp_mean = (h1p + h2p - 360) / 2

    t = (
        1
        - 0.17 * math.cos(math.radians(hp_mean - 30))
        + 0.24 * math.cos(math.radians(2 * hp_mean))
        + 0.32 * math.cos(math.radians(3 * hp_mean + 6))
        - 0.20 * math.cos(math.radians(4 * hp_mean - 63))
    )
    d_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh / s_h) ** 2 + r_t * (dc / s_c) * (dh / s_h)
    )


def _hue(a: float, b: float) -> float:
    """Hue angle in degrees, 0–360; 0 for a grey, as Sharma et al. specify."""
    if a == 0 and b == 0:
        return 0.0
    return math.degrees(math.atan2(b, a)) % 360


__all__ = [
    "DEUTERANOPIA",
    "PROTANOPIA",
    "SRGB_TO_XYZ",
    "WHITE",
    "Lab",
    "Linear",
    "Matrix",
    "apply",
    "ciede2000",
    "lab",
    "srgb_to_linear",
]
