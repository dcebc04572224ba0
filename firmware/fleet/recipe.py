"""The café's broker recipe (`codenames-table broker-recipe`): a Mosquitto config for N tables
and the café view, and what each table needs to report to it, written into one folder.

TLS only, with a CA of the café's own and a server certificate it signs for the broker's names
(made by the `openssl` command, EC P-256 keys); one user and password per table and one for the
view, hashed as `mosquitto_passwd` does (PBKDF2-SHA512, `$7$`); an ACL that lets `table-3` write
only under `codenames/table-3/` and the view only read `codenames/#`; anonymous clients refused.

    DIR/recipe.json                 what goes where: every file, its destination and its mode
    DIR/ca/cafe-ca.pem, cafe-ca.key the CA (its key stays off the broker: it only signs)
    DIR/broker/                     the broker's config, passwords, ACL, certificate and key
    DIR/tables/<table>/             fleet.toml ([fleet] for config.toml), mqtt-password, cafe-ca.pem
    DIR/view/                       cafe.env (the café view's unit), mqtt-password, cafe-ca.pem

Tables added later (`--add`) get their own user, ACL entry and folder; the others' passwords and
the certificates stay as they were.

Passwords exist in clear only in the `mqtt-password` files, each for the one machine that
needs it, mode 0600.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import os
import re
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from firmware.errors import FirmwareError
from firmware.fleet.broker import BrokerAddress, BrokerError
from firmware.fleet.schema import ROOT, TABLE_ID

PBKDF2_ITERATIONS: Final = 101
"""mosquitto_passwd's own default; the passwords are 192 random bits, which no count of
iterations would make stronger."""
PASSWORD_BYTES: Final = 24
CA_DAYS: Final = 3650
SERVER_DAYS: Final = 825
"""The longest validity that clients which check it accept for a server certificate."""
CURVE: Final = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
VIEW_USER: Final = "cafe-view"
BROKER_DIR: Final = Path("/etc/mosquitto/codenames")
"""Where the broker's files go on the counter machine."""
BROKER_CONF: Final = Path("/etc/mosquitto/conf.d/codenames.conf")
BROKER_GROUP: Final = "root:mosquitto"
"""The owner of the broker's secrets: Debian's Mosquitto runs as the user `mosquitto`."""
TABLE_DIR: Final = Path("/etc/codenames-table")
"""Where a table's config and credential go (`systemd/install.sh` reads them there)."""
TABLE_CREDENTIAL: Final = "/run/credentials/codenames-table.service/mqtt"
VIEW_DIR: Final = Path("/etc/codenames-cafe")
"""Where the café view's files go (`systemd/install-cafe.sh`)."""
_HOST: Final = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


class RecipeError(FirmwareError, ValueError):
    """A recipe that cannot be written (its options, its folder, the openssl command); one
    line."""


@dataclass(frozen=True)
class Recipe:
    """What to write: the tables' ids, the broker's names (the first in the tables' URL) and
    port, and where the broker's files will lie on its machine."""

    tables: tuple[str, ...]
    hosts: tuple[str, ...]
    port: int = 8883
    broker_dir: Path = BROKER_DIR

    def __post_init__(self) -> None:
        if not self.tables:
            raise RecipeError("no tables")
        for table in self.tables:
            if TABLE_ID.fullmatch(table) is None:
                raise RecipeError(f"{table!r} is not a table id: 1-64 letters, digits, - or _")
        if len(set(self.tables)) != len(self.tables) or VIEW_USER in self.tables:
            raise RecipeError(f"table ids must differ from each other and from {VIEW_USER!r}")
        if not self.hosts:
            raise RecipeError("no host name for the broker")
        for host in self.hosts:
            if not _is_ip(host) and _HOST.fullmatch(host) is None:
                raise RecipeError(f"{host!r} is neither a host name nor an IP address")
        if not 0 < self.port < 65536:
            raise RecipeError(f"port {self.port} is not 1-65535")
        if not self.broker_dir.is_absolute():
            raise RecipeError(f"{self.broker_dir} is not an absolute path")

    @property
    def url(self) -> str:
        host = self.hosts[0]
        shown = f"[{host}]" if ":" in host else host
        return f"mqtts://{shown}:{self.port}"


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def password_hash(password: str, salt: bytes | None = None) -> str:
    """`password` as Mosquitto's password file holds it: `$7$` (PBKDF2-SHA512), iterations,
    salt and hash in base64, as `mosquitto_passwd` writes it."""
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ITERATIONS)
    encoded = (base64.b64encode(part).decode() for part in (salt, digest))
    return f"$7${PBKDF2_ITERATIONS}${'$'.join(encoded)}"


def acl(tables: tuple[str, ...]) -> str:
    """The ACL: each table writes under its own topics only, the view reads them all. A table
    may read its own topics too, which `codenames-table retire` does with its password."""
    lines = [
        "# Written by codenames-table broker-recipe. Anything not allowed here is refused.",
        f"user {VIEW_USER}",
        f"topic read {ROOT}/#",
    ]
    for table in tables:
        lines += ["", f"user {table}", f"topic readwrite {ROOT}/{table}/#"]
    return "\n".join(lines) + "\n"


