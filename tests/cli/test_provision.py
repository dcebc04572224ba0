"""`codenames-table provision`: each table's card files from a broker recipe, written whole and
private, the secrets in them and nowhere on screen; every refusal one line, exit 2, nothing
written."""

from __future__ import annotations

import io
import stat
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from firmware.cli.main import main
from firmware.table.config import parse_config

WIFI_PASSPHRASE = "correct horse battery"


@pytest.fixture(scope="module")
def recipe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A broker recipe for three tables."""
    out = tmp_path_factory.mktemp("recipe") / "recipe"
    assert main(["broker-recipe", "--tables", "3", "--host", "cafe.lan", "--out", str(out)]) == 0
    return out


def secret_of(recipe: Path, table: str) -> str:
    return (recipe / "tables" / table / "mqtt-password").read_text().strip()


def card(folder: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A card's user-data, network-config and meta-data, as cloud-init reads them."""
    read = [yaml.safe_load((folder / name).read_text()) for name in ("user-data", "network-config")]
    return read[0], read[1], yaml.safe_load((folder / "meta-data").read_text())


def written(user_data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {entry["path"]: entry for entry in user_data["write_files"]}


def test_every_table_gets_its_own_card(
    recipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passphrase = tmp_path / "wifi"
    passphrase.write_text(WIFI_PASSPHRASE + "\n")
    out = tmp_path / "cards"
    command = ["provision", "--recipe", str(recipe), "--tables", "2", "--bundle", "--out", str(out)]
    command += ["--wifi", "Café", "--wifi-password-file", str(passphrase), "--country", "ES"]
    assert main(command) == 0
    assert sorted(p.name for p in out.iterdir()) == ["table-1", "table-2"]
    instances = set()
    for table in ("table-1", "table-2"):
        folder = out / table
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        names = {"user-data", "network-config", "meta-data", "codenames-table.tar.gz"}
        assert {p.name for p in folder.iterdir()} == names
        assert all(stat.S_IMODE((folder / n).stat().st_mode) == 0o600 for n in names)
        user_data, network, meta = card(folder)
        assert user_data["hostname"] == meta["local-hostname"] == table
        instances.add(meta["instance-id"])
        files = written(user_data)
        config = tomllib.loads(files["/etc/codenames-table/config.toml"]["content"])
        fleet = parse_config(config, "config.toml").fleet
        assert fleet is not None
        assert (fleet.table, fleet.username) == (table, table)
        assert fleet.broker == "mqtts://cafe.lan:8883"
        assert files["/etc/codenames-table/mqtt-password"]["content"].strip() == secret_of(
            recipe, table
        )
        ca = (recipe / "tables" / table / "cafe-ca.pem").read_text()
        assert files["/etc/codenames-table/cafe-ca.pem"]["content"] == ca
        wlan = network["network"]["wifis"]["wlan0"]
        assert wlan["access-points"] == {"Café": {"password": WIFI_PASSPHRASE}}
    assert len(instances) == 2
    shown = capsys.readouterr()
    assert "table-1" in shown.out and "Wi-Fi 'Café'" in shown.out
    for secret in (WIFI_PASSPHRASE, secret_of(recipe, "table-1"), secret_of(recipe, "table-2")):
        assert secret not in shown.out + shown.err


def test_the_bundle_holds_what_install_sh_reads(recipe: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards"
    assert main(["provision", "--recipe", str(recipe), "--table", "table-3", "--bundle",
                 "--out", str(out)]) == 0  # fmt: skip
    data = (out / "table-3" / "codenames-table.tar.gz").read_bytes()
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {member.name: member for member in tar.getmembers()}
    for needed in (
        "systemd/install.sh",
        "systemd/codenames-table.service",
        "systemd/pi-constraints.txt",
        "systemd/state_dir.py",
        "pyproject.toml",
        "README.md",
        "config.example.toml",
        "board_rules/codenames/__init__.py",
        "firmware/cli/main.py",
    ):
        assert f"codenames-table/{needed}" in members, needed
    # The pin map is a link in the checkout: the card gets the file itself.
    assert members["codenames-table/firmware/drivers/pinout.toml"].isfile()
    assert not any("__pycache__" in name for name in members)
    assert not any(name.startswith("codenames-table/tests/") for name in members)


def test_sd_writes_into_a_mounted_boot_partition(recipe: Path, tmp_path: Path) -> None:
    boot = tmp_path / "bootfs"
    boot.mkdir()
    (boot / "config.txt").write_text("dtparam=audio=on\n")
    (boot / "user-data").write_text("#cloud-config\n# Imager's\n")
    git = ["--git", "https://example.org/codenames-table.git", "--ref", "v1"]
    command = ["provision", "--recipe", str(recipe), "--table", "table-2", *git, "--sd", str(boot)]
    assert main(command) == 0
    user_data, network, _ = card(boot)
    assert user_data["hostname"] == "table-2"
    assert "git" in user_data["packages"]
    assert network["network"]["ethernets"]["wired"]["dhcp4"] is True
    assert not (boot / "codenames-table.tar.gz").exists()
    assert not list(boot.glob(".*partial"))
    assert (boot / "config.txt").read_text() == "dtparam=audio=on\n"


def test_a_base_config_is_kept_under_each_tables_fleet(recipe: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.toml"
    base.write_text('[table]\nlanguage = "it"\ntimer_s = 90\n')
    out = tmp_path / "cards"
    assert main(["provision", "--recipe", str(recipe), "--table", "table-1", "--bundle",
                 "--config", str(base), "--out", str(out)]) == 0  # fmt: skip
    user_data, _, _ = card(out / "table-1")
    text = written(user_data)["/etc/codenames-table/config.toml"]["content"]
    config = parse_config(tomllib.loads(text), "config.toml")
    assert (config.settings.language, config.settings.timer_s) == ("it", 90)
    assert config.fleet is not None and config.fleet.table == "table-1"


REFUSALS = [
    (["--tables", "4"], "--tables 4: the recipe has 1 to 3 tables"),
    (["--table", "table-9"], "has no table 'table-9'"),
    (["--wifi", "Café"], "--wifi needs --country CC"),
    (["--country", "ES"], "--wifi-password-file and --country go with --wifi SSID"),
    (["--ref", "v1"], "--ref goes with --git"),
]


@pytest.mark.parametrize(("options", "message"), REFUSALS, ids=[m for _, m in REFUSALS])
def test_bad_options_are_one_line_and_write_nothing(
    recipe: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: list[str],
    message: str,
) -> None:
    out = tmp_path / "cards"
    command = ["provision", "--recipe", str(recipe), "--bundle", "--out", str(out), *options]
    assert main(command) == 2
    error = capsys.readouterr().err
    assert error.startswith("codenames-table provision: ") and error.count("\n") == 1
    assert message in error
    assert not out.exists()


def test_a_short_wifi_passphrase_is_refused_without_showing_it(
    recipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passphrase = tmp_path / "wifi"
    passphrase.write_text("hunter2\n")
    wifi = ["--wifi", "Bar", "--country", "PT", "--wifi-password-file", str(passphrase)]
    command = ["provision", "--recipe", str(recipe), "--bundle", "--out", str(tmp_path / "o")]
    command += wifi
    assert main(command) == 2
    error = capsys.readouterr().err
    assert "8 to 63 printable characters, this one has 7" in error
    assert "hunter2" not in error


def test_refusals_of_the_recipe_the_folder_and_the_card(
    recipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*options: str) -> str:
        assert main(["provision", "--bundle", *options]) == 2
        return capsys.readouterr().err

    assert "not a broker recipe's folder" in refused(
        "--recipe", str(tmp_path), "--out", str(tmp_path / "o")
    )
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep").write_text("mine")
    assert "is not empty" in refused("--recipe", str(recipe), "--out", str(busy))
    assert (busy / "keep").read_text() == "mine"
    folder = tmp_path / "usb"
    folder.mkdir()
    assert "no config.txt, not a Raspberry Pi boot partition" in refused(
        "--recipe", str(recipe), "--table", "table-1", "--sd", str(folder)
    )
    assert not any(folder.iterdir())
    assert "--sd takes one table" in refused("--recipe", str(recipe), "--sd", str(folder))
    base = tmp_path / "fleet.toml"
    base.write_text('[fleet]\nbroker = "mqtt://x"\n')
    assert "has a [fleet]" in refused(
        "--recipe", str(recipe), "--config", str(base), "--out", str(tmp_path / "o")
    )


PUBLIC_KEY = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvXXbYtVvbK5e4hCyhC2zT6Y3hRgS0nCM1ZlEVXzKk7 staff@cafe"
)


def test_an_ssh_key_gives_the_cafe_a_login_by_key_only(recipe: Path, tmp_path: Path) -> None:
    key = tmp_path / "id_ed25519.pub"
    key.write_text(PUBLIC_KEY + "\n")
    out = tmp_path / "cards"
    command = ["provision", "--recipe", str(recipe), "--table", "table-2", "--bundle"]
    assert main([*command, "--ssh-key", str(key), "--out", str(out)]) == 0
    user_data, _, _ = card(out / "table-2")
    (user,) = user_data["users"]
    assert user["name"] == "cafe" and user["lock_passwd"] is True
    assert user["ssh_authorized_keys"] == [PUBLIC_KEY]
    assert user_data["ssh_pwauth"] is False
    assert "openssh-server" in user_data["packages"]
    assert user_data["runcmd"][0] == ["systemctl", "enable", "--now", "ssh"]
    # Without a key: no login of ours at all.
    assert main([*command, "--out", str(tmp_path / "plain")]) == 0
    plain, _, _ = card(tmp_path / "plain" / "table-2")
    assert "users" not in plain and "openssh-server" not in plain["packages"]


def test_a_private_key_is_refused_unshown(
    recipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "id_ed25519"
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n")
    out = tmp_path / "cards"
    command = ["provision", "--recipe", str(recipe), "--bundle", "--ssh-key", str(key)]
    assert main([*command, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "a private key; give its .pub" in err and "b3BlbnNzaC1rZXk" not in err
    assert not out.exists()
