"""What the LED key shows: a pure function of the game state and the time, and its colour curve.

Nothing here reads a clock or touches a strip: `key_pattern(state, t, style)` is the same for the
same arguments, so every frame can be tested by sampling times, and the app decides when to draw
(`next_blink_edge` says when the picture next changes on its own).

The key card, in light:
- red and blue agents in their team's colour, bystanders a pale warm white;
- the assassin lit and blinking between full and half its level, never dark: a dark cell would
  read as "nothing here", the most dangerous mistake a spymaster could make;
- covered cells dimmed, so the spymaster still sees what was taken;
- the four edge lights in the starting team's colour, as on a key card; once the game is over
  they show the winner's colour instead, which is what the table wants to know then;
- colour-blind mode: every light in one team's colour (blue by default) also blinks slowly, so
  the teams differ by more than hue;
- during a cover, the card chosen on the table (`firmware.table.cover_choice.CoverMark`): its
  cell blinks between its colour and dark when it may be covered; when it may not, its cell
  keeps its colour and the four edge lights blink instead.

Blinks are square waves, not fades: the picture then changes only at a blink edge, and the
strip is written a few times a second instead of on every frame.

Colours here are perceptual (what a person should see). `gamma_table` turns them into the
values sent down the wire, with the brightness applied, and never rounds a lit channel to off.

The default colours are chosen by measurement (`tools.key_contrast`): every pair of cell
states a spymaster must tell apart differs by at least ΔE00 12 at every brightness level of the
table, in both palettes and, for the colour-blind one, as deuteranopes and protanopes see it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from board_rules.codenames.grid import ALL_COORDS
from board_rules.codenames.key import Identity, Team
from board_rules.codenames.state import GameState
from firmware.config_keys import FLAG, Kind, is_number, number, setting
from firmware.drivers.key_picture import BLACK, Colour, KeyColours, scale, wire_curve
from firmware.drivers.led_layout import Light, Side
from firmware.table.cover_choice import CoverMark

CHOICE_BLINK_HZ = 2.0
"""The blink of a cover's mark: quick enough to find at a glance, far below flicker."""