def mosquitto_conf(recipe: Recipe) -> str:
    """The broker's config: a TLS listener, passwords, the ACL, no anonymous client."""
    folder = recipe.broker_dir
    return (
        "# Written by codenames-table broker-recipe: the café's tables and its view, over TLS\n"
        "# only, each with its own user and password; the ACL says who may do what.\n"
        "per_listener_settings false\n"
        "allow_anonymous false\n"
        f"password_file {folder / 'passwords'}\n"
        f"acl_file {folder / 'acl'}\n"
        f"listener {recipe.port}\n"
        f"certfile {folder / 'server.pem'}\n"
        f"keyfile {folder / 'server.key'}\n"
        "tls_version tlsv1.2\n"
    )


def fleet_toml(recipe: Recipe, table: str) -> str:
    """A table's `[fleet]`, for the end of its /etc/codenames-table/config.toml."""
    return (
        f"# {table}'s [fleet], written by codenames-table broker-recipe: add it to\n"
        f"# {TABLE_DIR / 'config.toml'}; mqtt-password and cafe-ca.pem go beside it.\n"
        "[fleet]\n"
        f'broker = "{recipe.url}"\n'
        f'table = "{table}"\n'
        f'ca_file = "{TABLE_DIR / "cafe-ca.pem"}"\n'
        f'username = "{table}"\n'
        f'password_file = "{TABLE_CREDENTIAL}"\n'
    )


def view_env(recipe: Recipe) -> str:
    """The café view's settings, read by its unit (`systemd/codenames-cafe.service`)."""
    return (
        "# The café view's settings (systemd/codenames-cafe.service), written by\n"
        "# codenames-table broker-recipe. CAFE_HTTP: the LAN address and port of its page.\n"
        f"CAFE_BROKER={recipe.url}\n"
        f"CAFE_USERNAME={VIEW_USER}\n"
        "CAFE_HTTP=127.0.0.1:8080\n"
        "CAFE_LANG=en\n"
    )


def write_recipe(recipe: Recipe, out: Path) -> dict[str, Any]:
    """Write everything into `out` (new, or an empty folder); returns what recipe.json says.
    `RecipeError` when `out` holds anything or openssl fails."""
    claim_new_folder(out, "a recipe is written into a new folder")
    ca, ca_key = _certificate_authority(out / "ca")
    _server_certificate(out / "broker", ca, ca_key, recipe.hosts)
    ca_text = ca.read_text(encoding="ascii")
    users = (VIEW_USER, *recipe.tables)
    passwords = {user: secrets.token_urlsafe(PASSWORD_BYTES) for user in users}
    hashed = "".join(f"{user}:{password_hash(password)}\n" for user, password in passwords.items())
    broker = recipe.broker_dir
    placed = _Placer(out)
    placed.keep("broker/server.pem", broker / "server.pem", 0o644)
    placed.keep("broker/server.key", broker / "server.key", 0o640, BROKER_GROUP)
    placed.put("broker/passwords", hashed, broker / "passwords", 0o640, BROKER_GROUP)
    placed.put("broker/acl", acl(recipe.tables), broker / "acl")
    placed.put("broker/cafe-ca.pem", ca_text, broker / "cafe-ca.pem")
    placed.put("broker/mosquitto.conf", mosquitto_conf(recipe), BROKER_CONF)
    manifest: dict[str, Any] = {
        "broker": {"url": recipe.url, "hosts": list(recipe.hosts), "files": placed.taken()}
    }
    placed.put("view/cafe-ca.pem", ca_text, VIEW_DIR / "cafe-ca.pem")
    placed.put("view/mqtt-password", passwords[VIEW_USER] + "\n", VIEW_DIR / "mqtt-password", 0o600)
    placed.put("view/cafe.env", view_env(recipe), VIEW_DIR / "cafe.env")
    manifest["view"] = {"username": VIEW_USER, "files": placed.taken()}
    manifest["tables"] = {
        table: _write_table(placed, recipe, table, ca_text, passwords[table])
        for table in recipe.tables
    }
    placed.put("recipe.json", json.dumps(manifest, indent=2) + "\n", None)
    return manifest


def add_tables(out: Path, tables: tuple[str, ...]) -> dict[str, Any]:
    """Add `tables` to the recipe in `out`: their users, ACL entries and folders, the others
    and the certificates unchanged; returns what recipe.json says now. Install the broker's
    files again for Mosquitto to know them. `RecipeError` when `out` holds no recipe or a
    table is there already."""
    try:
        manifest: dict[str, Any] = json.loads((out / "recipe.json").read_text(encoding="utf-8"))
        broker = manifest["broker"]
        address = BrokerAddress.parse(broker["url"])
        [passwords_at] = [f["path"] for f in broker["files"] if f["source"] == "broker/passwords"]
        ca_text = (out / "ca" / "cafe-ca.pem").read_text(encoding="ascii")
        known = tuple(manifest["tables"])
    except (OSError, ValueError, KeyError, TypeError, BrokerError) as error:
        raise RecipeError(f"{out}: not a broker recipe's folder ({error})") from error
    already = [table for table in tables if table in known]
    if already:
        raise RecipeError(f"{', '.join(already)}: in the recipe in {out} already")
    recipe = Recipe(
        (*known, *tables), tuple(broker["hosts"]), address.port, Path(passwords_at).parent
    )
    passwords = {table: secrets.token_urlsafe(PASSWORD_BYTES) for table in tables}
    with (out / "broker" / "passwords").open("a", encoding="utf-8") as hashed:
        hashed.writelines(f"{user}:{password_hash(secret)}\n" for user, secret in passwords.items())
    (out / "broker" / "acl").write_text(acl(recipe.tables), encoding="utf-8")
    placed = _Placer(out)
    for table in tables:
        manifest["tables"][table] = _write_table(placed, recipe, table, ca_text, passwords[table])
    placed.put("recipe.json", json.dumps(manifest, indent=2) + "\n", None)
    return manifest


