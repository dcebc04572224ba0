"""install.sh on a fresh 64-bit Pi and on a protected SD card: the config.txt lines each model
needs, the system packages it needs, the
pinned versions it installs, the config it checks before a restart, the state folder it checks
for persistence and makes writable, what uninstall.sh leaves; and state_dir.py, which reads the
state folder from a config. Every Pi is a fake root of plain files (tests/fake_pi_root.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from firmware.table.config import DEFAULT_STATE_DIR

from ..fake_pi_root import (
    APT_PACKAGES,
    READY_CONFIG_TXT,
    SD_CARD,
    commands,
    dpkg_status,
    missing_lines,
    needs_root,
    ready_pi,
    run_script,
)
from ..paths import REPO

INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
STATE_DIR_PY = REPO / "systemd" / "state_dir.py"
CONSTRAINTS = REPO / "systemd" / "pi-constraints.txt"
COMMAND = "opt/codenames-table/bin/codenames-table"
CONFIG = "etc/codenames-table/config.toml"
DROPIN = "etc/systemd/system/codenames-table.service.d/state-dir.conf"
# raspi-config's overlay (overlayroot=tmpfs): the card read-only below, changes in RAM above.
OVERLAY_ROOT = (
    "/dev/mmcblk0p2 /media/root-ro ext4 ro,relatime 0 0\n"
    "tmpfs-root /media/root-rw tmpfs rw,relatime 0 0\n"
    "overlayroot / overlay rw,relatime,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,"
    "workdir=/media/root-rw/overlay-workdir 0 0\n"
    "/dev/mmcblk0p1 /boot/firmware vfat ro,relatime 0 0\n"
)
DATA_PARTITION = "/dev/mmcblk0p3 /data ext4 rw,noatime 0 0\n"
# overlayroot's default recurse=1 lays a RAM overlay over every other mount in fstab too.
DATA_IN_RAM = "overlayroot /data overlay rw,lowerdir=/media/root-ro/data,upperdir=/x 0 0\n"


def with_config(root: Path, text: str) -> Path:
    (root / CONFIG).parent.mkdir(parents=True, exist_ok=True)
    (root / CONFIG).write_text(text)
    return root


def with_checker(root: Path, *, refuses: str | None) -> Path:
    """An installed table whose `run --check-config` refuses the config with `refuses`, or
    accepts it; it records how it was called in check-config.args."""
    command = root / COMMAND
    command.parent.mkdir(parents=True)
    exit_line = f"echo '{refuses}' >&2; exit 2" if refuses else "exit 0"
    command.write_text(f'#!/bin/sh\necho "$@" >"{root}/check-config.args"\n{exit_line}\n')
    command.chmod(0o755)
    return root


# --- system packages ---


def test_check_names_the_system_packages_that_are_missing(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, packages=("python3-venv", "libc6-dev"))
    # A package removed but for its config files is not installed.
    status = root / "var/lib/dpkg/status"
    status.write_text(status.read_text() + "\n" + dpkg_status((), removed=("gcc",)))
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert missing_lines(result.stdout) == [
        "MISSING: system packages the pi-ws281x extra needs: python3-dev gcc"
    ]
    assert "fix: sudo apt-get install python3-dev gcc" in result.stdout


def test_check_passes_with_every_system_package(tmp_path: Path) -> None:
    needs_root()
    result = run_script(INSTALL, "--check", root=ready_pi(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"ok: system packages: {' '.join(APT_PACKAGES)}" in result.stdout


def test_a_dry_run_installs_the_missing_packages_first(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, packages=("python3-venv",))
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    run = commands(result.stdout)
    assert run[:2] == [
        "apt-get update",
        "env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends"
        " python3-dev gcc libc6-dev",
    ]


def test_a_dry_run_with_every_package_runs_no_apt(tmp_path: Path) -> None:
    needs_root()
    result = run_script(INSTALL, "--dry-run", root=ready_pi(tmp_path))
    assert not [c for c in commands(result.stdout) if "apt-get" in c]


# --- the LED backend: by the model, unless the config names one ---

MODEL_BACKENDS = [
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "ws281x"),
    ("Raspberry Pi 4 Model B Rev 1.5", "ws281x"),
    ("Raspberry Pi 400 Rev 1.1", "ws281x"),
    ("Raspberry Pi Compute Module 4 Rev 1.1", "ws281x"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "ws281x"),
    ("Raspberry Pi 5 Model B Rev 1.0", "spi"),
    ("Raspberry Pi 500 Rev 1.0", "spi"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "spi"),
    ("Raspberry Pi Model B Rev 2", "spi"),
]
"""The device-tree models and the backend `auto` makes of each (rpi-ws281x knows the Pi 3 to
4; the Pi 5 family and models it does not know get neopixel-spi)."""


def pip_install(output: str) -> str:
    pip = [
        c
        for c in commands(output)
        if "/opt/codenames-table-versions/" in c and "/bin/pip install" in c
    ]
    assert len(pip) == 1, output
    return pip[0]


@pytest.mark.parametrize(("model", "backend"), MODEL_BACKENDS)
def test_the_model_picks_the_led_backend_and_its_extra(
    tmp_path: Path, model: str, backend: str
) -> None:
    needs_root()
    root = ready_pi(tmp_path, model=model)
    check = run_script(INSTALL, "--check", root=root)
    library = {"ws281x": "rpi-ws281x", "spi": "neopixel-spi"}[backend]
    assert f"ok: LED key: the {backend} backend ({library}), the default for {model}" in (
        check.stdout
    )
    dry = run_script(INSTALL, "--dry-run", root=root)
    assert pip_install(dry.stdout).endswith(f"[pi-{backend}]")


def test_a_pi_5_installs_no_compiler(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0", packages=("python3-venv",))
    check = run_script(INSTALL, "--check", root=root)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "ok: system packages: python3-venv\n" in check.stdout
    dry = run_script(INSTALL, "--dry-run", root=root)
    assert not [c for c in commands(dry.stdout) if "apt-get" in c]
    assert pip_install(dry.stdout).endswith("[pi-spi]")


def test_a_pi_4_needs_the_compiler_for_rpi_ws281x(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, packages=("python3-venv",))
    result = run_script(INSTALL, "--check", root=root)
    assert missing_lines(result.stdout) == [
        "MISSING: system packages the pi-ws281x extra needs: python3-dev gcc libc6-dev"
    ]


def test_the_configs_backend_wins_over_the_models(tmp_path: Path) -> None:
    needs_root()
    root = with_config(
        ready_pi(tmp_path, packages=("python3-venv",)), '[pins.led]\nbackend = "spi"\n'
    )
    check = run_script(INSTALL, "--check", root=root)
    assert check.returncode == 0, check.stdout + check.stderr
    assert (
        f"ok: LED key: the spi backend (neopixel-spi), [pins.led] backend in {root}/{CONFIG}"
        in (check.stdout)
    )
    assert pip_install(run_script(INSTALL, "--dry-run", root=root).stdout).endswith("[pi-spi]")


def test_auto_in_the_config_is_the_models_choice(tmp_path: Path) -> None:
    needs_root()
    root = with_config(ready_pi(tmp_path), '[pins.led]\nbackend = "auto"\n')
    dry = run_script(INSTALL, "--dry-run", root=root)
    assert pip_install(dry.stdout).endswith("[pi-ws281x]")


def test_ws281x_on_a_pi_5_is_named_and_the_spi_extra_installed(tmp_path: Path) -> None:
    needs_root()
    root = with_config(
        ready_pi(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0"),
        '[pins.led]\nbackend = "ws281x"\n',
    )
    check = run_script(INSTALL, "--check", root=root)
    assert check.returncode == 1
    assert missing_lines(check.stdout) == [
        'MISSING: [pins.led] backend = "ws281x" cannot drive the LED key of a Raspberry Pi 5 '
        "Model B: rpi-ws281x does not know this model"
    ]
    assert 'fix: set backend = "spi" (or "auto") under [pins.led]' in check.stdout
    assert pip_install(run_script(INSTALL, "--dry-run", root=root).stdout).endswith("[pi-spi]")


@pytest.mark.parametrize(
    "model", ["Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi 5 Model B Rev 1.0"]
)
def test_check_names_the_spi_line_of_config_txt(tmp_path: Path, model: str) -> None:
    needs_root()
    root = ready_pi(
        tmp_path, model=model, config_txt=READY_CONFIG_TXT.replace("dtparam=spi=on", "")
    )
    result = run_script(INSTALL, "--check", root=root)
    backend = "ws281x" if "Pi 4" in model else "spi"
    short_model = model.split(" Rev ", maxsplit=1)[0]
    assert missing_lines(result.stdout) == [
        f"MISSING: config.txt has no dtparam=spi=on for this {short_model}: the "
        f"{backend} LED backend sends the key's data on SPI0"
    ]
    assert "printf '[all]\\ndtparam=spi=on\\n[all]\\n' | sudo tee -a" in result.stdout


def test_a_trixie_pi_passes_the_check(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0")
    (root / "etc/os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_ID="13"\nVERSION_CODENAME=trixie\n'
    )
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: Debian GNU/Linux 13 (trixie)" in result.stdout


# --- pinned versions ---


def test_pip_installs_with_the_constraints(tmp_path: Path) -> None:
    needs_root()
    result = run_script(INSTALL, "--dry-run", root=ready_pi(tmp_path))
    pip = [c for c in commands(result.stdout) if "/bin/pip install" in c]
    assert len(pip) == 1
    assert f"--constraint {CONSTRAINTS} " in pip[0]
    assert pip[0].endswith("[pi-ws281x]")


def pinned() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line)
        assert match, f"not an exact pin: {line!r}"
        pins[canonicalize_name(match.group(1))] = Version(match.group(2))
    return pins


def pi_requirements(python: str) -> list[Requirement]:
    """The project's dependencies and its `pi` extra's, the extras it names followed, as pip
    sees them on a 64-bit Pi's `python` (3.11: Bookworm, 3.13: Trixie)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    found = [Requirement(spec) for spec in project["dependencies"]]
    todo, seen = ["pi"], set()
    while todo:
        extra = todo.pop()
        seen.add(extra)
        for spec in extras[extra]:
            requirement = Requirement(spec)
            if canonicalize_name(requirement.name) == project["name"]:
                todo += sorted(requirement.extras - seen)
            elif requirement.marker is None or requirement.marker.evaluate(
                {"python_version": python, "platform_machine": "aarch64", "sys_platform": "linux"}
            ):
                found.append(requirement)
    return found


