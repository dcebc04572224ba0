"""The odds view and the after-game review, driven through Textual's pilot: off until `o`,
then for each hidden tile of the opponents the values it can still have and the likeliest,
from the person's view alone; after a game, the person's attacks that did not name the
likeliest tile."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from board_rules.coda import Attack, Color, Level, Phase, deduce, strategy
from firmware.coda.app import CodaApp
from firmware.coda.controller import HUMAN
from tests.coda_person_helpers import act

SIZE = (100, 40)


def drive(app: CodaApp, scenario: Callable[[Pilot[None], CodaApp], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main())


def make_app(*levels: Level, **options: Any) -> CodaApp:
    settings: dict[str, Any] = {"rng": random.Random(11), "delay_s": 0}
    settings.update(options)
    return CodaApp(levels or (Level.HARD,), **settings)


def odds_panel(app: CodaApp) -> Static:
    return app.query_one("#odds", Static)


def test_the_odds_view_is_off_until_o_and_reads_only_the_persons_view() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter", "b")  # take the opening tiles, draw a black one
        assert app.game.view.phase is Phase.ATTACK
        assert not odds_panel(app).display and not str(odds_panel(app).content)
        await pilot.press("o")
        assert odds_panel(app).display
        lines = str(odds_panel(app).content).splitlines()
        assert lines[0] == "Odds (from what you can see)"
        view = app.game.view
        found = deduce(view)
        assert len(lines) - 1 == len(view.targets())
        for line, (player, index) in zip(lines[1:], view.targets(), strict=True):
            shown = re.fullmatch(
                r"(.+), tile (\d+) \((\w+)\): ([\d ]+) · likeliest (\d+) \((\d+) %\)", line
            )
            assert shown is not None, line
            chances = found.distribution(player, index)
            assert shown[1] == app.game.names[player]
            assert [int(v) for v in shown[4].split()] == list(chances)
            assert chances[int(shown[5])] == max(chances.values())
            assert int(shown[6]) == round(100 * max(chances.values()))
            # None of the person's own tiles is offered: the person sees them.
            own = {slot.tile for slot in app.game.state.rows[HUMAN]} | set(app.game.state.hand)
            colour = view.rows[player][index].color
            assert not any(tile.color is colour and tile.value in chances for tile in own)
        await pilot.press("o")
        assert not odds_panel(app).display

    drive(make_app(Level.HARD, Level.EXPERT), scenario)


def test_after_a_game_the_review_lists_the_attacks_that_did_not_name_the_likeliest() -> None:
    person, person_rng = strategy(Level.EASY), random.Random(4)
    expected: list[tuple[str, int]] = []  # the tile named, the chance it had, when not likeliest

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter")  # the opening: two tiles of each colour
        while not app.game.state.is_over:
            view = app.game.view
            action = person(view, person_rng)
            if isinstance(action, Attack):
                found = deduce(view)
                chance = found.probability(action.player, action.index, action.value)
                if chance < found.guesses()[0][0]:
                    expected.append((str(action.value), round(100 * chance)))
            act(app.game, action)
            app.redraw()
            await pilot.pause()
            if app.game.state.is_over:
                break
            assert not odds_panel(app).display  # the live odds stay off unless asked for
        await pilot.pause()
        lines = str(odds_panel(app).content).splitlines()
        assert odds_panel(app).display
        assert lines[0] == "Your attacks that did not name the likeliest tile"
        named = [
            re.search(r": (\d+)\? \((\d+) %\) · the likeliest was", line) for line in lines[1:]
        ]
        assert [(m[1], int(m[2])) for m in named if m] == expected and len(expected) >= 2

    drive(make_app(Level.HARD), scenario)


def test_the_odds_and_the_review_speak_the_language_of_the_app() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter", Color.BLACK.letter, "o")
        assert str(odds_panel(app).content).startswith("Probabilità (da ciò che vedi)")
        assert ", tessera " in str(odds_panel(app).content)

    drive(make_app(Level.MASTER, language="it"), scenario)
