"""What `codenames-table provision` puts on a table's boot partition for cloud-init (as
Raspberry Pi OS reads it at first boot): `user-data` (#cloud-config), `network-config` (netplan
version 2) and `meta-data`, as YAML text.

The YAML is written here, not by a library: the table needs no YAML package for this one
command. Every string is double-quoted in JSON's escapes, which YAML's double-quoted style
shares, and characters YAML takes for line breaks or refuses are escaped too; multi-line files
(the config, the CA) are literal blocks, so that the card's files read as they will be
installed. `tests/cli/test_cloud_init.py` reads the output back with PyYAML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

Node: TypeAlias = "Mapping[str, Node] | Sequence[Node] | str | int | bool"

BOOT_PARTITION: Final = "/boot/firmware"
"""Where Raspberry Pi OS (Bookworm and later) mounts the card's boot partition."""
SOURCE_DIR: Final = "/usr/local/src/codenames-table"
"""Where the table keeps the source it was installed from."""
BUNDLE: Final = "codenames-table.tar.gz"
"""The source's file name on the boot partition."""
CONFIG_DIR: Final = "/etc/codenames-table"
PASSWORD_FILE: Final = f"{CONFIG_DIR}/mqtt-password"
"""The credential install.sh hands the service (LoadCredential=), root's alone."""
STAFF_USER: Final = "cafe"
"""The login `--ssh-key` makes on each table, by key only, for `codenames-table update --on`."""

_PLAIN_KEY: Final = re.compile(r"[a-z][a-z0-9_-]*")
_YAML_WORDS: Final = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
"""Plain keys YAML 1.1 readers take for something other than a string."""


def _unsafe(char: str) -> bool:
    """A character YAML would read as a line break, or does not allow unescaped."""
    code = ord(char)
    return (
        0x7F <= code <= 0x9F
        or 0xD800 <= code <= 0xDFFF
        or code in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF)
    )


def quoted(text: str) -> str:
    """`text` as a YAML double-quoted scalar.

    >>> quoted('Café "Lua"\\n')
    '"Café \\\\"Lua\\\\"\\\\n"'
    >>> quoted("\\u2028")
    '"\\\\u2028"'
    """
    encoded = json.dumps(text, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04x}" if _unsafe(c) else c for c in encoded)


def _key(key: str) -> str:
    return key if _PLAIN_KEY.fullmatch(key) and key not in _YAML_WORDS else quoted(key)


