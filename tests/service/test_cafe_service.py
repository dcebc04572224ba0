"""The café view as a service on the counter machine: its unit (`systemd/codenames-cafe.service`)
as systemd reads it, its hardening score, the command line it runs as the `cafe` command
accepts it, and `systemd/install-cafe.sh` putting a broker recipe in place (a dry run in a
scratch root)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.cli.main import build_parser, main

from ..fake_pi_root import commands
from ..paths import REPO
from .test_service import EXPOSURE_GOAL, exposure_level, verify_in_root

UNIT = REPO / "systemd" / "codenames-cafe.service"
INSTALL = REPO / "systemd" / "install-cafe.sh"


def exec_start() -> list[str]:
    """The unit's ExecStart= as words, its continuation lines joined."""
    text = UNIT.read_text(encoding="utf-8").replace("\\\n", " ")
    [line] = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    return shlex.split(line.removeprefix("ExecStart="))


def test_systemd_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    result = verify_in_root(UNIT.read_text(encoding="utf-8"), tmp_path, UNIT.name)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


def test_the_hardening_scores_at_most_two() -> None:
    level, report = exposure_level(UNIT)
    assert level <= EXPOSURE_GOAL, report


@pytest.fixture
def recipe(tmp_path: Path) -> Path:
    out = tmp_path / "recipe"
    command = ["broker-recipe", "--tables", "3", "--host", "192.168.1.10", "--out", str(out)]
    assert main(command) == 0
    return out


def test_the_unit_runs_the_cafe_command_with_the_recipes_settings(recipe: Path) -> None:
    settings = dict(
        line.split("=", 1)
        for line in (recipe / "view" / "cafe.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    words = exec_start()
    assert words[0] == "/opt/codenames-table/bin/codenames-table"
    # As systemd expands them: ${NAME} from the environment file, %d the credentials' folder.
    expanded = [
        re.sub(r"\$\{(\w+)\}", lambda m: settings[m[1]], word).replace(
            "%d", "/run/credentials/codenames-cafe.service"
        )
        for word in words[1:]
    ]
    args = build_parser().parse_args(expanded)
    assert (args.command, args.no_terminal) == ("cafe", True)
    assert args.broker == "mqtts://192.168.1.10:8883"
    assert (args.username, args.http, args.lang) == ("cafe-view", "127.0.0.1:8080", "en")
    assert str(args.password_file) == "/run/credentials/codenames-cafe.service/mqtt"
    assert str(args.ca_file) == "/etc/codenames-cafe/cafe-ca.pem"


def dry_run(*args: str, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(INSTALL), "--dry-run", *args],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "CODENAMES_CAFE_ROOT": str(root)},
        timeout=30,
    )


def test_a_dry_run_puts_the_recipe_in_place(recipe: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    page = ["--http", "192.168.1.10:8080", "--lang", "it"]
    result = dry_run("--recipe", str(recipe), *page, root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    run = commands(result.stdout)
    broker = root / "etc/mosquitto/codenames"
    # The broker's secrets for its group only; its config where Debian's Mosquitto includes it.
    assert (
        f"install -D -o root -g mosquitto -m 0640 {recipe}/broker/passwords {broker}/passwords"
    ) in run
    assert (
        f"install -D -o root -g mosquitto -m 0640 {recipe}/broker/server.key {broker}/server.key"
    ) in run
    conf = root / "etc/mosquitto/conf.d/codenames.conf"
    assert f"install -D -o root -g root -m 0644 {recipe}/broker/mosquitto.conf {conf}" in run
    assert run.index("systemctl restart mosquitto") > run.index(
        f"install -D -o root -g root -m 0644 {recipe}/broker/mosquitto.conf {conf}"
    )
    view = root / "etc/codenames-cafe"
    assert (
        f"install -D -o root -g root -m 0600 {recipe}/view/mqtt-password {view}/mqtt-password"
    ) in run
    # The CA's key and the tables' passwords stay in the recipe's folder.
    assert not [c for c in run if "cafe-ca.key" in c or "/tables/" in c]
    written = result.stdout.split(f"+ (write {view}/cafe.env)\n", 1)[1].split("\n+ ", 1)[0]
    assert "    CAFE_HTTP=192.168.1.10:8080\n    CAFE_LANG=it" in written
    assert "    CAFE_USERNAME=cafe-view\n" in written
    unit = f"install -m 0644 {UNIT} {root}/etc/systemd/system/codenames-cafe.service"
    assert run.index(unit) < run.index("systemctl restart codenames-cafe")
    assert run[-1] == "systemctl restart codenames-cafe"


def test_without_the_broker_only_the_view_is_installed(recipe: Path, tmp_path: Path) -> None:
    result = dry_run("--recipe", str(recipe), "--no-broker", root=tmp_path)
    assert result.returncode == 0, result.stderr
    run = commands(result.stdout)
    assert not [c for c in run if "mosquitto" in c]
    assert "systemctl restart codenames-cafe" in run


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--http", "192.168.1.10"], "--http 192.168.1.10: expected HOST:PORT"),
        (["--lang", "fr"], "--lang fr: expected en, es, pt or it"),
    ],
)
def test_bad_options_are_one_line_and_change_nothing(
    recipe: Path, tmp_path: Path, args: list[str], error: str
) -> None:
    result = dry_run("--recipe", str(recipe), *args, root=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(error) and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_a_folder_without_a_recipe_is_refused(tmp_path: Path) -> None:
    result = dry_run("--recipe", str(tmp_path), root=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        f"--recipe {tmp_path}: no recipe.json there "
        "(codenames-table broker-recipe --out DIR writes one)\n"
    )


def test_the_install_script_is_shellcheck_clean() -> None:
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run([tool, str(INSTALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
