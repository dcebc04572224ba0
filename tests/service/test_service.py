"""The table as a systemd service: the unit file, its hardening, the READY/WATCHDOG protocol
from the game loop, and the install scripts.

`systemd-analyze` and `shellcheck` checks run where those tools exist and skip elsewhere.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import uuid
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from firmware.errors import EXIT_USAGE, UsageError
from firmware.service.run import run_table
from firmware.service.sd_notify import SystemdNotifier, WatchdogFeeder
from firmware.service.serve import install_stop_handlers, serve
from firmware.table.config import DEFAULT_PATH, DEFAULT_STATE_DIR, TableConfig
from firmware.virtual.table import VirtualTable
from tools.systemd_unit import TABLE_UNIT, unit_values
from tools.systemd_unit import unit_settings as read_unit

from ..conftest import TableFactory
from ..fake_pi_root import fake_pi, missing_lines, needs_root, run_script
from ..notify_socket import RECEIVE_TIMEOUT_S
from ..paths import REPO
from ..table_scripts import KEY_LINE

UNIT = TABLE_UNIT
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
PI_USERLAND = REPO / "systemd" / "pi_userland.sh"
EXPOSURE_GOAL = 2.0
"""The bound for `systemd-analyze security` we hold units to (systemd-timesyncd scores 2.3)."""


def unit_settings() -> dict[str, list[tuple[str, str]]]:
    """The unit file as systemd reads it: sections of (key, value), keys repeated in order."""
    return read_unit(UNIT)


def values(section: str, key: str) -> list[str]:
    return unit_values(UNIT, section, key)


def value(section: str, key: str) -> str:
    found = values(section, key)
    assert len(found) == 1, f"{key}= is set {len(found)} times in [{section}]"
    return found[0]


def environment() -> dict[str, str]:
    pairs = (entry.split("=", 1) for entry in values("Service", "Environment"))
    return {name: val for name, val in pairs}


# --- the unit file ---


def test_the_service_tells_systemd_when_it_is_ready_and_feeds_a_watchdog() -> None:
    assert value("Service", "Type") == "notify"
    assert value("Service", "NotifyAccess") == "main"
    watchdog_s = float(value("Service", "WatchdogSec"))
    # The loop feeds at least every second; two missed beats must not yet count as a hang.
    assert watchdog_s >= 4
    assert value("Service", "ExecStart") == "/opt/codenames-table/bin/codenames-table run"


def test_the_restart_policy_never_gives_up_but_does_not_loop_on_a_config_error() -> None:
    assert value("Service", "Restart") == "on-failure"
    assert value("Service", "RestartSec") == "2"
    assert value("Unit", "StartLimitIntervalSec") == "0"
    assert str(EXIT_USAGE) in value("Service", "RestartPreventExitStatus").split()


def test_the_service_runs_as_its_own_user_with_only_the_hardware_groups() -> None:
    assert value("Service", "User") == "codenames-table"
    assert value("Service", "Group") == "codenames-table"
    assert set(value("Service", "SupplementaryGroups").split()) == {"gpio", "i2c", "spi"}


def test_its_directories_are_the_ones_the_firmware_uses_by_default() -> None:
    assert Path("/var/lib", value("Service", "StateDirectory")) == DEFAULT_STATE_DIR
    assert value("Service", "StateDirectoryMode") == "0700"
    assert Path("/etc", value("Service", "ConfigurationDirectory")) == DEFAULT_PATH.parent
    # lgpio's FIFOs go to $LG_WD (else the working directory): it must be writable.
    runtime = Path("/run", value("Service", "RuntimeDirectory"))
    assert Path(value("Service", "WorkingDirectory")) == runtime
    assert Path(environment()["LG_WD"]) == runtime


def test_only_the_tables_devices_are_allowed() -> None:
    assert value("Service", "DevicePolicy") == "closed"
    allowed = dict(entry.split() for entry in values("Service", "DeviceAllow"))
    assert allowed == {
        "/dev/gpiochip0": "rw",
        "/dev/gpiochip4": "rw",
        "/dev/gpiomem": "rw",
        "/dev/i2c-1": "rw",
        "/dev/spidev0.0": "rw",
    }


def test_proc_keeps_the_files_that_hardware_detection_reads() -> None:
    # ProcSubset=pid would hide /proc/cpuinfo and /proc/device-tree: Blinka's PlatformDetect,
    # gpiozero, rpi_ws281x and `run`'s own Pi check would all fail on the Pi.
    assert values("Service", "ProcSubset") in ([], ["all"])
    assert value("Service", "ProtectProc") == "invisible"


# --- systemd-analyze ---


def systemd_analyze() -> str:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (it is on the Pi and on Debian)")
    return tool


def exposure_level(unit: Path) -> tuple[float, str]:
    """`systemd-analyze security`'s overall exposure level of `unit`, and its whole report."""
    result = subprocess.run(
        [systemd_analyze(), "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    if "--offline" in result.stderr and "unrecognized option" in result.stderr:
        pytest.skip("this systemd-analyze predates --offline (systemd 250)")
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1)), result.stdout


