"""The café demo's players (`tools.cafe_demo_tables`): their moves carry a game on, co-op's
enemy cover included, on a whole table on virtual hardware."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from board_rules.codenames import Mode, Phase
from firmware.table.config import TableConfig
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable
from tools.cafe_demo_tables import make_move, next_move

MOVES = 150
"""Far more moves than a game needs: a game the players cannot carry on shows as a stall."""
COVER_MOVES = 2
"""The most moves an enemy cover may take: a card refused twice is covered by the table."""


def test_the_players_carry_a_co_op_game_past_every_enemy_cover(tmp_path: Path) -> None:
    config = TableConfig(settings=replace(TableSettings(), mode=Mode.COOP))
    rng = random.Random(5)
    with VirtualTable(config, tmp_path, rng=random.Random(5), first_mode=Mode.COOP) as vt:
        covers = games = in_cover = 0
        for _ in range(MOVES):
            before = vt.table.state.phase
            make_move(vt, next_move(vt, rng), rng)
            after = vt.table.state.phase
            in_cover = in_cover + 1 if after is Phase.ENEMY_COVER else 0
            assert in_cover <= COVER_MOVES, "the players are stuck in the enemy's cover"
            covers += before is Phase.ENEMY_COVER and after is not Phase.ENEMY_COVER
            games += after is Phase.OVER and before is not Phase.OVER
    assert covers > 0
    assert games > 0
