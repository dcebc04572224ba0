"""`codenames-table replay`: a transcript in, the final state as one JSON object out."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli.main import EXIT_BROKEN_PIPE
from firmware.text_input import MAX_BYTES

from ..conftest import Cli, CliResult
from ..paths import DEVELOPERS_GUIDE
from ..rules_helpers import KEY_TEXT

OUTPUT_KEYS = [
    "mode",
    "phase",
    "turn",
    "clue",
    "guesses_made",
    "guesses_left",
    "remaining",
    "covered",
    "winner",
    "reason",
    "score",
    "key",
    "rejected",
]


def replay(cli: Cli, tmp_path: Path, text: str, *options: str) -> CliResult:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return cli("replay", path, *options)


def test_replay_prints_the_final_state_with_exactly_the_documented_keys(
    tmp_path: Path, cli: Cli
) -> None:
    result = replay(cli, tmp_path, f"key {KEY_TEXT}\nclue 2\ntouch A1\ntouch C4\n")
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert list(output) == OUTPUT_KEYS
    assert output["covered"] == {"A1": "red", "C4": "bystander"}
    assert (output["phase"], output["turn"], output["clue"]) == ("clue", "blue", None)
    assert output["remaining"] == {"red": 8, "blue": 8}
    assert output["rejected"] == []


def test_rejected_actions_are_listed_and_play_goes_on(tmp_path: Path, cli: Cli) -> None:
    text = f"key {KEY_TEXT}\ndone\nclue 1\ntouch A1\ntouch a1\ntouch E2\n"
    output = json.loads(replay(cli, tmp_path, text).stdout)
    assert output["rejected"] == [
        {"line": 2, "action": "done", "reason": "no-clue-yet"},
        {"line": 5, "action": "touch A1", "reason": "already-covered"},
    ]
    assert output["covered"] == {"A1": "red", "E2": "blue"}


def test_strict_exits_1_on_a_rejected_action_and_still_prints(tmp_path: Path, cli: Cli) -> None:
    result = replay(cli, tmp_path, f"key {KEY_TEXT}\ndone\n", "--strict")
    assert result.returncode == 1
    assert json.loads(result.stdout)["rejected"][0]["reason"] == "no-clue-yet"
    assert replay(cli, tmp_path, f"key {KEY_TEXT}\nclue 1\n", "--strict").returncode == 0


@pytest.mark.parametrize(
    ("text", "line"),
    [("clue 1\nfly A1\n", 2), ("key XX\n", 1), ("clue 11\n", 1), ("\n\ntouch Z9\n", 3)],
)
def test_a_malformed_transcript_exits_2_naming_the_line_and_prints_nothing(
    tmp_path: Path, cli: Cli, text: str, line: int
) -> None:
    result = replay(cli, tmp_path, text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"game.txt:{line}:" in result.stderr


def test_a_missing_file_exits_2(tmp_path: Path, cli: Cli) -> None:
    assert cli("replay", tmp_path / "nope.txt").returncode == 2


def test_standard_input_is_read_for_a_dash(cli: Cli) -> None:
    result = cli("replay", "-", stdin=f"key {KEY_TEXT}\nmode coop\nclue 1\ntouch C4\n".encode())
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert (output["mode"], output["phase"], output["turn"]) == ("coop", "enemy_cover", "blue")


def test_without_a_key_the_seed_fixes_the_random_key(tmp_path: Path, cli: Cli) -> None:
    key = json.loads(replay(cli, tmp_path, "clue 1\n", "--seed", "5").stdout)["key"]
    # Again in a process of its own, with another hash seed: only --seed decides.
    again = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "replay", str(tmp_path / "game.txt"), "--seed", "5"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(again.stdout)["key"] == key
    other = json.loads(replay(cli, tmp_path, "clue 1\n", "--seed", "6").stdout)["key"]
    assert other != key


def test_the_readme_worked_example_is_what_replay_prints(tmp_path: Path, cli: Cli) -> None:
    readme = DEVELOPERS_GUIDE.read_text(encoding="utf-8")
    transcript = readme.split("<!-- transcript -->\n```\n", 1)[1].split("```", 1)[0]
    printed = readme.split("<!-- output -->\n```json\n", 1)[1].split("```", 1)[0]
    result = replay(cli, tmp_path, transcript)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(printed)


# --- reading the input: size, encoding, standard input, a closed pipe ---


def test_a_byte_order_mark_is_accepted_from_a_file_and_from_standard_input(
    tmp_path: Path, cli: Cli
) -> None:
    data = f"\ufeffkey {KEY_TEXT}\nclue 1\ntouch A1\n".encode()
    path = tmp_path / "bom.txt"
    path.write_bytes(data)
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert json.loads(out)["covered"] == {"A1": "red"}
    assert cli("replay", "-", stdin=data) == (0, out, "")


def test_bytes_that_are_not_utf8_name_their_line_in_a_file_and_on_standard_input(
    tmp_path: Path, cli: Cli
) -> None:
    data = b"clue 1\r\n# caf\xe9\ntouch A1\n"
    path = tmp_path / "latin1.txt"
    path.write_bytes(data)
    code, out, err = cli("replay", path)
    assert (code, out) == (2, "")
    assert err == f"codenames-table replay: {path}:2: not UTF-8 text (byte 0xe9)\n"
    code, out, err = cli("replay", "-", stdin=data)
    assert (code, out, err) == (
        2,
        "",
        "codenames-table replay: <stdin>:2: not UTF-8 text (byte 0xe9)\n",
    )


def test_an_endless_file_is_read_no_further_than_the_limit(cli: Cli) -> None:
    code, out, err = cli("replay", "/dev/zero")
    assert (code, out) == (2, "")
    assert err == "codenames-table replay: /dev/zero: larger than 1 MiB, the most read\n"


def test_a_file_just_at_the_limit_is_read_and_one_byte_more_is_refused(
    tmp_path: Path, cli: Cli
) -> None:
    path = tmp_path / "big.txt"
    head = b"clue 1\n"
    path.write_bytes(head + b"#" * (MAX_BYTES - len(head)))
    code, out, _ = cli("replay", path)
    assert code == 0
    assert json.loads(out)["clue"] == 1
    path.write_bytes(path.read_bytes() + b"#")
    assert cli("replay", path).returncode == 2


def test_a_reader_that_goes_away_ends_replay_quietly(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(f"key {KEY_TEXT}\nclue 1\n", encoding="utf-8")
    command = [sys.executable, "-m", "firmware.cli", "replay", str(path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        # Closed before the interpreter has even started: its first write meets the closed pipe.
        process.stdout.close()
        err = process.stderr.read()
    assert process.returncode == EXIT_BROKEN_PIPE == 141
    assert err == b""


# --- an empty input, and the summary in the table's words ---


@pytest.mark.parametrize("text", ["", "\n\n", "# an export that failed\n", "mode coop\n"])
def test_an_input_with_no_key_and_no_action_exits_2_and_prints_no_board(
    tmp_path: Path, cli: Cli, text: str
) -> None:
    result = replay(cli, tmp_path, text)
    assert result.returncode == 2 and result.stdout == ""
    assert "nothing to replay: no key and no action" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_key_alone_is_a_board_to_replay(tmp_path: Path, cli: Cli) -> None:
    result = replay(cli, tmp_path, f"key {KEY_TEXT}\n")
    assert result.returncode == 0 and json.loads(result.stdout)["key"] == KEY_TEXT


@pytest.mark.parametrize(
    ("text", "language", "line"),
    [
        (
            f"key {KEY_TEXT}\nclue 1\ntouch E5\n",
            "en",
            "Blue team wins · Red met the assassin · Red 9 · Blue 8",
        ),
        (
            f"key {KEY_TEXT}\nclue 1\ntouch E5\n",
            "it",
            "Vince la squadra blu · Rosso tocca l'assassino · Rosso 9 · Blu 8",
        ),
        (f"key {KEY_TEXT}\nclue 2\ntouch C4\n", "en", "Blue spymaster"),
    ],
)
def test_summary_says_who_won_and_how_in_the_table_s_words(
    tmp_path: Path, cli: Cli, text: str, language: str, line: str
) -> None:
    result = replay(cli, tmp_path, text, "--summary", "--lang", language)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(line)
    assert len(result.stdout.splitlines()) == 1
