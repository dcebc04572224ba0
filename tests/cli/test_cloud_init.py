"""The cloud-init files of `codenames-table provision`, read back as cloud-init reads them:
PyYAML's `safe_load` for every structure the writer may meet, and the distribution's own
`cloud-init schema` where it is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.cli.cloud_init import (
    BLANK_USER_DATA,
    PASSWORD_FILE,
    Network,
    TableFiles,
    blank_command,
    install_command,
    meta_data,
    network_config,
    to_yaml,
    user_data,
)

CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
CONFIG = '[table]\nlanguage = "pt"\n\n[fleet]\ntable = "mesa_2"\n'
FILES = TableFiles("mesa_2", "mesa-2", CONFIG, CA, "s3cr3t-Pässword")

words = st.text(st.characters(codec="utf-8"), max_size=40)
scalars = words | st.integers(-(10**12), 10**12) | st.booleans()


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A list holds words, mappings or a list of words (a command): what cloud-config uses.
    mappings = st.dictionaries(words, inner, max_size=4)
    items = scalars | mappings | st.lists(scalars, max_size=4)
    return mappings | st.lists(items, max_size=4)


nodes = st.recursive(scalars, _containers, max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(words, nodes, max_size=5))
def test_any_structure_reads_back_as_written(node: dict[str, Any]) -> None:
    assert yaml.safe_load(to_yaml(node) or "{}") == node


@pytest.mark.parametrize(
    "text",
    ["a\nb\n", "a\nb", "a\nb\n\n\n", "  indented\nfirst\n", "x\n\n  y\n", "tab\there\nz\n"],
)
def test_multi_line_text_is_a_literal_block_kept_exactly(text: str) -> None:
    written = to_yaml({"content": text})
    assert written.startswith("content: |2")
    assert yaml.safe_load(written) == {"content": text}


@pytest.mark.parametrize("text", ["line\u2028break\nx\n", "nel\x85\nx\n", "cr\r\nx\n"])
def test_text_yaml_would_break_is_quoted_and_escaped(text: str) -> None:
    written = to_yaml({"content": text})
    assert "|" not in written and written.count("\n") == 1
    assert yaml.safe_load(written) == {"content": text}


def test_user_data_is_cloud_config_with_the_tables_files_and_install() -> None:
    text = user_data(FILES)
    assert text.startswith("#cloud-config\n")
    data = yaml.safe_load(text)
    assert data["hostname"] == "mesa-2"
    assert data["preserve_hostname"] is False
    assert "raspi-config nonint do_i2c 0 && raspi-config nonint do_spi 0" in data["runcmd"][0][2]
    assert "python3-venv" in data["packages"]
    assert "git" not in data["packages"]
    files = {entry["path"]: entry for entry in data["write_files"]}
    assert files["/etc/codenames-table/config.toml"]["content"] == CONFIG
    assert files["/etc/codenames-table/cafe-ca.pem"]["content"] == CA
    secret = files[PASSWORD_FILE]
    assert secret["content"] == "s3cr3t-Pässword\n"
    assert (secret["permissions"], secret["owner"]) == ("0600", "root:root")
    assert {entry["permissions"] for entry in files.values()} == {"0600", "0644"}
    # The install runs once (runcmd: per instance), from the bundle on the boot partition.
    assert data["runcmd"][1] == install_command(FILES)
    script = data["runcmd"][1][2]
    assert "tar -xzf /boot/firmware/codenames-table.tar.gz" in script
    assert script.endswith("sh /usr/local/src/codenames-table/systemd/install.sh")
    # The password is in the file written for it, nowhere else.
    assert text.count("s3cr3t-Pässword") == 1
    # Last, once the table is up, the card's copy of all this is blanked.
    assert data["runcmd"][2] == blank_command()
    assert data["runcmd"][2][2].startswith("if systemctl is-active --quiet codenames-table")


def test_the_blanked_user_data_is_an_empty_cloud_config(tmp_path: Path) -> None:
    card = tmp_path / "user-data"
    card.write_text(user_data(FILES))
    script = blank_command()[2].replace("/boot/firmware", str(tmp_path))
    script = script.replace("systemctl is-active --quiet codenames-table", "true")
    subprocess.run(["sh", "-c", script], check=True)
    assert card.read_text() == BLANK_USER_DATA
    assert BLANK_USER_DATA.startswith("#cloud-config\n")
    assert yaml.safe_load(BLANK_USER_DATA) == {}
    assert "s3cr3t" not in card.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["user-data"]


def test_a_git_source_clones_and_installs_git() -> None:
    files = TableFiles("t", "t", CONFIG, CA, "p", git=("https://example.org/x.git", "v1.2"))
    data = yaml.safe_load(user_data(files))
    assert "git" in data["packages"]
    script = data["runcmd"][1][2]
    assert 'git clone --depth 1 --branch "v1.2" "https://example.org/x.git"' in script


def test_network_config_wifi_and_ethernet() -> None:
    wifi = yaml.safe_load(network_config(Network('Café "Lua"', "pass: word#1", "PT")))
    assert wifi["network"]["version"] == 2
    assert wifi["network"]["renderer"] == "NetworkManager"
    wlan = wifi["network"]["wifis"]["wlan0"]
    assert wlan["regulatory-domain"] == "PT"
    assert wlan["access-points"] == {'Café "Lua"': {"password": "pass: word#1"}}
    wired = yaml.safe_load(network_config(Network()))["network"]
    assert wired["ethernets"]["wired"] == {"match": {"name": "e*"}, "dhcp4": True, "optional": True}
    assert "wifis" not in wired


def test_meta_data() -> None:
    data = yaml.safe_load(meta_data("mesa-2-0a1b2c3d", "mesa-2"))
    assert data == {"instance-id": "mesa-2-0a1b2c3d", "local-hostname": "mesa-2"}


def cloud_init_schema(path: Path) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("cloud-init")
    if tool is None:
        pytest.skip("cloud-init is not installed (apt-get install cloud-init) to validate with")
    command = [tool, "schema", "--config-file", str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_cloud_init_schema_accepts_the_user_data(tmp_path: Path) -> None:
    path = tmp_path / "user-data"
    path.write_text(user_data(FILES), encoding="utf-8")
    result = cloud_init_schema(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Valid" in result.stdout


def test_cloud_init_schema_would_refuse_a_wrong_one(tmp_path: Path) -> None:
    # The same check fails where it should: write_files' permissions as a list.
    path = tmp_path / "user-data"
    wrong = user_data(FILES).replace('permissions: "0600"', "permissions: [1]")
    path.write_text(wrong, encoding="utf-8")
    result = cloud_init_schema(path)
    assert result.returncode != 0
    assert "permissions" in result.stdout + result.stderr
