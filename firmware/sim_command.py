"""`codenames-table sim`: the table on virtual hardware; `--headless --script` plays a script."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from firmware.cli import EXIT_USAGE
from firmware.config import ConfigError, load_config
from firmware.script import ScriptError, ScriptRunner, parse_script


def run_sim(args: argparse.Namespace) -> int:
    """Run the `sim` subcommand; returns the exit code."""
    if not args.headless or args.script is None:
        print(
            "codenames-table sim: only --headless --script FILE is available so far",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"codenames-table sim: {error}", file=sys.stderr)
        return EXIT_USAGE
    name = "<stdin>" if args.script == "-" else args.script
    try:
        text = sys.stdin.read() if args.script == "-" else Path(args.script).read_text("utf-8")
        first_key, steps = parse_script(text)
    except (OSError, UnicodeDecodeError) as error:
        print(f"codenames-table sim: cannot read {name}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ScriptError as error:
        print(f"codenames-table sim: {name}:{error.line}: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    with tempfile.TemporaryDirectory(prefix="codenames-table-") as scratch:
        # A script starts from an empty table unless told where the saved games are, so that
        # it prints the same every time.
        state_dir = args.state_dir or Path(scratch)
        runner = ScriptRunner(
            config,
            state_dir,
            seed=args.seed,
            out=sys.stdout,
            oled_png_dir=args.oled_png,
            first_key=first_key,
            language=args.lang,
        )
        try:
            runner.run(steps)
        finally:
            runner.close()
    return 0
