"""`codenames-table cafe --broker URL [--http HOST:PORT] [--lang en|es|pt|it]`: the café view of
every table that reports to the broker (`firmware.cafe`), in the staff's language. Its libraries
are imported only when it runs."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from firmware.cli.command import Commands
from firmware.errors import UsageError
from firmware.table.i18n import LANGUAGE_METAVAR, LANGUAGES


def add_cafe_parser(commands: Commands) -> None:
    """The `cafe` subcommand's options."""
    cafe = commands.add_parser(
        "cafe",
        help="show every table that reports to a café's MQTT broker",
        description="Show every table of the fleet (state, score, health, last action, online or "
        "not) as their messages arrive, in the terminal; with --http, also on a read-only web "
        "page, served on localhost unless HOST says otherwise.",
    )
    cafe.add_argument("--broker", required=True, metavar="URL", help="mqtt://host:port")
    cafe.add_argument("--http", metavar="HOST:PORT", help="also serve the web page here")
    cafe.add_argument("--ca-file", type=Path, help="with mqtts://, the CA to trust")
    cafe.add_argument("--username", help="the café's user on the broker")
    cafe.add_argument("--password-file", type=Path, help="a file holding its password")
    cafe.add_argument(
        "--no-terminal", action="store_true", help="only the web page (a server for the counter)"
    )
    cafe.add_argument(
        "--http-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the page answers to besides HOST (repeatable; for HOST 0.0.0.0)",
    )
    cafe.add_argument(
        "--token-file",
        type=Path,
        help="a file holding the token a browser must give (?token=) when HOST is not loopback",
    )
    cafe.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="the SQLite file of the finished games seen (default: cafe-games.sqlite3 in "
        "$STATE_DIRECTORY, else in ~/.local/state/codenames-table)",
    )
    # Checked when it runs, not by argparse, so that a bad one is a single line.
    cafe.add_argument(
        "--lang",
        metavar=LANGUAGE_METAVAR,
        help="the language of both views (default: the locale's, from LC_ALL, LC_MESSAGES or "
        "LANG, when it is one of these; else en)",
    )
    cafe.set_defaults(run=run_cafe_command)


def run_cafe_command(args: argparse.Namespace) -> int:
    """Run `cafe`; `UsageError` for a bad address or credential."""
    import os
    import sys

    from firmware.cafe.texts import environment_language
    from firmware.fleet.broker import (
        BrokerAddress,
        BrokerError,
        Credentials,
        plain_password_warning,
    )

    language = environment_language(os.environ) if args.lang is None else args.lang
    if language not in LANGUAGES:
        raise UsageError(f"--lang {language!r}: expected one of {', '.join(LANGUAGES)}")
    try:
        address = BrokerAddress.parse(args.broker)
    except BrokerError as error:
        raise UsageError(f"--broker {error}") from error
    page = None
    if args.http is not None:
        from firmware.cafe.run import PageOptions
        from firmware.cafe.web import is_loopback, parse_listen

        try:
            listen = parse_listen(args.http)
        except ValueError as error:
            raise UsageError(str(error)) from error
        token = None if args.token_file is None else _token(args.token_file)
        if token is None and not is_loopback(listen[0]):
            raise UsageError(
                f"--http {args.http}: a page served beyond loopback needs --token-file"
            )
        page = PageOptions(listen, tuple(args.http_name), token)
    elif args.no_terminal:
        raise UsageError("--no-terminal needs --http: there would be nothing to see")
    credentials = Credentials(args.ca_file, args.username, args.password_file)
    warning = plain_password_warning(address, args.password_file)
    if warning is not None:
        print(f"codenames-table cafe: warning: {warning}", file=sys.stderr)
    record = args.record or _default_record(os.environ)
    from firmware.cafe.run import run_cafe

    try:
        return run_cafe(
            address, credentials, page, not args.no_terminal, language, record_path=record
        )
    except BrokerError as error:
        raise UsageError(str(error)) from error
    except sqlite3.Error as error:
        raise UsageError(f"--record {record}: {error}") from error
    except OSError as error:  # the web page's port taken, or the record's folder
        raise UsageError(f"--http {args.http}: {error.strerror or error}") from error


def _token(path: Path) -> str:
    try:
        token = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--token-file {path}: cannot be read ({error})") from error
    if len(token) < 16 or not token.isprintable():
        raise UsageError(f"--token-file {path}: expected one line of 16 characters or more")
    return token


def _default_record(environ: Mapping[str, str]) -> Path:
    folder = environ.get("STATE_DIRECTORY")
    base = Path(folder) if folder else Path.home() / ".local" / "state" / "codenames-table"
    return base / "cafe-games.sqlite3"
