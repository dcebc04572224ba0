"""The staff commands on any database: a huge id or limit, and a record whose fields were
written by hand (times of `inf`, `1e18` or text, ids and scores of any type), end each command
with one line, never a traceback."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board_rules.codenames import Mode
from firmware.table.store import GameStore

from ..conftest import Cli
from .test_history_export import FINISHED, save_game

HUGE = "99999999999999999999999"
ODD_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([float("inf"), float("-inf"), float("nan"), 1e18, -1e18, 1e300, 0.5]),
    st.text(max_size=8),
    st.binary(max_size=4),
)
CELLS = [
    ("games", "started_at"),
    ("games", "mode"),
    ("games", "phase"),
    ("games", "winner"),
    ("games", "reason"),
    ("games", "score"),
    ("games", "match_id"),
    ("games", "key"),
    ("actions", "at"),
    ("actions", "action"),
    ("matches", "started_at"),
]
COMMANDS = [
    ["history"],
    ["history", "--json"],
    ["stats"],
    ["stats", "--json"],
    ["export", "1"],
    ["export", "1", "--with-key"],
    ["export", "2", "--with-key"],
]


def craft(folder: Path, table: str, column: str, value: object) -> None:
    """Write `value` into every row's `column` of `table`, as a hand would; a value the
    schema refuses (NULL where NOT NULL) is left out."""
    database = sqlite3.connect(folder / "games.sqlite3")
    with contextlib.suppress(sqlite3.IntegrityError), database:
        database.execute(f"UPDATE {table} SET {column} = ?", (value,))
    database.close()


def ends_in_one_line(cli: Cli, *argv: str) -> None:
    result = cli(*argv)  # an exception would fail the test here
    assert result.returncode in (0, 1, 2), (argv, result)
    if result.returncode:
        assert result.stderr.count("\n") == 1 and result.stdout == "", (argv, result)


@pytest.mark.parametrize(
    "argv",
    [
        ["export", HUGE],
        ["export", "-" + HUGE],
        ["export", HUGE, "--with-key"],
        ["history", "--limit", HUGE],
        ["history", "--limit", "-" + HUGE],
    ],
)
def test_a_huge_number_is_one_line(argv: list[str], tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, FINISHED)
    ends_in_one_line(cli, *argv, "--state-dir", str(tmp_path))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(CELLS), ODD_VALUES), min_size=1, max_size=3))
def test_a_crafted_record_is_one_line_for_every_staff_command(
    changes: list[tuple[tuple[str, str], object]],
    tmp_path_factory: pytest.TempPathFactory,
    cli: Cli,
) -> None:
    folder = tmp_path_factory.mktemp("crafted")
    with GameStore(folder) as store:
        save_game(store, Mode.STANDARD, FINISHED)
        save_game(store, Mode.COOP, ["clue 2", "touch A1"])
    for (table, column), value in changes:
        craft(folder, table, column, value)
    for argv in COMMANDS:
        ends_in_one_line(cli, *argv, "--state-dir", str(folder))


@pytest.mark.parametrize("value", [float("inf"), 1e18, -1e18, "noon", None])
@pytest.mark.parametrize("cell", CELLS)
def test_each_crafted_field_is_one_line(
    cell: tuple[str, str], value: object, tmp_path: Path, cli: Cli
) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, FINISHED)
        save_game(store, Mode.COOP, ["clue 2", "touch A1"])
    craft(tmp_path, *cell, value)
    for argv in COMMANDS:
        ends_in_one_line(cli, *argv, "--state-dir", str(tmp_path))