_HEX = re.compile(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")


def _colour(value: object) -> Colour | None:
    """A config colour, `[r, g, b]` or `"#rrggbb"`, as a colour; None if it is neither."""
    if isinstance(value, str):
        match = _HEX.fullmatch(value.strip())
        if match is None:
            return None
        red, green, blue = (int(part, 16) for part in match.groups())
        return (red, green, blue)
    if (
        isinstance(value, list)
        and len(value) == 3
        and all(type(c) is int and 0 <= c <= 255 for c in value)
    ):
        return (value[0], value[1], value[2])
    return None


_COLOUR = Kind(lambda v: _colour(v) is not None, '[r, g, b] (0–255) or "#rrggbb"', _colour)
_LIT_COLOUR = Kind(
    lambda v: _colour(v) not in (None, BLACK),
    '[r, g, b] (0–255) or "#rrggbb", lit: an unlit assassin reads as no card',
    _colour,
)
_SHARE = Kind(lambda v: is_number(v) and 0 < v <= 1, "a number above 0 up to 1", float)
_BLINK = Kind(lambda v: is_number(v) and 0 < v <= 10, "a number above 0 up to 10", float)


@dataclass(frozen=True)
class LedStyle:
    """How the key looks: colours, dimming, blink rates, brightness and gamma (`[led.style]` of
    the config, its keys declared here)."""

    red: Colour = setting((255, 0, 0), _COLOUR, "the red agents")
    blue: Colour = setting((0, 40, 255), _COLOUR, "the blue agents")
    bystander: Colour = setting((230, 200, 160), _COLOUR, "pale warm white")
    """A pale warm white, warm against the assassin's cold white and steady against its blink.
    Not dim: at the low brightness levels a dim bystander sinks towards the covered cells, and
    to protanopes and deuteranopes a dim warm colour looks like the red agents (both a dark
    olive to them); a pale one stands apart from both by lightness and by its lack of colour."""
    assassin: Colour = setting((255, 255, 255), _LIT_COLOUR, "lit and blinking, never off")
    """Cold white at full: apart from the warm, dim bystanders by hue, level and blinking."""
    covered_dim: float = setting(0.2, _SHARE, "share of its colour a covered cell keeps")
    """Share of its colour a covered cell keeps (perceptual, before gamma)."""
    assassin_blink_hz: float = setting(1.0, _BLINK, "blinks a second")
    assassin_low: float = setting(
        0.5, _SHARE, "share of its colour the assassin keeps in the low half of a blink"
    )
    """Share of its colour the assassin keeps in the low half of its blink; never 0. Half, so
    that at the dimmest level the low half is still plainly lit rather than a glimmer."""
    colour_blind: bool = setting(
        False,
        FLAG,
        """true: one team's lights also blink slowly (also in the menu, which saves its choice
        of palette and team over these two)""",
    )
    colour_blind_team: Team = setting(
        Team.BLUE,
        Kind(
            lambda v: isinstance(v, str) and v.strip().lower() in ("red", "blue"),
            "red or blue",
            lambda v: Team(v.strip().lower()),
        ),
        "the team whose lights blink: red or blue",
    )
    colour_blind_blink_hz: float = setting(0.5, _BLINK, "blinks a second")
    colour_blind_low: float = setting(
        0.3, _SHARE, "share of its colour a blinking light keeps in the low half"
    )
    brightness: int = 255
    """Overall level, 1–255, applied before gamma; the strip itself stays at full (not a key:
    `[table] brightness` sets it)."""
    gamma: float = setting(2.2, number(1, 3, "a number"), "1.0 turns the correction off")
    """Exponent from perceptual level to LED duty; 1 turns the correction off."""

    def identity_colour(self, identity: Identity) -> Colour:
        """The full colour of a cell hiding `identity`."""
        return {
            Identity.RED: self.red,
            Identity.BLUE: self.blue,
            Identity.BYSTANDER: self.bystander,
            Identity.ASSASSIN: self.assassin,
        }[identity]

    def team_colour(self, team: Team) -> Colour:
        """The colour of `team`'s agents."""
        return self.identity_colour(Identity.of_team(team))


_SIDES = tuple(Side)


def key_pattern(
    state: GameState, t: float, style: LedStyle, mark: CoverMark | None = None
) -> KeyColours:
    """The spymasters' key for `state` at time `t` (seconds, any monotonic origin), with the card
    chosen for a cover marked."""
    palette = _palette(
        style, _high(t, style.assassin_blink_hz), _high(t, style.colour_blind_blink_hz)
    )
    mark_dark = mark is not None and not _high(t, CHOICE_BLINK_HZ)
    dark_edge = mark_dark and mark is not None and not mark.allowed
    dark_cell = mark.card.index if mark_dark and mark is not None and mark.allowed else None
    # The cells are walked by index, not by coordinate (the CPU a touch costs).
    covered = {coord.index for coord in state.covered}
    cells = tuple(
        BLACK
        if index == dark_cell
        else palette.covered[identity]
        if index in covered
        else palette.open[identity]
        for index, identity in enumerate(state.key.identities)
    )
    team = state.key.starting_team
    if state.is_over and state.winner is not None:
        team = state.winner
    edge = BLACK if dark_edge else palette.edges[team]
    return KeyColours(cells, (edge,) * len(_SIDES))


@dataclass(frozen=True)
class _Palette:
    """Every colour of the key at one moment of its blinks: at most 8 for the cells, one edge."""

    open: Mapping[Identity, Colour]
    covered: Mapping[Identity, Colour]
    edges: Mapping[Team, Colour]


@functools.lru_cache(maxsize=16)
def _palette(style: LedStyle, assassin_high: bool, marked_high: bool) -> _Palette:
    # Worked out once for each look and blink phase: a key is drawn on every touch and blink.
    assassin_level = 1.0 if assassin_high else style.assassin_low
    marked_level = 1.0 if marked_high else style.colour_blind_low

    def team_level(team: Team | None) -> float:
        marked = style.colour_blind and team is style.colour_blind_team
        return marked_level if marked else 1.0

    def cell_colour(identity: Identity, covered: bool) -> Colour:
        factor = team_level(identity.team)
        if identity is Identity.ASSASSIN:
            factor *= assassin_level
        if covered:
            factor *= style.covered_dim
        return scale(style.identity_colour(identity), factor)

    return _Palette(
        open={identity: cell_colour(identity, False) for identity in Identity},
        covered={identity: cell_colour(identity, True) for identity in Identity},
        edges={team: scale(style.team_colour(team), team_level(team)) for team in Team},
    )


def next_blink_edge(t: float, style: LedStyle, marked: bool = False) -> float:
    """The first time after `t` at which `key_pattern` may change with the state unchanged (and
    a cover's mark shown, when `marked`).

    The app can sleep until then (`Clock.call_later`) instead of redrawing on a timer.
    """
    rates = [style.assassin_blink_hz]
    if style.colour_blind:
        rates.append(style.colour_blind_blink_hz)
    if marked:
        rates.append(CHOICE_BLINK_HZ)
    return min(_next_edge(t, hz) for hz in rates)


def wiring_pattern(t: float, step: float = 0.5) -> KeyColours:
    """A chase for checking a build: one light at a time, A1 to E5 then top, right, bottom,
    left, each `step` seconds; the passes go red, green, blue, so that a strip with its colour
    channels swapped shows at once."""
    lights: tuple[Light, ...] = (*ALL_COORDS, *_SIDES)
    steps = math.floor(t / step)
    lit = lights[steps % len(lights)]
    colour = ((255, 0, 0), (0, 255, 0), (0, 0, 255))[(steps // len(lights)) % 3]
    return KeyColours.build(lambda light: colour if light == lit else BLACK)


def gamma_table(style: LedStyle) -> tuple[int, ...]:
    """The wire value of each perceptual channel value 0–255 in `style`: its brightness, then
    its gamma (`key_picture.wire_curve`).

    >>> table = gamma_table(LedStyle(brightness=20))
    >>> table[0], table[1], table[255]
    (0, 1, 1)
    """
    return wire_curve(style.brightness, style.gamma)


def _high(t: float, hz: float) -> bool:
    """True in the first half of each period of a square wave starting at t = 0."""
    return math.floor(t * 2 * hz) % 2 == 0


def _next_edge(t: float, hz: float) -> float:
    half_periods = 2 * hz
    return (math.floor(t * half_periods) + 1) / half_periods
