"""`make provision-test`'s preparation of the root, on a folder standing for one: the card's
files as cloud-init's NoCloud seed, the bundle on the boot partition, cloud-init on a fake Pi
and the table on virtual hardware."""

from __future__ import annotations

import stat
from pathlib import Path

import yaml

from tools.provision_test.__main__ import TEST_CLOUD_CFG, seed
from tools.service_test.checks import EXECUTABLE

MAIN_UNIT = "[Unit]\n[Service]\nExecStart=/usr/bin/cloud-init --all-stages\n"


def fake_root(tmp_path: Path, unit: str) -> tuple[Path, Path]:
    root, card = tmp_path / "root", tmp_path / "card"
    units = root / "usr/lib/systemd/system"
    units.mkdir(parents=True)
    (units / unit).write_text(MAIN_UNIT)
    card.mkdir()
    for name in ("user-data", "meta-data", "network-config", "codenames-table.tar.gz"):
        (card / name).write_text(f"{name}\n")
    return root, card


def test_the_card_becomes_the_nocloud_seed_and_the_boot_partition(tmp_path: Path) -> None:
    root, card = fake_root(tmp_path, "cloud-init-main.service")
    seed(root, card)
    for name in ("user-data", "meta-data", "network-config"):
        path = root / "var/lib/cloud/seed/nocloud" / name
        assert path.read_text() == f"{name}\n"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    bundle = root / "boot/firmware/codenames-table.tar.gz"
    assert bundle.read_text() == "codenames-table.tar.gz\n"
    settings = yaml.safe_load((root / "etc/cloud/cloud.cfg.d/99-provision-test.cfg").read_text())
    assert settings == yaml.safe_load(TEST_CLOUD_CFG)
    assert settings["datasource_list"] == ["NoCloud"]
    assert settings["network"] == {"config": "disabled"}
    assert (root / "etc/systemd/system/systemd-networkd.service").readlink() == Path("/dev/null")


def test_cloud_init_runs_on_a_fake_pi_and_the_table_on_virtual_hardware(tmp_path: Path) -> None:
    root, card = fake_root(tmp_path, "cloud-init-main.service")
    seed(root, card)
    drop_in = root / "etc/systemd/system/cloud-init-main.service.d/provision-test.conf"
    lines = drop_in.read_text().splitlines()
    assert lines[-2:] == [
        "ExecStart=",
        "ExecStart=/usr/bin/unshare --mount --propagation private sh "
        '/usr/local/lib/provision-test/fake_pi.sh "Raspberry Pi 5 Model B Rev 1.0" '
        "/usr/bin/cloud-init --all-stages",
    ]
    fake_pi = root / "usr/local/lib/provision-test/fake_pi.sh"
    assert "Raspberry Pi" in fake_pi.read_text()
    table = root / "etc/systemd/system/codenames-table.service.d/provision-test.conf"
    assert table.read_text().splitlines()[-1] == f"ExecStart={EXECUTABLE} run --virtual"


def test_an_older_cloud_init_has_its_final_stage_wrapped(tmp_path: Path) -> None:
    root, card = fake_root(tmp_path, "cloud-final.service")
    seed(root, card)
    assert (root / "etc/systemd/system/cloud-final.service.d/provision-test.conf").is_file()
