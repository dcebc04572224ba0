"""The `codenames-table` command and its subcommands.

Each subcommand's module is imported only when it runs: start-up time matters on a Pi Zero 2 W.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

EXIT_USAGE = 2
"""Exit code for bad input: a malformed transcript, config or argument."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="codenames-table", description="Firmware of the Codenames game table."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = commands.add_parser(
        "replay",
        help="play a transcript through the rules and print the final state as JSON",
        description="Play a transcript through the rules core and print the final state as JSON.",
    )
    replay.add_argument("file", metavar="FILE", help="the transcript, or - for standard input")
    replay.add_argument(
        "--seed", type=int, help="seed for the random key when the transcript names none"
    )
    replay.add_argument(
        "--strict", action="store_true", help="exit 1 when the rules reject any action"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        from firmware.replay import run_replay

        return run_replay(args.file, seed=args.seed, strict=args.strict)
    raise AssertionError(f"unhandled command {args.command}")  # argparse allows no other


if __name__ == "__main__":
    sys.exit(main())
