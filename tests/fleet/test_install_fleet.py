"""install.sh and the fleet: the unit stays without network unless `[fleet]` is set, and then
may reach only the broker's addresses (and the local resolver)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ..fake_pi_root import commands, needs_root, ready_pi, run_script
from ..paths import REPO
from ..service.test_install import CONFIG, INSTALL, with_config

FLEET_DROPIN = "etc/systemd/system/codenames-table.service.d/fleet.conf"


def written(output: str, path: Path) -> str:
    """What a dry run shows it would write to `path`."""
    return output.split(f"+ (write {path})\n", 1)[1].split("\n+ ", 1)[0]


def test_a_configured_fleet_opens_only_the_brokers_address(tmp_path: Path) -> None:
    needs_root()
    root = with_config(
        ready_pi(tmp_path), '[fleet]\nbroker = "mqtt://127.0.0.1:1883"\ntable = "table-3"\n'
    )
    result = run_script(INSTALL, "--dry-run", root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    dropin = written(result.stdout, root / FLEET_DROPIN)
    assert "    PrivateNetwork=no\n" in dropin
    assert "    RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n" in dropin
    assert "    IPAddressDeny=any\n    IPAddressAllow=localhost 127.0.0.1 \n" in dropin
    # No password file was put in place: no credential, which would keep the unit from starting.
    assert "LoadCredential" not in dropin
    run = commands(result.stdout)
    assert run.index(f"(write {root / FLEET_DROPIN})") < run.index("systemctl daemon-reload")


def test_the_password_file_becomes_a_credential(tmp_path: Path) -> None:
    needs_root()
    root = with_config(ready_pi(tmp_path), '[fleet]\nbroker = "mqtts://[::1]"\ntable = "t"\n')
    (root / CONFIG).with_name("mqtt-password").write_text("secret\n")
    result = run_script(INSTALL, "--dry-run", root=root)
    dropin = written(result.stdout, root / FLEET_DROPIN)
    assert "IPAddressAllow=localhost ::1 \n" in dropin
    assert dropin.endswith("\n    LoadCredential=mqtt:/etc/codenames-table/mqtt-password")


def test_without_a_fleet_the_unit_stays_offline(tmp_path: Path) -> None:
    needs_root()
    root = with_config(ready_pi(tmp_path), "")
    result = run_script(INSTALL, "--dry-run", root=root)
    assert str(root / FLEET_DROPIN) not in result.stdout
    (root / FLEET_DROPIN).parent.mkdir(parents=True)
    (root / FLEET_DROPIN).write_text("[Service]\nPrivateNetwork=no\n")
    result = run_script(INSTALL, "--dry-run", root=root)
    assert f"rm -f {root / FLEET_DROPIN}" in commands(result.stdout)


def test_the_units_exposure_stays_low_with_the_fleet(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (it is on the Pi and on Debian)")
    needs_root()
    fake = with_config(
        ready_pi(tmp_path / "pi"), '[fleet]\nbroker = "mqtt://127.0.0.1"\ntable = "table-3"\n'
    )
    (fake / CONFIG).with_name("mqtt-password").write_text("secret\n")
    dropin = written(run_script(INSTALL, "--dry-run", root=fake).stdout, fake / FLEET_DROPIN)
    root = tmp_path / "root"
    units = root / "etc/systemd/system"
    (units / "codenames-table.service.d").mkdir(parents=True)
    shutil.copy(REPO / "systemd/codenames-table.service", units)

    def exposure() -> float:
        result = subprocess.run(
            [tool, "security", "--offline=true", f"--root={root}", "codenames-table.service"],
            capture_output=True,
            text=True,
            check=False,
        )
        found = re.search(
            r"Overall exposure level for codenames-table.service: ([\d.]+)", result.stdout
        )
        assert found, result.stdout + result.stderr
        return float(found[1])

    offline = exposure()
    (root / FLEET_DROPIN).write_text(re.sub(r"^    ", "", dropin, flags=re.MULTILINE) + "\n")
    fleet = exposure()
    # The README's figures: 0.6 without the fleet, 1.4 with it (the bound is 2.5).
    assert offline < fleet <= 2.5