def _scalar(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return quoted(value)


def _literal(text: str, indent: int) -> str | None:
    """`text` as a literal block at `indent`, or None where only quotes keep it whole."""
    body = text.rstrip("\n")
    if "\n" not in body or any(_unsafe(c) or (c < " " and c not in "\t\n") for c in body):
        return None
    trailing = len(text) - len(body)
    chomping = {0: "-", 1: ""}.get(trailing, "+")
    parts = text.split("\n")
    if trailing:
        parts.pop()  # the empty string after the last line break
    lines = [" " * indent + part if part else "" for part in parts]
    return f"|2{chomping}\n" + "\n".join(lines) + "\n"


def to_yaml(node: Mapping[str, Node], indent: int = 0) -> str:
    """A mapping as block YAML, which any YAML reader reads back as `node`."""
    out = []
    pad = " " * indent
    for key, value in node.items():
        head = f"{pad}{_key(key)}:"
        if isinstance(value, Mapping):
            out.append(f"{head}\n{to_yaml(value, indent + 2)}" if value else f"{head} {{}}\n")
        elif isinstance(value, str) and (block := _literal(value, indent + 2)) is not None:
            out.append(f"{head} {block}")
        elif isinstance(value, str | int | bool):
            out.append(f"{head} {_scalar(value)}\n")
        else:
            out.append(f"{head}\n{_sequence(value, indent + 2)}" if value else f"{head} []\n")
    return "".join(out)


def _sequence(items: Sequence[Node], indent: int) -> str:
    out = []
    pad = " " * indent
    for item in items:
        if isinstance(item, Mapping) and item:
            # The mapping's first key goes on the dash's line, the rest under it.
            out.append(pad + "- " + to_yaml(item, indent + 2)[indent + 2 :])
        elif isinstance(item, str | int | bool):
            out.append(f"{pad}- {_scalar(item)}\n")
        elif isinstance(item, Mapping):
            out.append(f"{pad}- {{}}\n")
        else:
            # A list in a list (a command's words): one flow line, in JSON's syntax.
            words = ", ".join(_flow(word) for word in item)
            out.append(f"{pad}- [{words}]\n")
    return "".join(out)


def _flow(node: Node) -> str:
    if isinstance(node, str | int | bool):
        return _scalar(node)
    raise TypeError("only words go in a nested list")


@dataclass(frozen=True)
class Network:
    """How the table reaches the café's broker: Wi-Fi (SSID, passphrase, country) or, with no
    SSID, Ethernet."""

    ssid: str | None = None
    passphrase: str | None = None
    country: str | None = None


@dataclass(frozen=True)
class TableFiles:
    """What one table's card says: its id and hostname, its config.toml, the café's CA, its
    MQTT password, and where the install's source comes from (the bundle on the card, or a
    git URL and ref)."""

    table: str
    hostname: str
    config: str
    ca: str
    password: str
    git: tuple[str, str | None] | None = None
    ssh_keys: tuple[str, ...] = ()
    """Public keys that may log in as STAFF_USER over SSH; none: no login at all."""


INTERFACES: Final = [
    "sh",
    "-c",
    "if command -v raspi-config >/dev/null; then "
    "raspi-config nonint do_i2c 0 && raspi-config nonint do_spi 0; fi",
]
"""The OLED's I2C and the LED key's SPI turned on as Raspberry Pi OS's own tool does (its
cloud-init's `rpi` module calls the same, but the distribution's cloud-init refuses that key)."""


BLANK_USER_DATA: Final = (
    "#cloud-config\n# The table is installed: its password is no longer on this card. A new\n"
    "# card's files come from codenames-table provision.\n{}\n"
)
"""What the card's user-data becomes once the table runs: the boot partition (FAT) keeps no
owners or modes, so anyone holding the card could read the password; cloud-init keeps its own
copy, root's alone, in /var/lib/cloud."""


def blank_command() -> list[str]:
    """The first boot's last step: the card's user-data blanked once the table is up (after a
    failed install it stays, for another try)."""
    user_data = f"{BOOT_PARTITION}/user-data"
    script = (
        f"if systemctl is-active --quiet codenames-table && [ -f {user_data} ]; then "
        f"printf %b {quoted(BLANK_USER_DATA)} > {user_data}.partial && "
        f"mv {user_data}.partial {user_data}; fi"
    )
    return ["sh", "-c", script]


def install_command(files: TableFiles) -> list[str]:
    """The first boot's install, a shell command: unpack or clone the source, run its
    install.sh (which installs, checks the config and starts the service)."""
    if files.git is None:
        fetch = (
            f"mkdir -p {SOURCE_DIR} && "
            f"tar -xzf {BOOT_PARTITION}/{BUNDLE} -C {SOURCE_DIR} --strip-components=1"
        )
    else:
        url, ref = files.git
        branch = f" --branch {quoted(ref)}" if ref else ""
        fetch = f"git clone --depth 1{branch} {quoted(url)} {SOURCE_DIR}"
    script = f"set -eu; rm -rf {SOURCE_DIR}; {fetch}; sh {SOURCE_DIR}/systemd/install.sh"
    return ["sh", "-c", script]


def user_data(files: TableFiles) -> str:
    """The table's #cloud-config."""
    packages = ["python3-venv"] + (["git"] if files.git is not None else [])
    runcmd: list[Node] = [INTERFACES, install_command(files), blank_command()]
    config: dict[str, Node] = {
        "hostname": files.hostname,
        "preserve_hostname": False,
        "manage_etc_hosts": True,
        "package_update": True,
        "packages": packages,
        "write_files": [
            _file(f"{CONFIG_DIR}/config.toml", files.config, "0644"),
            _file(f"{CONFIG_DIR}/cafe-ca.pem", files.ca, "0644"),
            _file(PASSWORD_FILE, files.password + "\n", "0600"),
        ],
        "runcmd": runcmd,
    }
    if files.ssh_keys:
        # The café's updates log in by key, as a user who may run sudo; no password anywhere.
        config["users"] = [
            {
                "name": STAFF_USER,
                "gecos": "Cafe staff (updates)",
                "groups": "sudo",
                "sudo": "ALL=(ALL) NOPASSWD:ALL",
                "shell": "/bin/bash",
                "lock_passwd": True,
                "ssh_authorized_keys": list(files.ssh_keys),
            }
        ]
        config["ssh_pwauth"] = False
        packages.append("openssh-server")
        runcmd.insert(0, ["systemctl", "enable", "--now", "ssh"])
    return "#cloud-config\n" + to_yaml(config)


def _file(path: str, content: str, mode: str) -> dict[str, Node]:
    return {"path": path, "owner": "root:root", "permissions": mode, "content": content}


def network_config(network: Network) -> str:
    """netplan version 2, rendered by NetworkManager as on Raspberry Pi OS: DHCP on the Wi-Fi,
    or on every wired interface."""
    if network.ssid is None:
        devices: dict[str, Node] = {
            "ethernets": {"wired": {"match": {"name": "e*"}, "dhcp4": True, "optional": True}}
        }
    else:
        wifi: dict[str, Node] = {"dhcp4": True, "optional": True}
        if network.country:
            wifi["regulatory-domain"] = network.country
        point: dict[str, Node] = {}
        if network.passphrase:
            point["password"] = network.passphrase
        wifi["access-points"] = {network.ssid: point}
        devices = {"wifis": {"wlan0": wifi}}
    return to_yaml({"network": {"version": 2, "renderer": "NetworkManager", **devices}})


def meta_data(instance_id: str, hostname: str) -> str:
    """cloud-init's meta-data: a new instance id makes a card provisioned again run its
    first boot again."""
    return to_yaml({"instance-id": instance_id, "local-hostname": hostname})