@pytest.mark.parametrize("python", ["3.11", "3.13"])
def test_the_constraints_pin_every_dependency_of_the_pi_install_within_its_range(
    python: str,
) -> None:
    pins = pinned()
    requirements = pi_requirements(python)
    assert {"rpi-ws281x", "adafruit-circuitpython-neopixel-spi"} <= {
        canonicalize_name(r.name) for r in requirements
    }
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned"
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])


def test_python_3_13_gets_a_gpio_library_with_a_wheel() -> None:
    # lgpio has no aarch64 wheel for 3.13 and its source build needs swig; adafruit-lgpio is
    # the same module, built.
    assert {canonicalize_name(r.name) for r in pi_requirements("3.13")} >= {"adafruit-lgpio"}
    assert "lgpio" not in {canonicalize_name(r.name) for r in pi_requirements("3.13")}
    assert "lgpio" in {canonicalize_name(r.name) for r in pi_requirements("3.11")}


def test_the_constraints_include_what_the_pi_libraries_pull_in() -> None:
    # Blinka (under board, busio and neopixel_spi) brings its platform detection and sysv-ipc.
    assert {"adafruit-blinka", "adafruit-platformdetect", "sysv-ipc"} <= pinned().keys()


# --- the config, checked before a restart ---


def test_an_update_onto_a_refused_config_does_not_restart(tmp_path: Path) -> None:
    needs_root()
    root = with_checker(
        with_config(ready_pi(tmp_path), "[table]\nlanguage = 'fr'\n"),
        refuses=f"{tmp_path}/{CONFIG}:2: table.language: 'fr' is not one of en, es, pt, it",
    )
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 1
    assert (root / "check-config.args").read_text().split() == [
        "run",
        "--check-config",
        "--config",
        str(root / CONFIG),
    ]
    assert "Not restarting" in result.stderr
    assert "exit 2:" in result.stderr and "table.language" in result.stderr
    assert "left as it is" in result.stderr
    assert not [c for c in commands(result.stdout) if c.startswith("systemctl")]


