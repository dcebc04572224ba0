"""Regenerate `docs/sim.svg`, the README's screenshot of the desktop simulation.

    .venv/bin/python docs/make_sim_svg.py

A game in progress on a fixed key and seed, with the clock stopped, so that the picture changes
only when the simulation's look does.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from board_rules.codenames import ALL_COORDS, Identity, generate_key
from firmware.sim.app import SimApp
from firmware.table.config import TableConfig

OUTPUT = Path(__file__).with_name("sim.svg")
SIZE = (120, 38)
KEY = generate_key(random.Random(2024))


async def screenshot(state_dir: Path) -> str:
    """The SVG of a game in progress: the first team found two agents and a bystander, and the
    other team is guessing its first clue."""
    app = SimApp(
        TableConfig(),
        state_dir,
        seed=5,
        language="en",
        first_key=KEY,
        realtime=False,
        wall_clock_start=1_800_000_000.0,
    )
    async with app.run_test(size=SIZE) as pilot:

        async def press(*keys: str) -> None:
            for key in keys:
                await pilot.press(key)
                app.advance(0.3)

        async def click(*cards: Identity) -> None:
            for identity in cards:
                coord = next(c for c in ALL_COORDS if KEY[c] is identity and c not in covered())
                await pilot.click(f"#card-{coord}")
                app.advance(0.3)

        def covered() -> frozenset[object]:
            return frozenset(app.vt.table.state.covered)

        first = Identity.of_team(KEY.starting_team)
        second = Identity.of_team(KEY.starting_team.other)
        await press("plus", "space")  # a clue for 2
        await click(first, first, Identity.BYSTANDER)
        await press("space")  # a clue for 1
        await click(second)
        app.advance(3.0)  # past the notice, back to the guessing screen
        await pilot.pause()
        return app.export_screenshot(title="codenames-table sim")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="codenames-sim-svg-") as state_dir:
        OUTPUT.write_text(asyncio.run(screenshot(Path(state_dir))), "utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
