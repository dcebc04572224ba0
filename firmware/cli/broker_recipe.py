"""`codenames-table broker-recipe --tables N --host NAME --out DIR`: the café's broker config,
certificates and credentials for N tables and the café view (`firmware.fleet.recipe`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.cli.command import Commands
from firmware.errors import UsageError


def add_broker_recipe_parser(commands: Commands) -> None:
    """The `broker-recipe` subcommand's options."""
    recipe = commands.add_parser(
        "broker-recipe",
        help="write a café broker's TLS config, users and ACL, and each table's credentials",
        description="Write into a new folder a Mosquitto config (TLS only, anonymous refused), a "
        "CA and the broker's certificate, a user and password per table and one for the café "
        "view, an ACL that lets each table write only its own topics and the view only read, "
        "and each table's [fleet] and credential files; recipe.json says where each file goes.",
    )
    count = recipe.add_mutually_exclusive_group(required=True)
    count.add_argument("--tables", type=int, metavar="N", help="tables table-1 to table-N")
    count.add_argument(
        "--table", action="append", metavar="ID", help="a table by its id (repeat for each)"
    )
    count.add_argument(
        "--add",
        action="append",
        metavar="ID",
        help="add a table to the recipe in --out DIR, the others unchanged (repeat for each); "
        "then install the broker's files again",
    )
    recipe.add_argument(
        "--host",
        action="append",
        metavar="NAME",
        help="the broker's name or address as the tables reach it (repeat for more; the first "
        "goes in the tables' config, all in the certificate)",
    )
    recipe.add_argument("--port", type=int, default=8883, help="its TLS port (8883)")
    recipe.add_argument("--out", type=Path, required=True, metavar="DIR", help="a new folder")
    recipe.add_argument(
        "--broker-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the broker's files go on its machine (/etc/mosquitto/codenames)",
    )
    recipe.set_defaults(run=run_broker_recipe)


def run_broker_recipe(args: argparse.Namespace) -> int:
    """Write the recipe; `UsageError` for options or a folder that cannot be used."""
    from firmware.fleet.recipe import BROKER_DIR, Recipe, RecipeError, add_tables, write_recipe

    if args.add is not None:
        if args.host or args.broker_dir:
            raise UsageError("--add keeps the recipe's broker: no --host or --broker-dir")
        try:
            manifest = add_tables(args.out, tuple(args.add))
        except RecipeError as error:
            raise UsageError(str(error)) from error
        print(
            f"codenames-table broker-recipe: added {', '.join(args.add)} to {args.out} "
            f"({len(manifest['tables'])} tables); install the broker's files again "
            "(install-cafe.sh) so that Mosquitto knows them"
        )
        return 0
    if not args.host:
        raise UsageError("--host NAME is needed: the broker's name as the tables reach it")
    if args.tables is not None and not 0 < args.tables <= 1000:
        raise UsageError(f"--tables {args.tables}: expected 1 to 1000")
    tables = args.table or [f"table-{n}" for n in range(1, args.tables + 1)]
    try:
        recipe = Recipe(tuple(tables), tuple(args.host), args.port, args.broker_dir or BROKER_DIR)
        write_recipe(recipe, args.out)
    except RecipeError as error:
        raise UsageError(str(error)) from error
    shown = tables[0] if len(tables) == 1 else f"{tables[0]} … {tables[-1]}"
    print(
        f"codenames-table broker-recipe: wrote {args.out}: the broker {recipe.url}, "
        f"{len(tables)} tables ({shown}) and the café view; recipe.json says where each file "
        "goes; keep ca/cafe-ca.key off the broker"
    )
    return 0