def test_an_update_onto_an_accepted_config_restarts(tmp_path: Path) -> None:
    needs_root()
    root = with_checker(with_config(ready_pi(tmp_path), "[table]\n"), refuses=None)
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (root / "check-config.args").exists()
    assert commands(result.stdout)[-1] == "systemctl restart codenames-table"


def test_check_reports_a_config_the_installed_table_refuses(tmp_path: Path) -> None:
    needs_root()
    root = with_checker(
        with_config(ready_pi(tmp_path), "[oled]\ncontrast = 300\n"),
        refuses="config.toml:2: oled.contrast: must be 0-255",
    )
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1
    assert missing_lines(result.stdout) == [
        f"MISSING: the installed table refuses {root / CONFIG} "
        "(exit 2: config.toml:2: oled.contrast: must be 0-255)"
    ]


# --- the SD card: overlay and persistent state folder ---


def test_check_says_an_sd_card_written_in_place_is_not_protected(tmp_path: Path) -> None:
    needs_root()
    result = run_script(INSTALL, "--check", root=ready_pi(tmp_path))
    assert result.returncode == 0
    assert "note: not protected: the root file system (/dev/mmcblk0p2, ext4)" in result.stdout
    assert (
        f"ok: saved games in {DEFAULT_STATE_DIR}: persistent (/dev/mmcblk0p2, ext4, on /)"
        in result.stdout
    )


