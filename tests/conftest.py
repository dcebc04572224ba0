"""Fixtures shared by the test files.

- `cli`: the console script run in this process (`firmware.cli.main.main`), with what it printed and
  its exit code. A spawned `python -m firmware.cli` pays for an interpreter and every import on
  each call; only what needs a real process (a signal, a closed pipe, the interpreter's own exit)
  spawns one.
- `virtual_table`: a table on virtual hardware dealt the known key, closed after the test
  whatever happened.

The known key, `STILL` and `announce` are plain values and functions: they live in
`rules_helpers` and `table_scripts`, imported where needed.

Hypothesis checks every property without its per-example deadline: the suite runs on a worker
per core, beside other work, and no test here times anything.

The tests of `SLOW` are marked `slow`: `make pytest` (so `make test`) leaves them out,
`make test-slow` runs them, and `make test-trixie` runs every test (docs/developers.md says where
CI runs each).
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple, Protocol

import pytest
from hypothesis import settings

from firmware.cli.main import main
from firmware.table.config import TableConfig
from firmware.virtual.table import VirtualTable

from .rules_helpers import KEY
from .table_scripts import STILL

settings.register_profile("tests", deadline=None)
settings.load_profile("tests")

SLOW: tuple[str, ...] = (
    # Whole games against the computer players, in the Coda app and as statistics, and the
    # master's reading over many deals.
    "coda/test_coda_app.py",
    "coda/test_coda_odds.py::test_after_a_game_the_review_lists",
    "rules/test_coda_players.py::test_hard_beats_random",
    "rules/test_coda_players.py::test_every_level_plays_only_legal_actions",
    "rules/test_coda_players.py::test_hard_beats_easy_most_of_the_time",
    "rules/test_coda_expert.py::test_the_expert_beats_hard",
    "rules/test_coda_master.py",
    # Deduction checked against brute-force enumeration, over many seeds.
    "rules/test_coda_deduction.py::test_deduction_counts_exactly_what_brute_force",
    "rules/test_coda_deduction.py::test_every_deal_lists_each_deal_brute_force",
    "rules/test_coda_deduction.py::test_deduction_is_fast_enough_for_every_turn",
    # A whole game played in the simulation's window, and every saved game exported and replayed.
    "sim/test_sim_app.py::test_a_whole_short_game_then_a_new_one",
    "cli/test_export_round_trip.py",
    # Real processes killed and restarted, real time on the real clock.
    "table/test_robustness.py",
    "tools/test_bench.py",
    "tools/test_bench_touch_pads.py",
    "fleet/test_cafe_flood_bench.py",
    "fleet/test_fleet_bench.py",
    # The café's page in a real browser.
    "fleet/test_cafe_web.py::test_the_page_follows_a_table_live",
    "fleet/test_cafe_web_staff.py",
    # Physics and parts simulated over thousands of steps, and ngspice.
    "virtual/test_mpr121_physics.py",
    "drivers/test_matrix_part.py::test_no_glitch_of_1_us_to_1_ms_is_ever_a_press",
    "hardware/test_analog.py",
    "hardware/test_schematic.py",
    "service/test_selftest_calibrate.py",
    # The install scripts run in fake Pi roots, one shell each.
    "service/test_install.py",
    "fleet/test_install_fleet.py",
    # Hypothesis drawing whole documents and databases.
    "cli/test_crafted_database.py",
    "cli/test_cloud_init.py::test_any_structure_reads_back_as_written",
    "cli/test_bad_input.py::test_a_random_config_document_is_checked_in_one_line",
)
"""The tests that cost the most time, by their node id's start under tests/: the longest as
`pytest --durations` finds them, and those that take the most processor time."""


@pytest.hookimpl(tryfirst=True)  # before `-m` chooses by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(tuple(f"tests/{start}" for start in SLOW)):
            item.add_marker(pytest.mark.slow)


class CliResult(NamedTuple):
    """One command's exit code and output, named as in `subprocess.CompletedProcess`."""

    returncode: int
    stdout: str
    stderr: str


class Cli(Protocol):
    def __call__(self, *argv: str | Path, stdin: bytes | None = None) -> CliResult: ...


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """`cli("replay", path)` runs `codenames-table replay PATH` here; `stdin` is what it reads
    on standard input."""

    def run(*argv: str | Path, stdin: bytes | None = None) -> CliResult:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        capsys.readouterr()  # only what this command prints
        try:
            code = main([str(arg) for arg in argv])
        except SystemExit as exit_:  # argparse refusing the command line, after its message
            code = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


class TableFactory(Protocol):
    def __call__(
        self, state_dir: Path | None = None, config: TableConfig = STILL, *, seed: int = 3
    ) -> VirtualTable: ...


@pytest.fixture
def virtual_table(tmp_path: Path) -> Iterator[TableFactory]:
    """`virtual_table()` builds a `VirtualTable` with the known key as its first key, saving in
    `state_dir` (the test's tmp_path by default), its random choices seeded with `seed`."""
    tables: list[VirtualTable] = []

    def build(
        state_dir: Path | None = None, config: TableConfig = STILL, *, seed: int = 3
    ) -> VirtualTable:
        directory = tmp_path if state_dir is None else state_dir
        vt = VirtualTable(config, directory, rng=random.Random(seed), first_key=KEY)
        tables.append(vt)
        return vt

    yield build
    for vt in tables:
        vt.close()  # idempotent: most tests close theirs in a `with` block already