def _write_table(
    placed: _Placer, recipe: Recipe, table: str, ca_text: str, password: str
) -> dict[str, Any]:
    """A table's folder: its CA, password and `[fleet]`; what recipe.json says of it."""
    folder = f"tables/{table}"
    placed.put(f"{folder}/cafe-ca.pem", ca_text, TABLE_DIR / "cafe-ca.pem")
    placed.put(f"{folder}/mqtt-password", password + "\n", TABLE_DIR / "mqtt-password", 0o600)
    placed.put(f"{folder}/fleet.toml", fleet_toml(recipe, table), None)
    return {"username": table, "config": f"{folder}/fleet.toml", "files": placed.taken()}


class _Placer:
    """Writes a recipe's files and notes where each goes on its machine, and with what mode."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self._files: list[dict[str, str]] = []

    def put(
        self,
        relative: str,
        text: str,
        destination: Path | None,
        mode: int = 0o644,
        owner: str = "root:root",
    ) -> None:
        path = self.out / relative
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.keep(relative, destination, mode, owner)

    def keep(
        self, relative: str, destination: Path | None, mode: int, owner: str = "root:root"
    ) -> None:
        """Note `relative`, written already, as going to `destination` (None: nowhere)."""
        # Here, only its owner reads a secret; `mode` and `owner` are for its machine.
        (self.out / relative).chmod(mode & 0o700)
        if destination is not None:
            placed = {"source": relative, "path": str(destination), "mode": f"{mode:04o}"}
            self._files.append(placed | {"owner": owner})

    def taken(self) -> list[dict[str, str]]:
        """The files placed since the last call."""
        files, self._files = self._files, []
        return files


def claim_new_folder(out: Path, use: str) -> None:
    """Make `out` a private (0700) folder of secrets to come, refusing one that holds anything
    (`use` says in the error what the folder is for); `RecipeError` in one line."""
    try:
        out.mkdir(mode=0o700, parents=True, exist_ok=True)
        if any(out.iterdir()):
            raise RecipeError(f"{out} is not empty: {use}")
        out.chmod(0o700)
    except OSError as error:
        raise RecipeError(f"{out}: {error.strerror or error}") from error


def _openssl(*arguments: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        raise RecipeError("the openssl command is not installed (apt-get install openssl)")
    done = subprocess.run(
        [tool, *arguments], capture_output=True, text=True, check=False, env=_quiet_env()
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise RecipeError(f"openssl {arguments[0]} failed: {last}")


def _quiet_env() -> dict[str, str]:
    # No OPENSSL_CONF of the caller's: the extensions are all given here.
    return {key: value for key, value in os.environ.items() if key != "OPENSSL_CONF"}


def _certificate_authority(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(mode=0o700, exist_ok=True)
    ca, key = folder / "cafe-ca.pem", folder / "cafe-ca.key"
    _openssl(
        "req", "-x509", *CURVE, "-days", str(CA_DAYS), "-subj", "/CN=Codenames table cafe CA",
        "-keyout", str(key), "-out", str(ca),
        "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    key.chmod(0o600)
    return ca, key


def _server_certificate(folder: Path, ca: Path, ca_key: Path, hosts: tuple[str, ...]) -> None:
    folder.mkdir(mode=0o700, exist_ok=True)
    key, request = folder / "server.key", folder / "server.csr"
    certificate = folder / "server.pem"
    _openssl(
        "req", "-new", *CURVE, "-subj", f"/CN={hosts[0]}",
        "-keyout", str(key), "-out", str(request),
    )  # fmt: skip
    names = ",".join(f"IP:{host}" if _is_ip(host) else f"DNS:{host}" for host in hosts)
    extensions = folder / "server.ext"
    extensions.write_text(
        "basicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\n"
        "extendedKeyUsage=serverAuth\n"
        f"subjectAltName={names}\n"
        "authorityKeyIdentifier=keyid\n",
        encoding="ascii",
    )
    serial = folder / "cafe-ca.srl"
    _openssl(
        "x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
        "-CAserial", str(serial), "-CAcreateserial", "-days", str(SERVER_DAYS),
        "-out", str(certificate), "-extfile", str(extensions),
    )  # fmt: skip
    for scrap in (request, extensions, serial):
        scrap.unlink()