def test_the_overlay_root_protects_the_card_but_would_keep_the_games_in_ram(
    tmp_path: Path,
) -> None:
    needs_root()
    result = run_script(INSTALL, "--check", root=ready_pi(tmp_path, mounts=OVERLAY_ROOT))
    assert result.returncode == 1
    assert "ok: protected: the root file system is a read-only overlay" in result.stdout
    assert missing_lines(result.stdout) == [
        f"MISSING: the saved games in {DEFAULT_STATE_DIR} would be in the overlay's RAM (/) and "
        "lost at every power-off"
    ]
    assert "overlayroot=tmpfs:recurse=0" in result.stdout


def test_the_overlay_root_with_the_games_on_their_own_partition_passes(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, mounts=OVERLAY_ROOT + DATA_PARTITION)
    with_config(root, '[table]\nstate_dir = "/data/codenames-table/"\n')
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 0, result.stdout
    assert "ok: protected" in result.stdout
    assert (
        "ok: saved games in /data/codenames-table: persistent (/dev/mmcblk0p3, ext4, on /data)"
        in result.stdout
    )


def test_a_partition_the_overlay_also_covers_is_in_ram(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, mounts=OVERLAY_ROOT + DATA_PARTITION + DATA_IN_RAM)
    with_config(root, '[table]\nstate_dir = "/data/codenames-table"\n')
    result = run_script(INSTALL, "--check", root=root)
    assert result.returncode == 1
    assert missing_lines(result.stdout) == [
        "MISSING: the saved games in /data/codenames-table would be in the overlay's RAM (/data) "
        "and lost at every power-off"
    ]


