"""A file `replay` or `sim` cannot read is named with its line and what was expected, never
quoted: run with `sudo`, either could otherwise print a line of any file on the machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import Cli

SECRET = "Zq7$6$hash:19000"
"""What a line of a file not meant for these commands might hold."""
TRANSCRIPT_LINES = [
    f"root:{SECRET}:0:99999:7:::",
    f"{SECRET}",
    f"touch {SECRET}",
    f"cover {SECRET}",
    f"clue {SECRET}",
    f"clue 2 {SECRET}",
    f"done {SECRET}",
    f"mode {SECRET}",
    f"key {SECRET}",
    f"key RRRRR/RRRRB/BBBBB/BBNNN/NNNNA\nclue 1\ntouch {SECRET}",
]
SCRIPT_LINES = [
    f"root:{SECRET}:0:99999:7:::",
    f"press {SECRET}",
    f"press A1 {SECRET}",
    f"button {SECRET}",
    f"turn {SECRET}",
    f"turn +{'9' * 30}",
    f"wait {SECRET}",
    f"push {SECRET}",
    f"dump {SECRET}",
    f"mode {SECRET}",
    f"key {SECRET}",
]


def refused_without_quoting(cli: Cli, path: Path, *argv: str) -> None:
    result = cli(*argv)
    assert result.returncode == 2, result
    assert result.stderr.startswith(f"codenames-table {argv[0]}: {path}:")
    assert result.stderr.count("\n") == 1
    assert "Zq7" not in result.stderr and "hash" not in result.stderr
    assert "9" * 12 not in result.stderr


@pytest.mark.parametrize("text", TRANSCRIPT_LINES)
def test_replay_names_the_line_without_quoting_it(text: str, tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "shadow"
    path.write_text(text + "\n")
    refused_without_quoting(cli, path, "replay", str(path))


@pytest.mark.parametrize("text", SCRIPT_LINES)
def test_sim_names_the_line_without_quoting_it(text: str, tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "shadow"
    path.write_text(text + "\n")
    argv = ("sim", "--headless", "--script", str(path), "--state-dir", str(tmp_path / "s"))
    refused_without_quoting(cli, path, *argv)
