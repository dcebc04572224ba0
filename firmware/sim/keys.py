"""The simulation's keyboard: which key presses which switch of the table, and for how long.

Keyboard presses have no key-up in a terminal: a key is a short press, Shift with the key a long
one (held past its hold time); with the mouse a switch stays down as long as the button does.
Cards are typed by their coordinate (`c3`, then Enter). The bindings name actions of `SimApp`;
their descriptions are in the table's language (`firmware.sim.texts`).
"""

from __future__ import annotations

from gettext import GNUTranslations
from typing import Final

from textual.binding import Binding, BindingsMap, BindingType

from firmware.drivers.console import DEFAULT_HOLDS, PUSH_HOLD_S
from firmware.drivers.events import ConsoleButton
from firmware.sim import texts as t
from firmware.sim.fingers import EncoderPush
from firmware.sim.widgets import BUTTON_LABELS
from firmware.virtual.table import PRESS_S

HOLD_MARGIN_S: Final = 0.3
"""A long press lasts this much beyond its hold time, as a finger that makes sure."""

BUTTON_KEYS: Final = {
    ConsoleButton.DONE: "s",
    ConsoleButton.PENALTY: "p",
    ConsoleButton.UNDO: "u",
    ConsoleButton.NEW: "n",
    ConsoleButton.TIMER: "t",
}
"""The key of each console button; with Shift it is held. DONE is `s`, for stop: the letters
a–e are the columns of the card coordinates."""


LED_POWER_KEY: Final = "l"
"""Cuts the LED key's supply, or brings it back (`SimApp.action_led_power`)."""


def console_bindings(catalog: GNUTranslations) -> list[BindingType]:
    """Every key of the simulation, in the order the footer shows them, described in `catalog`'s
    language (the console's buttons keep the names printed on them)."""

    def _(message: str, **fields: object) -> str:
        return t.sim_text(catalog, message, **fields)

    encoder = Binding.Group(_(t.ENCODER))
    bindings: list[BindingType] = [
        Binding("enter", "enter_card", _(t.CARD_KEY), key_display="c3 ⏎"),
        *(Binding(key, f"card_key('{key}')", show=False) for key in "abcde12345"),
        Binding("backspace", "card_key('back')", show=False),
        Binding("escape", "card_key('clear')", show=False),
        Binding("minus", "turn(-1)", _(t.ENCODER_DOWN), key_display="-", group=encoder),
        Binding("plus,equals_sign", "turn(1)", _(t.ENCODER_UP), key_display="+", group=encoder),
        Binding("space", "push(False)", _(t.PUSH)),
        Binding("m", "push(True)", _(t.MENU)),
    ]
    for button, key in BUTTON_KEYS.items():
        group = Binding.Group(BUTTON_LABELS[button])
        name = button.value
        label = BUTTON_LABELS[button]
        bindings.append(Binding(key, f"button('{name}', False)", label, group=group))
        bindings.append(
            Binding(
                f"{key.upper()},shift+{key}",
                f"button('{name}', True)",
                _(t.HOLD, button=label),
                group=group,
            )
        )
    bindings.append(Binding("k", "spymaster", _(t.SPYMASTER)))
    # A fault to try, as staff meet it: the key goes dark and the OLED says why. The footer
    # has no room left at the window's least width: the LED panel shows this key instead.
    bindings.append(Binding(LED_POWER_KEY, "led_power", _(t.LED_POWER), show=False))
    bindings.append(Binding("q", "quit", _(t.QUIT)))
    return bindings


def describe_keys(bindings: BindingsMap, catalog: GNUTranslations) -> None:
    """Describe each key of `bindings` (an app's own) in `catalog`'s language, key for key."""
    # Textual has no public way to describe a key anew: the bindings of each key are replaced.
    bindings.key_to_bindings.update(BindingsMap(console_bindings(catalog)).key_to_bindings)


def press_time(switch: ConsoleButton | EncoderPush, long: bool) -> float:
    """How long a key holds `switch` down: a short press, or past the switch's hold time."""
    if not long:
        return PRESS_S
    hold_s = PUSH_HOLD_S if switch is EncoderPush.PUSH else DEFAULT_HOLDS.get(switch, 1.0)
    return hold_s + HOLD_MARGIN_S