@pytest.mark.parametrize(
    ("state_dir", "mounts", "says"),
    [
        ("/run/games", SD_CARD, "state_dir /run/games is emptied at boot"),
        ("/tmp/games", SD_CARD, "state_dir /tmp/games is emptied at boot"),
        ("games", SD_CARD, "state_dir games is not an absolute path"),
        ("/home/pi/games", SD_CARD, "which the service cannot see (ProtectHome=yes)"),
        (
            "/mnt/ram/games",
            SD_CARD + "ramdisk /mnt/ram tmpfs rw 0 0\n",
            "would be in RAM (tmpfs on /mnt/ram)",
        ),
    ],
)
def test_a_state_folder_lost_at_boot_is_refused(
    tmp_path: Path, state_dir: str, mounts: str, says: str
) -> None:
    needs_root()
    root = with_config(ready_pi(tmp_path, mounts=mounts), f'[table]\nstate_dir = "{state_dir}"\n')
    check = run_script(INSTALL, "--check", root=root)
    assert check.returncode == 1
    [line] = missing_lines(check.stdout)
    assert says in line
    dry_run = run_script(INSTALL, "--dry-run", root=root)
    assert "Cannot install" in dry_run.stderr


def test_a_read_only_state_partition_is_named(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, mounts=SD_CARD + "/dev/mmcblk0p3 /data ext4 ro,noatime 0 0\n")
    with_config(root, '[table]\nstate_dir = "/data/games"\n')
    result = run_script(INSTALL, "--check", root=root)
    assert missing_lines(result.stdout) == [
        "MISSING: /data/games is on a read-only mount (/dev/mmcblk0p3 on /data): "
        "nothing can be saved"
    ]


def test_installing_under_the_overlay_is_refused(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path, mounts=OVERLAY_ROOT + DATA_PARTITION)
    with_config(root, '[table]\nstate_dir = "/data/codenames-table"\n')
    result = run_script(INSTALL, "--dry-run", root=root)
    assert "MISSING: the read-only overlay is on: an install would vanish" in result.stdout
    assert "Cannot install" in result.stderr


def test_a_state_folder_of_its_own_is_made_writable_through_a_drop_in(tmp_path: Path) -> None:
    needs_root()
    root = with_config(ready_pi(tmp_path, mounts=SD_CARD + DATA_PARTITION), "")
    (root / CONFIG).write_text('[table]\nstate_dir = "/data/codenames-table"\n')
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    run = commands(result.stdout)
    assert f"install -d -m 0700 {root}/data/codenames-table" in run
    assert f"chown -R codenames-table:codenames-table {root}/data/codenames-table" in run
    assert f"(write {root / DROPIN})" in run
    written = result.stdout.split(f"+ (write {root / DROPIN})\n", 1)[1]
    assert "    [Service]\n    ReadWritePaths=/data/codenames-table\n" in written
    # The unit reloads after the drop-in is in place.
    assert run.index(f"(write {root / DROPIN})") < run.index("systemctl daemon-reload")


def test_the_drop_in_goes_when_the_games_return_to_the_default_folder(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path)
    (root / DROPIN).parent.mkdir(parents=True)
    (root / DROPIN).write_text("[Service]\nReadWritePaths=/data/codenames-table\n")
    result = run_script(INSTALL, "--dry-run", root=root)
    run = commands(result.stdout)
    assert f"rm -f {root / DROPIN}" in run
    assert not [c for c in run if c.startswith("chown")]


