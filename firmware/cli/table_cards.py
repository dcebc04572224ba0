"""The files `codenames-table provision` writes on each table's card: read from the broker
recipe's folder, the options and this checkout (`--bundle`), written whole or not at all, and
readable by their owner only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import secrets
import tarfile
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware.cli.cloud_init import (
    BUNDLE,
    Network,
    TableFiles,
    meta_data,
    network_config,
    user_data,
)
from firmware.errors import UsageError
from firmware.fleet.recipe import RecipeError, claim_new_folder
from firmware.text_input import TextInputError, read_text

CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout this command runs from, whose source `--bundle` puts on the card."""
BUNDLED = ("pyproject.toml", "README.md", "config.example.toml", "board_rules", "firmware")
BUNDLED_SYSTEMD = ("install.sh", "codenames-table.service", "pi-constraints.txt", "state_dir.py")
"""What install.sh reads of a checkout: the project, its config example and systemd/."""
_HOSTNAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_COUNTRY = re.compile(r"[A-Z]{2}")


def provision(args: argparse.Namespace) -> int:
    """Write every chosen table's files as the options say; `UsageError` for options, a
    recipe or a folder that cannot be used."""
    manifest = _recipe(args.recipe)
    tables = _chosen(args, list(manifest["tables"]))
    if args.sd is not None and len(tables) != 1:
        raise UsageError(f"--sd takes one table; the recipe has {len(tables)}: name one --table")
    if args.ref is not None and args.git is None:
        raise UsageError("--ref goes with --git")
    base = _base_config(args.config)
    network = _network(args)
    bundle = _bundle() if args.bundle else None
    git = (args.git, args.ref) if args.git is not None else None
    ssh_keys = _ssh_keys(args.ssh_key)
    if args.out is not None:
        _claim(args.out)
    for table in tables:
        files = replace(_table_files(args.recipe, table, base, git), ssh_keys=ssh_keys)
        folder = args.sd if args.sd is not None else args.out / table
        written = _write_card(folder, files, network, bundle, new=args.sd is None)
        print(f"codenames-table provision: {table}: wrote {', '.join(written)} in {folder}")
    way = f"Wi-Fi {args.wifi!r}" if network.ssid is not None else "Ethernet"
    print(
        f"codenames-table provision: {len(tables)} table(s) over {way}; each card installs its "
        "table at first boot, which then shows in the café view under its name"
    )
    return 0


def _recipe(folder: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((folder / "recipe.json").read_text("utf-8"))
        if not isinstance(manifest["tables"], dict) or not manifest["tables"]:
            raise ValueError("no tables")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"--recipe {folder}: not a broker recipe's folder ({error})") from error
    return manifest


def _chosen(args: argparse.Namespace, known: list[str]) -> list[str]:
    if args.tables is not None:
        if not 0 < args.tables <= len(known):
            raise UsageError(f"--tables {args.tables}: the recipe has 1 to {len(known)} tables")
        wanted = [f"table-{n}" for n in range(1, args.tables + 1)]
    else:
        wanted = args.table or known
    missing = [table for table in wanted if table not in known]
    if missing:
        raise UsageError(f"--recipe {args.recipe}: has no table {missing[0]!r}")
    return list(dict.fromkeys(wanted))


def hostname(table: str) -> str:
    """The table's hostname, from its id: lower case, `_` as `-`.

    >>> hostname("Table_3")
    'table-3'
    """
    name = table.lower().replace("_", "-")
    if _HOSTNAME.fullmatch(name) is None:
        raise UsageError(f"{table!r} makes no hostname: 1-63 letters, digits or -, not at an end")
    return name


def _base_config(path: Path | None) -> str:
    if path is None:
        return '[table]\nstate_dir = "/var/lib/codenames-table"\n'
    try:
        text = read_text(path)
        config = tomllib.loads(text)
    except TextInputError as error:
        raise UsageError(error.located(f"--config {path}")) from error
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"--config {path}: {error}") from error
    if "fleet" in config:
        raise UsageError(f"--config {path}: has a [fleet]; each table's comes from the recipe")
    return text if text.endswith("\n") else text + "\n"


def _network(args: argparse.Namespace) -> Network:
    if args.wifi is None:
        if args.wifi_password_file is not None or args.country is not None:
            raise UsageError("--wifi-password-file and --country go with --wifi SSID")
        return Network()
    if not 0 < len(args.wifi.encode()) <= 32:
        raise UsageError(f"--wifi {args.wifi!r}: an SSID is 1 to 32 bytes")
    if args.country is None or _COUNTRY.fullmatch(args.country) is None:
        raise UsageError("--wifi needs --country CC, the country's two capital letters (ES)")
    passphrase = None
    if args.wifi_password_file is not None:
        passphrase = _secret(args.wifi_password_file, "--wifi-password-file")
        hexadecimal = re.fullmatch(r"[0-9A-Fa-f]{64}", passphrase) is not None
        if not (8 <= len(passphrase) <= 63 and passphrase.isprintable()) and not hexadecimal:
            # Its length only: the passphrase itself is never shown.
            raise UsageError(
                f"--wifi-password-file {args.wifi_password_file}: a WPA passphrase is 8 to 63 "
                f"printable characters, this one has {len(passphrase)}"
            )
    return Network(args.wifi, passphrase, args.country)


