"""The `codenames-table` command line itself: its choices and argument checks."""

import argparse
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from firmware.cli.main import build_parser
from firmware.errors import UsageError
from firmware.service.pi_model import is_raspberry_pi
from firmware.service.run import run_table
from firmware.service.state_dir import StateDirError, check_service_state_dir
from firmware.table.i18n import LANGUAGES

from ..conftest import Cli
from ..paths import REPO

EXAMPLE = REPO / "config.example.toml"


def test_the_command_line_offers_exactly_the_tables_languages() -> None:
    [commands] = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    # The café checks its --lang itself (its default comes from the locale); every command names
    # the languages alike in its --help, as en|es|pt|it.
    options = {
        name: option
        for name, parser in commands.choices.items()
        for option in parser._actions
        if "--lang" in option.option_strings
    }
    offered = {name: tuple(str(option.metavar).split("|")) for name, option in options.items()}
    assert offered == dict.fromkeys(("replay", "sim", "run", "coda", "cafe"), LANGUAGES)
    assert all(option.choices in (None, LANGUAGES) for option in options.values())


def test_the_console_script_exits_2_with_one_line_outside_a_pi() -> None:
    # The installed entry point itself, as people and the service run it: main's return value
    # must become the process's exit code.
    script = Path(sys.executable).with_name("codenames-table")
    result = subprocess.run([script, "run"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("codenames-table run: this is not a Raspberry Pi")
    assert result.stdout == ""


def test_selftest_refuses_a_wait_that_is_not_positive(cli: Cli) -> None:
    result = cli("selftest", "--wait", "-1")
    assert result.returncode == 2
    assert "more than 0 seconds" in result.stderr


# --- run --check-config, and the state directory of the service ---


def check_config(cli: Cli, *options: str | Path) -> tuple[int, list[str], list[str]]:
    code, out, err = cli("run", "--check-config", *options)
    return code, out.splitlines(), err.splitlines()


def test_check_config_passes_a_good_config_in_one_line_without_a_pi(
    tmp_path: Path, cli: Cli
) -> None:
    # This machine is no Pi (run itself would exit 2): the check needs none, and no hardware.
    assert not is_raspberry_pi()
    config = tmp_path / "config.toml"
    config.write_text("[table]\nlanguage = 'it'\nstate_dir = '/srv/table'\n", encoding="utf-8")
    code, out, err = check_config(cli, "--config", config)
    assert (code, err) == (0, [])
    assert out == [
        f"codenames-table run: config OK: {config}; state_dir /srv/table, language it, "
        "mode standard, LED backend virtual (auto on a machine that is not a Raspberry Pi)"
    ]
    assert not Path("/srv/table").exists()  # checked, not created


def test_check_config_accepts_the_example_config(cli: Cli) -> None:
    assert cli("run", "--check-config", "--config", EXAMPLE).returncode == 0


@pytest.mark.parametrize(
    ("config_text", "options", "error"),
    [
        ("[table]\nlanguage = 'fr'\n", [], "table.language: expected one of en, es, pt, it"),
        ("[oled]\nshift_every_s = inf\n", [], "oled.shift_every_s: expected 0 (off) or seconds"),
        ("[table]\nstate_dir = 'games'\n", [], "table.state_dir: games is a relative path"),
        ("[table]\nstate_dir = '/tmp/games'\n", [], "table.state_dir: /tmp/games is under /tmp"),
        ("[table]\nstate_dir = '/var/tmp/g'\n", [], "/var/tmp/g is under /var/tmp"),
        ("[table]\nstate_dir = '/run/g'\n", [], "/run/g is under /run"),
        ("[table]\nstate_dir = '/dev/shm'\n", [], "/dev/shm is under /dev/shm"),
        ("[table]\nstate_dir = '/var/lib/../../tmp/g'\n", [], "is under /tmp"),
        ("", ["--state-dir", "/tmp/g"], "--state-dir: /tmp/g is under /tmp"),
        ("", ["--state-dir", "rel/g"], "--state-dir: rel/g is a relative path"),
    ],
)
def test_check_config_refuses_what_run_would_refuse_in_one_line(
    tmp_path: Path,
    cli: Cli,
    config_text: str,
    options: list[str],
    error: str,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(config_text, encoding="utf-8")
    code, out, err = check_config(cli, "--config", config, *options)
    assert (code, out) == (2, [])
    assert len(err) == 1
    assert err[0].startswith("codenames-table run: ")
    assert error in err[0]


def test_a_state_dir_reached_through_a_link_into_tmp_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to("/tmp")
    with pytest.raises(StateDirError, match="under /tmp"):
        check_service_state_dir(link / "games")
    assert check_service_state_dir(Path("/var/lib/codenames-table")) == Path(
        "/var/lib/codenames-table"
    )
    assert check_service_state_dir(Path("/tmpfoo")) == Path("/tmpfoo")  # not under /tmp


def fake_pi(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\0", encoding="ascii")
    return model


@pytest.mark.parametrize(
    ("state_dir", "error"),
    [
        (Path("/tmp/games"), "--state-dir: /tmp/games is under /tmp"),
        (Path("games"), "--state-dir: games is a relative path"),
        (Path("/etc/passwd/games"), "/etc/passwd/games: cannot enter it: Not a directory"),
    ],
)
def test_run_on_a_pi_refuses_a_state_dir_it_would_lose_or_cannot_enter_before_any_hardware(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], state_dir: Path, error: str
) -> None:
    args = Namespace(config=None, state_dir=state_dir, lang=None)
    with pytest.raises(UsageError) as caught:
        run_table(args, model_file=fake_pi(tmp_path))
    assert str(caught.value).startswith(error)
    assert capsys.readouterr() == (
        "",
        "",
    )  # `main` alone prints it (tests/architecture/test_errors.py)


def test_stats_ends_quietly_when_its_reader_goes_away(tmp_path: Path) -> None:
    from firmware.table.store import GameStore

    GameStore(tmp_path).close()  # an empty database: stats has a few lines to print
    command = [sys.executable, "-m", "firmware.cli", "stats", "--state-dir", str(tmp_path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # as `| head -1` does once it has its line
        err = process.stderr.read()
    assert (process.returncode, err) == (141, b"")