def test_systemd_accepts_the_drop_in(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (it is on the Pi and on Debian)")
    needs_root()
    fake = ready_pi(tmp_path / "pi", mounts=SD_CARD + DATA_PARTITION)
    with_config(fake, '[table]\nstate_dir = "/data/codenames-table"\n')
    output = run_script(INSTALL, "--dry-run", root=fake).stdout
    written = output.split(f"+ (write {fake / DROPIN})\n", 1)[1].split("\n+ ", 1)[0]
    root = tmp_path / "root"
    (root / "etc/systemd/system/codenames-table.service.d").mkdir(parents=True)
    shutil.copy(REPO / "systemd/codenames-table.service", root / "etc/systemd/system")
    dropin = re.sub(r"^    ", "", written, flags=re.MULTILINE)
    (root / DROPIN).write_text(dropin)
    (root / "data/codenames-table").mkdir(parents=True)
    result = subprocess.run(
        [tool, "cat-config", f"--root={root}", "systemd/system/codenames-table.service"],
        capture_output=True,
        text=True,
        check=False,
    )
    # cat-config lists the unit, then each drop-in of it that systemd would read.
    assert "ReadWritePaths=/data/codenames-table" in result.stdout, result.stderr


# --- uninstall ---


def test_uninstall_names_the_folder_the_orphaned_uid_and_the_command(tmp_path: Path) -> None:
    root = tmp_path
    (root / "etc").mkdir()
    (root / "etc/passwd").write_text("codenames-table:x:990:990::/nonexistent:/usr/sbin/nologin\n")
    with_config(root, '[table]\nstate_dir = "/data/codenames-table"\n')
    (root / "data/codenames-table").mkdir(parents=True)
    (root / DROPIN).parent.mkdir(parents=True)
    (root / DROPIN).write_text("[Service]\n")
    result = run_script(UNINSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stderr
    assert f"rm -f {root / DROPIN}" in commands(result.stdout)
    assert f"kept the saved games in {root}/data/codenames-table" in result.stdout
    assert "uid 990" in result.stdout
    assert f"sudo rm -rf {root}/data/codenames-table" in result.stdout


# --- state_dir.py ---


def state_dir_of(tmp_path: Path, text: bytes | None) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config.toml"
    if text is not None:
        config.write_bytes(text)
    return subprocess.run(
        [sys.executable, str(STATE_DIR_PY), str(config)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_state_dir_py_has_the_firmwares_default(tmp_path: Path) -> None:
    for text in (None, b"[table]\nlanguage = 'it'\n"):
        result = state_dir_of(tmp_path, text)
        assert (result.returncode, result.stdout) == (0, f"{DEFAULT_STATE_DIR}\n")


def test_state_dir_py_reads_a_byte_order_mark_and_normalises(tmp_path: Path) -> None:
    result = state_dir_of(tmp_path, b'\xef\xbb\xbf[table]\nstate_dir = "/data//games/"\n')
    assert (result.returncode, result.stdout) == (0, "/data/games\n")


@pytest.mark.parametrize(
    "text",
    [b"\xff", b"[table\n", b'[table]\nstate_dir = "a\\nb"\n', b"[table]\nstate_dir = 3\n"],
)
def test_state_dir_py_refuses_what_is_no_path_in_one_line(tmp_path: Path, text: bytes) -> None:
    result = state_dir_of(tmp_path, text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(tmp_path / "config.toml") in result.stderr


# --- make pi-userland ---


def test_pi_userland_is_a_make_target_outside_make_test() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")

    def dry(target: str) -> str:
        return subprocess.run(
            [make, "--no-print-directory", "-n", target],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    assert dry("pi-userland").splitlines()[-1].startswith("sh systemd/pi_userland.sh")
    assert "pi_userland" not in dry("test")


# --- config.txt: the I2C speed and, per model, the fixed core clock the LED key's SPI needs ---

PI_3 = "Raspberry Pi 3 Model B Rev 1.2"
ZERO_2 = "Raspberry Pi Zero 2 W Rev 1.0"
PI_5 = "Raspberry Pi 5 Model B Rev 1.0"


def check_boot(tmp_path: Path, model: str, config_txt: str | None) -> tuple[str, list[str]]:
    needs_root()
    root = ready_pi(tmp_path / "pi", model=model, config_txt=config_txt)
    result = run_script(INSTALL, "--check", root=root)
    return result.stdout, missing_lines(result.stdout)


@pytest.mark.parametrize("model", ["Raspberry Pi 4 Model B Rev 1.5", PI_3, ZERO_2, PI_5])
def test_the_readme_lines_pass_on_every_model(tmp_path: Path, model: str) -> None:
    out, missing = check_boot(tmp_path, model, READY_CONFIG_TXT)
    assert missing == []
    assert "ok: config.txt: dtparam=i2c_arm_baudrate=400000" in out


def test_a_pi_4_without_a_fixed_core_clock_is_told_the_lines_to_add(tmp_path: Path) -> None:
    out, missing = check_boot(
        tmp_path,
        "Raspberry Pi 4 Model B Rev 1.5",
        "dtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n",
    )
    assert len(missing) == 2
    assert "no core_freq=500 for this Raspberry Pi 4 Model B" in missing[0]
    assert "no core_freq_min=500" in missing[1]
    assert (
        "printf '[pi4]\\ncore_freq_min=500\\n[all]\\n' | sudo tee -a /boot/firmware/config.txt"
        in out
    )


@pytest.mark.parametrize(("model", "section"), [(PI_3, "pi3"), (ZERO_2, "pi02")])
def test_a_pi_3_or_zero_2_needs_core_freq_250(tmp_path: Path, model: str, section: str) -> None:
    out, missing = check_boot(tmp_path, model, "dtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n")
    assert len(missing) == 1
    assert "no core_freq=250" in missing[0]
    assert f"printf '[{section}]\\ncore_freq=250\\n[all]\\n'" in out


def test_a_line_in_another_models_section_does_not_count(tmp_path: Path) -> None:
    text = "dtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n[pi4]\ncore_freq=250\n[all]\n"
    _, missing = check_boot(tmp_path, PI_3, text)
    assert len(missing) == 1
    assert "no core_freq=250" in missing[0]


def test_the_zero_2_reads_the_pi0_section_too(tmp_path: Path) -> None:
    text = "dtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n[pi0]\ncore_freq=250\n"
    assert check_boot(tmp_path, ZERO_2, text)[1] == []


def test_a_wrong_value_is_named_and_the_last_line_wins(tmp_path: Path) -> None:
    text = (
        "dtparam=spi=on\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000  # fast mode\n"
        "[pi4]\ncore_freq=500\ncore_freq_min=500\ncore_freq_min=250\n"
        "[all]\ndtparam=i2c_arm_baudrate=100000\n"
    )
    _, missing = check_boot(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", text)
    assert missing == [
        "MISSING: config.txt sets i2c_arm_baudrate to 100000 where this Raspberry Pi 4 Model B "
        "needs dtparam=i2c_arm_baudrate=400000: a full OLED frame is slow at the default 100 kHz",
        "MISSING: config.txt sets core_freq_min to 250 where this Raspberry Pi 4 Model B needs "
        "core_freq_min=500: idle frequency scaling moves the SPI clock and corrupts the LED "
        "colours",
    ]


def test_a_pi_5_needs_only_the_i2c_speed(tmp_path: Path) -> None:
    out, missing = check_boot(tmp_path, PI_5, "dtparam=spi=on\n")
    assert len(missing) == 1
    assert "no dtparam=i2c_arm_baudrate=400000" in missing[0]
    assert "printf '[all]\\ndtparam=i2c_arm_baudrate=400000\\n[all]\\n'" in out


def test_the_older_boot_folder_is_read_when_the_newer_is_absent(tmp_path: Path) -> None:
    needs_root()
    root = ready_pi(tmp_path / "pi", config_txt=None)
    (root / "boot").mkdir()
    (root / "boot/config.txt").write_text(READY_CONFIG_TXT.replace("core_freq_min=500", ""))
    result = run_script(INSTALL, "--check", root=root)
    assert [line for line in missing_lines(result.stdout)] == [
        "MISSING: config.txt has no core_freq_min=500 for this Raspberry Pi 4 Model B: idle "
        "frequency scaling moves the SPI clock and corrupts the LED colours"
    ]
    assert "sudo tee -a /boot/config.txt" in result.stdout


def test_a_pi_without_config_txt_is_told_so(tmp_path: Path) -> None:
    _, missing = check_boot(tmp_path, PI_3, None)
    assert len(missing) == 1
    assert "no /boot/firmware/config.txt or /boot/config.txt" in missing[0]


def test_a_section_under_another_condition_does_not_count(tmp_path: Path) -> None:
    text = "dtparam=spi=on\n[HDMI:0]\ndtparam=i2c_arm_baudrate=400000\n[pi3]\ncore_freq=250\n"
    _, missing = check_boot(tmp_path, PI_3, text)
    assert len(missing) == 1
    assert "i2c_arm_baudrate" in missing[0]
