"""The database's files stay small: the WAL is checkpointed and cut back to a bound however
many actions are saved, and a year of busy café play fits in the state partition's size."""

from __future__ import annotations

import random
from pathlib import Path

from board_rules.codenames import ALL_COORDS, Game, GiveClue, Phase, Touch, generate_key
from firmware.table.store import DATABASE_NAME, GameStore, TimedAction
from firmware.table.store_open import STATE_PARTITION_BYTES, WAL_LIMIT_BYTES

GAMES_A_YEAR = 20 * 365
"""A busy café's table: 20 games a day, every day."""


def play_and_save(store: GameStore, rng: random.Random, wal: Path) -> int:
    """One game to its end, each action saved as the table saves it; the largest WAL seen."""
    game, log, largest = Game(generate_key(rng)), [], 0
    game_id = store.start_game(game.key, game.mode, started_at=1_700_000_000.0)
    while not game.state.is_over:
        state = game.state
        if state.phase is Phase.CLUE:
            action: GiveClue | Touch = GiveClue(1)
        else:
            action = Touch(rng.choice([c for c in ALL_COORDS if c not in state.covered]))
        game.play(action)
        log.append(TimedAction(action, 1_700_000_000.0 + len(log)))
        store.save(game_id, game, log)
        largest = max(largest, wal.stat().st_size)
    return largest


def test_the_wal_stays_within_its_bound_and_a_year_fits_the_partition(tmp_path: Path) -> None:
    rng = random.Random(7)
    wal = tmp_path / f"{DATABASE_NAME}-wal"
    games = 40  # about 1,000 saves: several checkpoints' worth
    with GameStore(tmp_path) as store:
        largest = max(play_and_save(store, rng, wal) for _ in range(games))
    assert largest <= WAL_LIMIT_BYTES
    per_game = (tmp_path / DATABASE_NAME).stat().st_size / games
    # A year of games, the WAL at its bound and as much again for a damaged database moved
    # aside while a fresh one starts.
    assert 2 * per_game * GAMES_A_YEAR + WAL_LIMIT_BYTES <= STATE_PARTITION_BYTES
