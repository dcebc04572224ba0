"""`codenames-table retire TABLE`: clear a retired table's retained messages on the café's
broker, so that the café view shows it no more (`firmware.fleet.retire`). With `--recipe DIR`,
the broker and the table's own credentials come from the broker recipe's folder."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.cli.command import Commands
from firmware.errors import UsageError

if TYPE_CHECKING:
    from firmware.fleet.broker import Credentials


def add_retire_parser(commands: Commands) -> None:
    """The `retire` subcommand's options."""
    retire = commands.add_parser(
        "retire",
        help="clear a retired table's messages on the café's broker, so that views drop it",
        description="Clear the messages the broker keeps for TABLE (its status, game and "
        "health), so that no café view shows it again; refused while the table says it is "
        "online. Connect as the table itself (--recipe DIR takes the broker and its password "
        "from the broker recipe) or as any user that may write its topics.",
    )
    retire.add_argument("table", metavar="TABLE", help="the table's id, e.g. table-3")
    retire.add_argument("--recipe", type=Path, metavar="DIR", help="the broker recipe's folder")
    retire.add_argument("--broker", metavar="URL", help="mqtt://host:port or mqtts://host:port")
    retire.add_argument("--ca-file", type=Path, help="with mqtts://, the CA to trust")
    retire.add_argument("--username", help="a user that may write the table's topics")
    retire.add_argument("--password-file", type=Path, help="a file holding its password")
    retire.add_argument(
        "--force", action="store_true", help="clear it even though it says it is online"
    )
    retire.set_defaults(run=run_retire)


def run_retire(args: argparse.Namespace) -> int:
    """Retire the table: exit 0, 1 when the broker did not let it (one line), `UsageError`
    for options that cannot be used."""
    from firmware.fleet.broker import BrokerAddress, BrokerError, Credentials
    from firmware.fleet.retire import RetireError, retire
    from firmware.fleet.schema import TABLE_ID

    if TABLE_ID.fullmatch(args.table) is None:
        raise UsageError(f"{args.table!r} is not a table id: 1-64 letters, digits, - or _")
    url, credentials = args.broker, Credentials(args.ca_file, args.username, args.password_file)
    if args.recipe is not None:
        url, credentials = _from_recipe(args.recipe, args.table, args.broker)
    if url is None:
        raise UsageError("--broker URL or --recipe DIR is needed")
    try:
        address = BrokerAddress.parse(url)
    except BrokerError as error:
        raise UsageError(f"--broker {error}") from error
    try:
        retired = retire(args.table, address, credentials, force=args.force)
    except RetireError as error:
        print(f"codenames-table retire: {error}", file=sys.stderr)
        return 1
    kinds = ", ".join(name.rsplit("/", 1)[1] for name in retired.cleared) or "nothing held"
    print(f"codenames-table retire: {retired.table} cleared on {address} ({kinds})")
    return 0


def _from_recipe(folder: Path, table: str, broker: str | None) -> tuple[str, Credentials]:
    from firmware.fleet.broker import Credentials

    try:
        manifest = json.loads((folder / "recipe.json").read_text(encoding="utf-8"))
        url = manifest["broker"]["url"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"--recipe {folder}: not a broker recipe's folder ({error})") from error
    if table not in manifest.get("tables", {}):
        raise UsageError(f"--recipe {folder}: has no table {table!r}")
    own = folder / "tables" / table
    return broker or url, Credentials(own / "cafe-ca.pem", table, own / "mqtt-password")
