"""The export round trip: random games played through the virtual table (the soak player's
moves: undo, UNDO of NEW, penalties and their covers, co-op, and the strict timer's timeouts),
every saved game exported and played back by `replay` in this process, gives exactly the state
the table holds for it."""

import json
import random
from pathlib import Path

import pytest

from board_rules.codenames import Cover, Game, Mode, Penalty, Phase, Timeout, Undo
from firmware.drivers.events import ConsoleButton
from firmware.table.config import TableConfig
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable
from tools.soak import HOLD_S, random_move

from ..conftest import Cli, TableFactory

MOVES = 120
"""Moves per run: enough for several games, a new game taken back, penalties and timeouts."""
TIMER_S = 30


def play(vt: VirtualTable, rng: random.Random) -> tuple[dict[int, Game], int]:
    """Random moves, now and then letting the strict timer run out or taking back a NEW: the
    game the table holds under each saved id, as last seen (an id freed by UNDO of NEW is given
    again), and how many NEWs were taken back."""
    games: dict[int, Game] = {}
    taken_back = 0
    for _ in range(MOVES):
        before = vt.game_id
        if vt.table.state.phase is Phase.GUESS and rng.random() < 0.1:
            vt.wait(TIMER_S + 1)  # the automatic timer began with the clue
        elif not vt.table.game.applied and len(games) > 1 and rng.random() < 0.5:
            vt.press_button(ConsoleButton.UNDO, HOLD_S[ConsoleButton.UNDO])
        else:
            random_move(vt, rng)
        game_id = vt.game_id
        assert game_id is not None and before is not None
        taken_back += game_id < before
        games[game_id] = vt.table.game
    return games, taken_back


def round_trip(cli: Cli, state_dir: Path, game_id: int) -> dict[str, object]:
    exported = cli("export", str(game_id), "--state-dir", state_dir, "--with-key")
    assert exported.returncode == 0, exported.stderr
    replayed = cli("replay", "-", stdin=exported.stdout.encode())
    assert replayed.returncode == 0, replayed.stderr
    result: dict[str, object] = json.loads(replayed.stdout)
    return result


@pytest.mark.parametrize(("seed", "mode"), [(3, Mode.STANDARD), (2, Mode.COOP)])
def test_every_saved_game_exported_replays_to_the_tables_state(
    tmp_path: Path, cli: Cli, virtual_table: TableFactory, seed: int, mode: Mode
) -> None:
    settings = TableSettings(mode=mode, timer_s=TIMER_S, strict=True, timer_autostart=True)
    with virtual_table(config=TableConfig(settings=settings), seed=seed) as vt:
        games, taken_back = play(vt, random.Random(seed))
        saved_ids = vt.store.game_ids()
        assert set(saved_ids) <= set(games)
        for game_id in saved_ids:
            table_state = games[game_id].state
            assert round_trip(cli, tmp_path, game_id) == {**table_state.to_dict(), "rejected": []}
        # What the run went through, so that the property covered it.
        applied = [action for game in games.values() for action in game.applied]
        kinds = {type(action) for action in applied}
        assert {Undo, Timeout, Cover} <= kinds
        assert taken_back > 0 and len(saved_ids) > 1
        if mode is Mode.STANDARD:
            assert Penalty in kinds
