"""The simulation window's own texts speak the table's language, through Textual's pilot.

Panel titles, the console's help lines, the input line, the footer's keys, the size message and
what `q` leaves on the terminal come from the table's catalogs, in the language given with
`--lang` (or the config), and follow the menu when it changes the language.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Static

from firmware.sim.app import SimApp

from ..pilot_waits import wait_until
from .test_sim_app import SIZE, drive, keys, make_app

# Each language's words for a few of the window's texts, written out here so that a catalog
# that lost its translation (or a text the window forgot to translate) shows up.
EXPECTED: dict[str, dict[str, Any]] = {
    "en": {
        "titles": ["Cards", "LED key", "OLED", "Console"],
        "long": "Shift+key, or mouse held: long press",
        "entry": "Card: type c3 ⏎",
        "typed": "Card: C▏ ⏎ presses it",
        "events": "Input: none yet",
        "pushed": "Input: Knob pushed",
        "spymaster": "spymaster view",
        "keys": {"q": "quit", "space": "push", "m": "menu", "k": "spymaster", "enter": "card"},
        "hold": "hold UNDO",
        "small": "The table needs a window of 120 × 38 characters; this one is 100 × 30.",
        "saved": "The game is saved in ",
    },
    "es": {
        "titles": ["Cartas", "Clave LED", "OLED", "Consola"],
        "long": "Mantén pulsado: Mayús+tecla o ratón",
        "entry": "Carta: escribe c3 ⏎",
        "typed": "Carta: C▏ ⏎ la pulsa",
        "events": "Entradas: ninguna aún",
        "pushed": "Entradas: Mando pulsado",
        "spymaster": "vista del jefe de espías",
        "keys": {"q": "salir", "space": "pulsar", "m": "menú", "k": "clave"},
        "hold": "mantener UNDO",
        "small": "La mesa necesita una ventana de 120 × 38 caracteres; esta tiene 100 × 30.",
        "saved": "La partida está guardada en ",
    },
    "pt": {
        "titles": ["Cartas", "Chave LED", "OLED", "Consola"],
        "long": "Manter premido: Shift+tecla ou rato",
        "entry": "Carta: escreva c3 ⏎",
        "typed": "Carta: C▏ ⏎ prime-a",
        "events": "Entradas: ainda nenhuma",
        "pushed": "Entradas: Botão premido",
        "spymaster": "vista do espião mestre",
        "keys": {"q": "sair", "space": "premir", "m": "menu", "k": "chave"},
        "hold": "manter UNDO",
        "small": "A mesa precisa de uma janela de 120 × 38 caracteres; esta tem 100 × 30.",
        "saved": "O jogo está gravado em ",
    },
    "it": {
        "titles": ["Carte", "Chiave LED", "OLED", "Console"],
        "long": "Tieni premuto: Maiusc+tasto o mouse",
        "entry": "Carta: scrivi c3 ⏎",
        "typed": "Carta: C▏ ⏎ la preme",
        "events": "Ingressi: ancora nessuno",
        "pushed": "Ingressi: Manopola premuta",
        "spymaster": "vista del capo dell'agenzia",
        "keys": {"q": "esci", "space": "premi", "m": "menu", "k": "chiave"},
        "hold": "tieni UNDO",
        "small": "Il tavolo ha bisogno di una finestra di 120 × 38 caratteri; questa è 100 × 30.",
        "saved": "La partita è salvata in ",
    },
}
PANELS = ("#cards-panel", "#led-panel", "#oled-panel", "#console-panel")


def line(app: SimApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def titles(app: SimApp) -> list[str]:
    return [str(app.query_one(panel).border_title) for panel in PANELS]


def footer_keys(app: SimApp) -> dict[str, str]:
    """Each key's description as the footer shows it."""
    return {key: active.binding.description for key, active in app.active_bindings.items()}


@pytest.mark.parametrize("language", list(EXPECTED))
def test_the_window_speaks_the_language_of_the_table(tmp_path: Path, language: str) -> None:
    expected = EXPECTED[language]
    state_dir = tmp_path / "state"

    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert titles(app) == expected["titles"]
        assert line(app, "#long-press") == expected["long"]
        assert line(app, "#entry") == expected["entry"]
        assert line(app, "#events") == expected["events"]
        assert footer_keys(app).items() >= expected["keys"].items()
        assert footer_keys(app)["U"] == expected["hold"]
        await keys(pilot, app, "c")
        assert line(app, "#entry") == expected["typed"]
        await keys(pilot, app, "escape", "space")
        assert line(app, "#events") == expected["pushed"]
        await keys(pilot, app, "k")
        assert app.query_one("#cards-panel").border_subtitle == expected["spymaster"]
        await pilot.press("q")
        await pilot.pause()

    app = make_app(state_dir, language=language)
    drive(app, scenario)
    assert app.goodbye.startswith(f"{expected['saved']}{state_dir}")


@pytest.mark.parametrize("language", list(EXPECTED))
def test_a_window_too_small_says_so_in_the_language_of_the_table(
    tmp_path: Path, language: str
) -> None:
    async def main() -> None:
        app = make_app(tmp_path, language=language)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert line(app, "#too-small").startswith(EXPECTED[language]["small"])

    asyncio.run(main())


@pytest.mark.parametrize("language", list(EXPECTED))
def test_the_console_lines_fit_the_console_in_every_language(tmp_path: Path, language: str) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        for selector in ("#long-press", "#entry"):
            room = app.query_one(selector).content_region.width
            assert cell_len(line(app, selector)) <= room, (language, line(app, selector))
        await keys(pilot, app, "c", "3")
        assert cell_len(line(app, "#entry")) <= app.query_one("#entry").content_region.width
        await keys(pilot, app, "x")  # a key that plays nothing says so on the same line
        assert line(app, "#entry").startswith("x ")
        assert cell_len(line(app, "#entry")) <= app.query_one("#entry").content_region.width
        # Every key of the footer is in the window, quit the last of them.
        # The footer composes its keys a few messages later.
        await wait_until(pilot, lambda: app.screen.query("FooterKey"), "the footer's keys")
        footer = app.screen.query("FooterKey")
        assert footer.last().region.right <= app.size.width, language

    drive(make_app(tmp_path, language=language), scenario)


def test_the_window_follows_the_language_chosen_in_the_menu(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert titles(app) == EXPECTED["en"]["titles"]
        await keys(pilot, app, "m", seconds=1.5)  # a long push opens the menu
        await keys(pilot, app, "plus", "space")  # Language: on to Spanish
        assert app.vt.table.settings.language == "es"
        assert titles(app) == EXPECTED["es"]["titles"]
        assert line(app, "#long-press") == EXPECTED["es"]["long"]
        assert footer_keys(app)["q"] == "salir"
        assert line(app, "#events").startswith("Entradas: Mando pulsado · ")

    drive(make_app(tmp_path), scenario)


def test_quitting_while_saving_fails_says_why_in_the_language_of_the_table(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")  # no database can be written here
    app = make_app(blocker, language="pt")

    async def main() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press("q")
            await pilot.pause()
            toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
            # The reason in the words of the OLED's footer.
            assert any(text.startswith("Sem gravar: erro de E/S. Se sair agora") for text in toasts)
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(main())
    assert app.goodbye.startswith("Sem gravar: erro de E/S. O que se jogou")
