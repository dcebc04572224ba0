"""A state folder on a file system kept in memory (devtmpfs, tmpfs, ramfs, an overlay) or on
one of the kernel's views is refused by `run` and `run --check-config` in one line, wherever it
is mounted: the saved games would not outlive a power-off."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cli.main import main
from firmware.service.state_dir import (
    VOLATILE_FILE_SYSTEMS,
    StateDirError,
    check_service_state_dir,
    mount_of,
)

MOUNTS = """\
/dev/root / ext4 rw,noatime 0 0
devtmpfs /dev devtmpfs rw,relatime,size=1k 0 0
/dev/mmcblk0p3 /srv/games\\040kept ext4 rw 0 0
tmpfs /srv/games\\040kept/cache tmpfs rw 0 0
"""


@pytest.mark.parametrize(
    ("path", "mount"),
    [
        ("/dev", ("/dev", "devtmpfs")),
        ("/dev/codenames/state", ("/dev", "devtmpfs")),
        ("/device", ("/", "ext4")),
        ("/srv/games kept/state", ("/srv/games kept", "ext4")),
        ("/srv/games kept/cache/state", ("/srv/games kept/cache", "tmpfs")),
    ],
)
def test_the_file_system_holding_a_folder_is_the_longest_mount_point_above_it(
    path: str, mount: tuple[str, str], tmp_path: Path
) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(MOUNTS)
    assert mount_of(Path(path), mounts) == mount


@pytest.mark.parametrize("kind", sorted(VOLATILE_FILE_SYSTEMS))
def test_every_volatile_file_system_is_refused(kind: str, tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(f"/dev/root / ext4 rw 0 0\nx /srv {kind} rw 0 0\n")
    with pytest.raises(StateDirError, match=f"/srv/games is on {kind} \\(/srv\\)"):
        check_service_state_dir(Path("/srv/games"), mounts)
    assert check_service_state_dir(Path("/var/lib/games"), mounts) == Path("/var/lib/games")


def test_unreadable_mounts_leave_the_folder_to_the_path_rules(tmp_path: Path) -> None:
    assert check_service_state_dir(Path("/srv/games"), tmp_path / "absent") == Path("/srv/games")


def test_state_dir_in_dev_is_refused_by_check_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    for folder in ("/dev", "/dev/codenames-table"):
        config.write_text(f'[table]\nstate_dir = "{folder}"\n')
        assert main(["run", "--check-config", "--config", str(config)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not survive a power-off" in err, err


@pytest.fixture
def ram_disk() -> Iterator[Path]:
    """A tmpfs mounted in a folder the path rules accept (not under /tmp), removed after."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs the tests as root)")
    # Outside the checkout, which may itself lie under /tmp (refused for its path already):
    # /mnt is where an administrator mounts things by hand.
    point = Path(tempfile.mkdtemp(prefix="codenames-test-ram-state-", dir="/mnt"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        shutil.rmtree(point)
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "--lazy", str(point)], check=False)
        shutil.rmtree(point)


def test_a_state_folder_on_a_ram_disk_is_refused_by_run_and_its_check(
    ram_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = ["--state-dir", str(ram_disk / "state")]
    assert main(["run", "--check-config", *state]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"is on tmpfs ({ram_disk})" in err, err
    assert not (ram_disk / "state").exists()
    # A demonstration on virtual hardware may keep its games in memory: its check says OK.
    assert main(["run", "--check-config", "--virtual", *state]) == 0
    assert "config OK" in capsys.readouterr().out