_SSH_KEY = re.compile(
    r"(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-\S+) [A-Za-z0-9+/=]+( .*)?"
)


def _ssh_keys(path: Path | None) -> tuple[str, ...]:
    """The public keys of `--ssh-key`, one a line; a private key is refused unread further."""
    if path is None:
        return ()
    try:
        text = read_text(path)
    except TextInputError as error:
        raise UsageError(error.located(f"--ssh-key {path}")) from error
    if "PRIVATE KEY" in text:
        raise UsageError(f"--ssh-key {path}: a private key; give its .pub, the public one")
    keys = tuple(line.strip() for line in text.splitlines() if line.strip())
    wrong = [n for n, key in enumerate(keys, 1) if _SSH_KEY.fullmatch(key) is None]
    if not keys or wrong:
        where = f"line {wrong[0]}" if wrong else "empty"
        raise UsageError(f"--ssh-key {path}: {where}: not an SSH public key (ssh-ed25519 AAAA...)")
    return keys


def _secret(path: Path, option: str) -> str:
    try:
        lines = read_text(path).splitlines()
    except TextInputError as error:
        raise UsageError(error.located(f"{option} {path}")) from error
    if not lines or not lines[0]:
        raise UsageError(f"{option} {path}: empty")
    return lines[0]


def _table_files(
    recipe: Path, table: str, base: str, git: tuple[str, str | None] | None
) -> TableFiles:
    own = recipe / "tables" / table
    try:
        fleet = (own / "fleet.toml").read_text(encoding="utf-8")
        ca = (own / "cafe-ca.pem").read_text(encoding="ascii")
    except (OSError, UnicodeError) as error:
        raise UsageError(f"--recipe {recipe}: {table}'s files: {error}") from error
    password = _secret(own / "mqtt-password", "--recipe")
    # The recipe's own comment says where [fleet] goes: here it is there already.
    lines = fleet.splitlines(keepends=True)
    start = next((n for n, line in enumerate(lines) if line.strip() == "[fleet]"), 0)
    section = "".join(lines[start:])
    config = (
        f"# {table}'s config, written by codenames-table provision; the table's own checks\n"
        "# (codenames-table run --check-config) read it as the service does.\n"
        f"{base}\n{section}"
    )
    return TableFiles(table, hostname(table), config, ca, password, git)


def _claim(out: Path) -> None:
    try:
        claim_new_folder(out, "the cards' files go in a new folder")
    except RecipeError as error:
        raise UsageError(f"--out {error}") from error


def _write_card(
    folder: Path, files: TableFiles, network: Network, bundle: bytes | None, *, new: bool
) -> list[str]:
    """The card's files in `folder`: made now (`new`, mode 0700) or a mounted boot partition
    (which must look like one). Each file goes under a temporary name first, so a card pulled
    out early holds whole files or none."""
    try:
        if new:
            folder.mkdir(mode=0o700)
        elif not (folder / "config.txt").is_file():
            raise UsageError(f"--sd {folder}: no config.txt, not a Raspberry Pi boot partition")
        contents = {
            "user-data": user_data(files).encode(),
            "network-config": network_config(network).encode(),
            "meta-data": meta_data(
                f"{files.hostname}-{secrets.token_hex(4)}", files.hostname
            ).encode(),
        }
        if bundle is not None:
            contents[BUNDLE] = bundle
        for name, data in contents.items():
            _write_private(folder / name, data)
    except OSError as error:
        raise UsageError(f"{folder}: {error.strerror or error}") from error
    return list(contents)


def _write_private(path: Path, data: bytes) -> None:
    """Write `data` as `path`, readable by its owner only (where the file system keeps
    modes: a FAT boot partition does not)."""
    partial = path.with_name(f".{path.name}.partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    partial.replace(path)


def _bundle() -> bytes:
    """This checkout's source as install.sh needs it, a gzipped tar under `codenames-table/`."""
    if not (CHECKOUT / "systemd" / "install.sh").is_file():
        raise UsageError(f"--bundle: {CHECKOUT} is not a checkout (no systemd/install.sh)")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", dereference=True) as tar:
        for relative in _bundled_files():
            tar.add(CHECKOUT / relative, f"codenames-table/{relative}", recursive=False)
    return buffer.getvalue()


def _bundled_files() -> Iterator[str]:
    for name in BUNDLED:
        path = CHECKOUT / name
        if path.is_file():
            yield name
            continue
        for found in sorted(path.rglob("*")):
            if "__pycache__" in found.parts or found.suffix == ".pyc" or found.is_dir():
                continue
            yield str(found.relative_to(CHECKOUT))
    for name in BUNDLED_SYSTEMD:
        yield f"systemd/{name}"