def test_the_hardening_scores_at_most_two(tmp_path: Path) -> None:
    level, report = exposure_level(UNIT)
    assert level <= EXPOSURE_GOAL, report


def verify_in_root(
    unit_text: str, root: Path, name: str = "codenames-table.service"
) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` of `unit_text` installed in a scratch root.

    verify insists that ExecStart= names an executable, and /opt/codenames-table does not
    exist off the Pi; `--man=no` would not help (it only skips Documentation= man pages).
    So the unit is checked with `--root` on a tree that holds it, a stub executable at the
    installed path, and a copy of the host's own units (the targets it orders against).
    """
    stub = root / "opt/codenames-table/bin/codenames-table"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    (units / name).write_text(unit_text)
    copied: set[Path] = set()
    for system_units in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")):
        # On merged-/usr systems both name one directory: copy it once, where it really is.
        real = system_units.resolve()
        if real.is_dir() and real not in copied:
            copied.add(real)
            shutil.copytree(real, root / real.relative_to("/"), symlinks=True)
    return subprocess.run(
        [
            systemd_analyze(),
            "verify",
            f"--root={root}",
            "--man=no",
            f"/etc/systemd/system/{name}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def test_systemd_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    result = verify_in_root(UNIT.read_text(encoding="utf-8"), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


def test_systemd_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    # The harness itself can fail: verify exits 0 on a bad value, so the output is what counts.
    broken = UNIT.read_text(encoding="utf-8").replace("WatchdogSec=10", "WatchdogSec=ten")
    result = verify_in_root(broken, tmp_path)
    # systemd 252 (Bookworm) says "Failed to parse sec value, ignoring: ten", 257 (Trixie)
    # "Failed to parse WatchdogSec=ten, ignoring: Invalid argument".
    said = result.stdout + result.stderr
    assert re.search(r"Failed to parse (sec value, ignoring: ten|WatchdogSec=ten, ignoring)", said)


MDWE_RUN = """
import ctypes, mmap, sys
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1
if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
    sys.exit(77)
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    sys.exit("writable and executable memory is still allowed")
except PermissionError:
    pass
from firmware.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_table_runs_without_writable_executable_memory(tmp_path: Path) -> None:
    # MemoryDenyWriteExecute=yes in the unit: the kernel's own switch for it (Linux 6.3) lets
    # the whole table, Pillow and SQLite included, play a script under the same restriction.
    script = tmp_path / "play.txt"
    script.write_text(f"{KEY_LINE}\nturn +1\npush\npress A1\ndump\n")
    result = subprocess.run(
        [sys.executable, "-c", MDWE_RUN, "sim", "--headless", "--script", str(script)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=60,
    )
    if result.returncode == 77:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3 or later)")
    assert result.returncode == 0, result.stderr
    assert '"covered": {"A1": "red"}' in result.stdout


# --- READY and WATCHDOG from the game loop, on a real notify socket ---


class Receiver(NamedTuple):
    """systemd's end of the notify socket, and the `$NOTIFY_SOCKET` that names it."""

    sock: socket.socket
    address: str


@pytest.fixture
def notify_socket() -> Iterator[Receiver]:
    name = f"codenames-table-test/{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(RECEIVE_TIMEOUT_S)
        yield Receiver(sock, "@" + name)


def notifier_for(receiver: Receiver, watchdog_usec: int) -> SystemdNotifier:
    env = {"NOTIFY_SOCKET": receiver.address, "WATCHDOG_USEC": str(watchdog_usec)}
    return SystemdNotifier.from_environment(env)


def test_the_watchdog_is_fed_from_the_game_loop_thread(
    notify_socket: Receiver, virtual_table: TableFactory
) -> None:
    stop = threading.Event()
    feeders: set[int] = set()
    with (
        virtual_table(config=TableConfig(), seed=1) as vt,
        notifier_for(notify_socket, watchdog_usec=40_000) as notifier,
    ):
        feed = WatchdogFeeder(notifier, heartbeat_s=0.02)

        def heartbeat() -> None:
            feeders.add(threading.get_ident())
            feed()

        loop = threading.Thread(
            target=vt.table.run_forever, args=(stop, heartbeat, 0.02), name="game loop"
        )
        loop.start()
        try:
            # Nothing is posted: only the loop's own idle heartbeats can send these.
            received = [notify_socket.sock.recv(64) for _ in range(3)]
        finally:
            stop.set()
            loop.join(timeout=RECEIVE_TIMEOUT_S)
    assert received == [b"WATCHDOG=1"] * 3
    assert not loop.is_alive()
    assert feeders == {loop.ident}


def test_serve_says_ready_after_the_table_resumed_then_feeds_the_watchdog(
    tmp_path: Path, notify_socket: Receiver, virtual_table: TableFactory
) -> None:
    with virtual_table(config=TableConfig(), seed=1) as vt:
        vt.turn(1)
        vt.push()  # one saved action, so that the status names it
    stop = threading.Event()
    # A new table on the same state directory resumes the saved game as it is built.
    with (
        VirtualTable(TableConfig(), tmp_path, rng=random.Random(1)) as vt,
        notifier_for(notify_socket, watchdog_usec=60_000) as notifier,
    ):
        assert len(vt.table.game.applied) == 1
        loop = threading.Thread(target=serve, args=(vt.table, stop, notifier))
        loop.start()
        try:
            first = notify_socket.sock.recv(256)
            beats = [notify_socket.sock.recv(64) for _ in range(2)]
        finally:
            stop.set()
            loop.join(timeout=RECEIVE_TIMEOUT_S)
    assert first == b"READY=1\nSTATUS=playing; actions in the current game: 1"
    assert beats == [b"WATCHDOG=1"] * 2
    assert not loop.is_alive()


def test_sigterm_sends_stopping_at_once_and_ends_the_loop(notify_socket: Receiver) -> None:
    stop = threading.Event()
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    with notifier_for(notify_socket, watchdog_usec=10_000_000) as notifier:
        try:
            install_stop_handlers(stop, notifier)
            os.kill(os.getpid(), signal.SIGTERM)
            # Python runs the handler on this (the main) thread at the next bytecode.
            assert stop.wait(RECEIVE_TIMEOUT_S)
            message = notify_socket.sock.recv(256)
            os.kill(os.getpid(), signal.SIGINT)  # a second signal says nothing more
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    assert message == b"STOPPING=1\nSTATUS=stopping on SIGTERM"
    notify_socket.sock.setblocking(False)
    with pytest.raises(BlockingIOError):
        notify_socket.sock.recv(256)


def test_run_outside_a_pi_still_exits_2_and_points_to_sim(tmp_path: Path) -> None:
    args = Namespace(config=None, state_dir=tmp_path, lang=None)
    with pytest.raises(UsageError, match="codenames-table sim"):
        run_table(args, model_file=tmp_path / "no-model")


def test_run_on_a_pi_with_a_bad_config_exits_2_naming_the_key(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\0", encoding="ascii")
    config = tmp_path / "config.toml"
    config.write_text("[table]\nlanguage = 'fr'\n", encoding="utf-8")
    args = Namespace(config=config, state_dir=tmp_path, lang=None)
    with pytest.raises(UsageError, match=r"table\.language"):  # before any hardware is opened
        run_table(args, model_file=model)


# --- install and uninstall scripts ---


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL, PI_USERLAND], ids=lambda p: p.name)
def test_the_scripts_are_shellcheck_clean(script: Path) -> None:
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run([tool, str(script)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_check_names_i2c_and_spi_when_they_are_not_enabled(tmp_path: Path) -> None:
    needs_root()
    root = fake_pi(tmp_path, devices=("gpiochip0",), user_groups=None)
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert missing_lines(result.stdout) == [
        "MISSING: I2C is not enabled: the OLED stays dark (no /dev/i2c-1)",
        "MISSING: SPI is not enabled: the LED key stays dark (no /dev/spidev0.0)",
    ]
    assert "fix: sudo raspi-config nonint do_i2c 0" in result.stdout
    assert "fix: sudo raspi-config nonint do_spi 0" in result.stdout
    assert "dtparam=i2c_arm=on" in result.stdout
    assert "dtparam=spi=on" in result.stdout
    assert "ok: Raspberry Pi 4 Model B Rev 1.5" in result.stdout
    assert "== 2 thing(s) missing" in result.stdout


def test_check_passes_on_a_ready_pi(tmp_path: Path) -> None:
    needs_root()
    root = fake_pi(
        tmp_path, devices=("gpiochip0", "i2c-1", "spidev0.0"), user_groups=("gpio", "i2c", "spi")
    )
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert missing_lines(result.stdout) == []
    assert "ok: user codenames-table is in group spi" in result.stdout


def test_check_names_a_group_the_user_is_missing(tmp_path: Path) -> None:
    needs_root()
    root = fake_pi(
        tmp_path, devices=("gpiochip0", "i2c-1", "spidev0.0"), user_groups=("gpio", "i2c")
    )
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1
    assert missing_lines(result.stdout) == ["MISSING: user codenames-table is not in group spi"]
    assert "sudo usermod -aG spi codenames-table" in result.stdout


def test_check_says_when_this_is_not_a_pi(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, devices=("gpiochip0", "i2c-1", "spidev0.0"), user_groups=None)
    (root / "proc/device-tree/model").unlink()
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1
    assert "MISSING: not a Raspberry Pi (device tree model: none)" in result.stdout
    assert "codenames-table sim" in result.stdout


def test_check_says_when_it_is_not_run_as_root() -> None:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 and setpriv is None:
        pytest.skip("needs root and setpriv to run the check as another user")
    user = (
        (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
        if os.geteuid() == 0 and setpriv
        else ()
    )
    # A world-readable fake root and copy of the script, so that `nobody` can read them
    # wherever the checkout is (CI's clone may sit in a private directory).
    with tempfile.TemporaryDirectory() as directory:
        os.chmod(directory, 0o755)
        script = Path(directory) / "install.sh"
        shutil.copyfile(INSTALL, script)
        os.chmod(script, 0o644)
        root = fake_pi(
            Path(directory), devices=("gpiochip0", "i2c-1", "spidev0.0"), user_groups=None
        )
        result = run_script(script, "--check", root=root, user=user)
    assert result.returncode == 1
    assert "MISSING: not root: installing needs root" in result.stdout
    assert "fix: sudo make install" in result.stdout


def test_a_dry_run_installs_the_unit_user_venv_and_config_and_changes_nothing(
    tmp_path: Path,
) -> None:
    needs_root()
    root = fake_pi(tmp_path, devices=("gpiochip0", "i2c-1", "spidev0.0"), user_groups=None)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    commands = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert any(c.startswith("useradd --system") and "--groups gpio,i2c,spi" in c for c in commands)
    # The version gets a folder of its own, and /opt/codenames-table is switched to it.
    venv = next(c for c in commands if c.startswith("python3 -m venv "))
    version = venv.removeprefix(f"python3 -m venv {root}")
    assert re.fullmatch(r"/opt/codenames-table-versions/0\.\d+\.\d+-\d{8}T\d{6}", version)
    link = f"ln -sfn /opt/codenames-table/bin/codenames-table {root}/usr/local/bin/codenames-table"
    assert link in commands
    assert any(
        c.endswith("[pi-ws281x]") and f"{root}{version}/bin/pip install" in c for c in commands
    )
    switch = commands.index(f"ln -sfn {version} {root}/opt/codenames-table.partial")
    assert commands[switch + 1] == (
        f"mv -Tf {root}/opt/codenames-table.partial {root}/opt/codenames-table"
    )
    assert (
        f"install -m 0644 {REPO}/config.example.toml {root}/etc/codenames-table/config.toml"
        in commands
    )
    assert commands[-3:] == [
        "systemctl daemon-reload",
        "systemctl enable codenames-table",
        "systemctl restart codenames-table",
    ]
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_a_real_install_refuses_a_fake_root(tmp_path: Path) -> None:
    result = run_script(INSTALL, root=tmp_path)
    assert result.returncode == 2
    assert "--check and --dry-run only" in result.stderr


def installed(root: Path, config: str) -> Path:
    version = root / "opt/codenames-table-versions/0.1.0-20260101T000000"
    share = version / "share/codenames-table"
    share.mkdir(parents=True)
    (root / "opt/codenames-table").symlink_to(version)
    shutil.copy(REPO / "config.example.toml", share / "config.example.toml")
    (root / "etc/codenames-table").mkdir(parents=True)
    (root / "etc/codenames-table/config.toml").write_text(config)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/codenames-table.service").touch()
    (root / "var/lib/codenames-table").mkdir(parents=True)
    (root / "etc/passwd").write_text("codenames-table:x:990:990::/nonexistent:/usr/sbin/nologin\n")
    (root / "usr/local/bin").mkdir(parents=True)
    (root / "usr/local/bin/codenames-table").symlink_to("/opt/codenames-table/bin/codenames-table")
    return root


def test_uninstall_removes_all_but_the_saved_games(tmp_path: Path) -> None:
    example = (REPO / "config.example.toml").read_text()
    root = installed(tmp_path, example)
    result = run_script(UNINSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stderr
    commands = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert commands == [
        "systemctl disable --now codenames-table",
        f"rm -f {root}/etc/systemd/system/codenames-table.service",
        "systemctl daemon-reload",
        "systemctl reset-failed codenames-table",
        f"rm -f {root}/etc/codenames-table/config.toml",
        f"rmdir --ignore-fail-on-non-empty {root}/etc/codenames-table",
        f"rm -f {root}/usr/local/bin/codenames-table",
        f"rm -f {root}/opt/codenames-table",
        f"rm -rf {root}/opt/codenames-table-versions",
        "userdel codenames-table",
    ]
    assert f"kept the saved games in {root}/var/lib/codenames-table" in result.stdout


def test_uninstall_keeps_a_config_that_was_changed(tmp_path: Path) -> None:
    example = (REPO / "config.example.toml").read_text()
    root = installed(tmp_path, example.replace('language = "en"', 'language = "pt"'))
    result = run_script(UNINSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stderr
    assert "config.toml" not in "".join(
        line for line in result.stdout.splitlines() if line.startswith("+ ")
    )
    assert "keeping" in result.stdout and "your settings" in result.stdout


def test_make_has_install_and_uninstall_targets() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    result = subprocess.run(
        # Under `make test` the inner make would also print its directory changes.
        [make, "--no-print-directory", "-n", "install", "uninstall"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines()[-2:] == ["sh systemd/install.sh", "sh systemd/uninstall.sh"]
