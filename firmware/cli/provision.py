"""`codenames-table provision`: what goes on each table's SD card so that Raspberry Pi OS's
cloud-init installs the table at first boot and it joins the café (`firmware.cli.cloud_init`
writes the files; the broker recipe's folder gives each table its [fleet], password and CA).

    codenames-table provision --recipe DIR [--tables N | --table ID...] --bundle --out DIR
    codenames-table provision --recipe DIR --table ID --bundle --sd /media/me/bootfs

Secrets (the table's MQTT password, the Wi-Fi passphrase) are read from files, written only
into the card's files, and never printed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.cli.command import Commands


def add_provision_parser(commands: Commands) -> None:
    """The `provision` subcommand's options."""
    provision = commands.add_parser(
        "provision",
        help="write each table's cloud-init files for its SD card (install at first boot)",
        description="Write, for each table of a broker recipe, what goes on its SD card's boot "
        "partition: cloud-init's user-data (hostname, config.toml with the table's [fleet], "
        "the café's CA, the MQTT password as a root-only file, the install run once), "
        "network-config (Wi-Fi or Ethernet) and meta-data; with --bundle, this checkout's "
        "source too, so that the card installs without fetching the project.",
    )
    provision.add_argument(
        "--recipe", type=Path, required=True, metavar="DIR", help="the broker recipe's folder"
    )
    which = provision.add_mutually_exclusive_group()
    which.add_argument("--tables", type=int, metavar="N", help="the recipe's table-1 to table-N")
    which.add_argument(
        "--table", action="append", metavar="ID", help="a table of the recipe (repeat for more)"
    )
    source = provision.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--bundle",
        action="store_true",
        help="put this checkout's source on the card (codenames-table.tar.gz) and install from it",
    )
    source.add_argument("--git", metavar="URL", help="clone the project from URL at first boot")
    provision.add_argument("--ref", metavar="REF", help="with --git, the branch or tag")
    provision.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="a config.toml for every table, without [fleet] (default: the defaults)",
    )
    provision.add_argument(
        "--ssh-key",
        type=Path,
        metavar="FILE",
        help="a public key (id_ed25519.pub) that may log in as `cafe` over SSH, for "
        "`codenames-table update --on` (default: no login)",
    )
    provision.add_argument("--wifi", metavar="SSID", help="join this Wi-Fi (default: Ethernet)")
    provision.add_argument(
        "--wifi-password-file", type=Path, metavar="FILE", help="a file holding its passphrase"
    )
    provision.add_argument(
        "--country", metavar="CC", help="with --wifi, the country's two letters (ES, PT, IT, GB)"
    )
    where = provision.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out", type=Path, metavar="DIR", help="a new folder: one folder per table in it"
    )
    where.add_argument(
        "--sd",
        type=Path,
        metavar="PATH",
        help="one table's mounted boot partition (the card's bootfs), written straight to it",
    )
    provision.set_defaults(run=run_provision)


def run_provision(args: argparse.Namespace) -> int:
    """Write the cards' files (`firmware.cli.table_cards`)."""
    from firmware.cli.table_cards import provision

    return provision(args)
