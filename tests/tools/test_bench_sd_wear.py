"""The SD card's wear measurement (`tools.bench_sd_wear`): it counts what the store wrote.

No figure is asserted against a goal here: `make bench` is where the years are read. These
checks hold on any disk: every saved action is fsynced, so it reaches storage.
"""

import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.bench_sd_wear import PAGE_BYTES, io_counters, main, measure


@pytest.fixture
def disk_folder() -> Iterator[Path]:
    """A folder on a disk: /tmp may be in memory, where nothing reaches storage. Its name is
    drawn anew, as two runs of the suite in one checkout may be here at once."""
    assert "write_bytes" in io_counters()
    build = Path.cwd() / "build"
    build.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="sd-wear-", dir=build))
    yield folder
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()


def test_every_saved_action_is_counted_and_reaches_the_disk(disk_folder: Path) -> None:
    figures = measure(disk_folder, games=2)
    with sqlite3.connect(disk_folder / "games.sqlite3") as conn:
        saved = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert games == 2
    assert figures["actions"] == saved
    # An action is a commit with synchronous=FULL: at least one page goes to storage for each.
    assert figures["bytes_written"] >= saved * PAGE_BYTES
    assert figures["bytes_per_action"] == round(figures["bytes_written"] / saved)
    days = figures["card"]["bytes"] * figures["card"]["erase_cycles"]["cheapest"]
    cheapest = days / (figures["card"]["write_amplification"] * figures["bytes_per_day"] * 365.25)
    assert figures["card_years"]["cheapest"] == round(cheapest, 1)
    assert figures["card_years_met"] is (figures["card_years"]["high_endurance"] >= 10)


def test_a_single_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--games", "1"])
    assert exit_.value.code == 2
    assert "--games must be 2 or more" in capsys.readouterr().err
