"""The `codenames-table` command and its subcommands.

Every subcommand is registered the same way (`firmware.cli.command`): its options on its own
subparser and its runner, whose module is imported only when it runs (start-up time matters on a
Pi Zero 2 W). `COMMANDS` lists them.

A command refuses bad input by raising `firmware.errors.UsageError`: `main` alone prints it, as one
line after the command's name (`codenames-table sim: --headless needs --script FILE`), and exits 2.

The command ends quietly, never with a traceback, when its reader goes away (`replay … | head`:
exit 141, as a shell reports a program that SIGPIPE ended, with nothing printed) and when it is
stopped (SIGINT or SIGTERM: one line on standard error, exit 130 or 143); the commands that run
to an end, not a window or the service, turn both signals into an exception so that what they
created, such as the temporary state folder of `sim --headless`, is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType

from firmware.cli.broker_recipe import add_broker_recipe_parser
from firmware.cli.cafe import add_cafe_parser
from firmware.cli.command import Commands, Runner, runs
from firmware.cli.provision import add_provision_parser
from firmware.cli.retire import add_retire_parser
from firmware.cli.update import add_update_parser
from firmware.errors import EXIT_USAGE, UsageError
from firmware.table.i18n import LANGUAGE_METAVAR, LANGUAGES

EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""Exit code when standard output was closed by its reader: what a shell shows for a program
that SIGPIPE ended, so that `set -o pipefail` still tells that the output was cut short."""


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="the TOML config file")
    parser.add_argument(
        "--lang", choices=LANGUAGES, metavar=LANGUAGE_METAVAR, help="the language, for this run"
    )
    parser.add_argument("--state-dir", type=Path, help="where the saved games are kept")


def _add_record_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="the TOML config file (for the state dir)")
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="where the saved games are kept (default: the service's on a Pi, else the "
        "simulation's)",
    )


def _version() -> str:
    try:
        return importlib.metadata.version("codenames-table")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _add_replay_parser(commands: Commands) -> None:
    """`replay`: a transcript through the rules."""
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
    replay.add_argument(
        "--summary",
        action="store_true",
        help="print one line in the table's words (who won and how, or whose turn it is) "
        "instead of the JSON state",
    )
    replay.add_argument(
        "--lang",
        choices=LANGUAGES,
        metavar=LANGUAGE_METAVAR,
        default="en",
        help="the language of --summary's line",
    )
    replay.set_defaults(run=runs("firmware.cli.replay", "run_replay_command"))


def _add_sim_parser(commands: Commands) -> None:
    """`sim`: the table on virtual hardware."""
    sim = commands.add_parser(
        "sim",
        help="run the table on virtual hardware",
        description="Run the whole table on virtual hardware. With --headless --script FILE, a "
        "virtual clock plays the script and each `dump` prints one JSON line.",
    )
    _add_table_options(sim)
    sim.add_argument("--seed", type=int, help="seed for the keys of new games")
    sim.add_argument("--headless", action="store_true", help="no window: play a script")
    sim.add_argument("--script", metavar="FILE", help="the script to play, or - for stdin")
    sim.add_argument("--oled-png", type=Path, metavar="DIR", help="save the OLED at each dump")
    sim.add_argument(
        "--words", type=Path, metavar="FILE", help="a word list for the cards, one word a line"
    )
    sim.set_defaults(run=runs("firmware.cli.sim", "run_sim"))


def _add_run_parser(commands: Commands) -> None:
    """`run`: the table on the Pi's hardware (the service)."""
    run = commands.add_parser(
        "run",
        help="run the table on the Raspberry Pi's hardware",
        description="Run the table on the Pi: GPIO switch matrix and console, I2C OLED, "
        "SPI LED key. Elsewhere, use `sim`.",
    )
    _add_table_options(run)
    run.add_argument(
        "--check-config",
        action="store_true",
        help="only check the config as `run` would, on any machine and without the hardware: "
        "exit 0 with a one-line summary, or 2 with the error",
    )
    run.add_argument(
        "--virtual",
        nargs="?",
        const="",
        metavar="SCRIPT",
        help="anywhere, on virtual hardware and the real clock, as the service (a demonstration,"
        " the service test); SCRIPT is played once the table is up; the state folder may be "
        "one a reboot empties, such as /tmp",
    )
    run.set_defaults(run=runs("firmware.service.run", "run_table"))


def _add_selftest_parser(commands: Commands) -> None:
    """`selftest`: the hardware check, or with `--fleet` the broker's."""
    selftest = commands.add_parser(
        "selftest",
        help="check the table's hardware, guided on the OLED",
        description="Light each LED in red, green and blue, draw a test pattern on the OLED, then "
        "ask for each switch and the encoder in turn; exit 1 on any fault. With --fleet, check "
        "the café's broker instead.",
    )
    selftest.add_argument("--config", type=Path, help="the TOML config file")
    selftest.add_argument(
        "--wait",
        type=positive_seconds,
        default=10.0,
        metavar="S",
        help="seconds to wait for each switch",
    )
    checks = selftest.add_mutually_exclusive_group()
    checks.add_argument(
        "--calibrate",
        action="store_true",
        help='with [input] backend = "mpr121": measure each pad through its card and write its '
        "touch and release thresholds to the config (exit 1 when a pad is too weak)",
    )
    checks.add_argument(
        "--fleet",
        action="store_true",
        help="connect to the [fleet] broker as the table does, publishing nothing, and say in "
        "one line whether it accepts the table (exit 1 when not); runs beside the service",
    )
    selftest.set_defaults(run=_run_selftest)


def _add_stats_parser(commands: Commands) -> None:
    """`stats`: how the table is used."""
    stats = commands.add_parser(
        "stats",
        help="how the table is used, from the saved games",
        description="Games played by mode, wins per team, assassin endings, average length and "
        "turns, guesses per clue and co-op scores, from the saved games.",
    )
    _add_record_options(stats)
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.set_defaults(run=runs("firmware.cli.stats", "run_stats"))


def _add_history_parser(commands: Commands) -> None:
    """`history`: the saved games."""
    history = commands.add_parser(
        "history",
        help="list the saved games, newest first",
        description="List the saved games, newest first: id, start, mode, state, actions, length.",
    )
    _add_record_options(history)
    history.add_argument("--json", action="store_true", help="print one JSON array")
    history.add_argument("--limit", type=int, metavar="N", help="only the N newest games")
    history.set_defaults(run=runs("firmware.cli.history", "run_history"))


def _add_export_parser(commands: Commands) -> None:
    """`export`: a saved game as a transcript."""
    export = commands.add_parser(
        "export",
        help="write a saved game as a transcript for `replay`",
        description="Write a saved game as a transcript that `replay` plays back to the state "
        "the table holds, each action's time as a comment. A game still in play keeps its key "
        "secret unless --with-key.",
    )
    export.add_argument("game_id", type=int, metavar="GAME_ID", help="the id `history` lists")
    _add_record_options(export)
    export.add_argument(
        "--with-key", action="store_true", help="export a game still in play, key included"
    )
    export.set_defaults(run=runs("firmware.cli.export", "run_export"))


def _add_coda_parser(commands: Commands) -> None:
    """`coda`: the tile game."""
    coda = commands.add_parser(
        "coda",
        help="play Coda, the tile code-breaking game, against computer opponents",
        description="Play Coda on screen against 1-3 computer opponents; with --headless, let "
        "computer players play each other and print the wins as JSON.",
    )
    coda.add_argument(
        "--lang", choices=LANGUAGES, metavar=LANGUAGE_METAVAR, default="en", help="the language"
    )
    coda.add_argument("--seed", type=int, help="seed for the deals")
    coda.add_argument(
        "--opponents",
        metavar="LEVELS",
        default="easy",
        help="the computer opponents, comma-separated: easy, hard, expert or master (1 to 3)",
    )
    coda.add_argument("--advanced", action="store_true", help="the advanced game, with dashes")
    coda.add_argument("--headless", action="store_true", help="computer players only, no window")
    coda.add_argument(
        "--players",
        metavar="LEVELS",
        help="with --headless: 2 to 4 players, comma-separated: "
        "easy, hard, expert, master or random",
    )
    coda.add_argument("--games", type=int, default=1, metavar="G", help="with --headless")
    coda.add_argument(
        "--rotate",
        action="store_true",
        help="the next player in order starts each new game (default: the winner starts it)",
    )
    coda.add_argument(
        "--timing", action="store_true", help="with --headless: report each player's slowest move"
    )
    coda.add_argument(
        "--timer",
        action="store_true",
        help="on screen: the optional time rule, a minute and 20 seconds for each attack",
    )
    coda.set_defaults(run=runs("firmware.cli.coda", "run_coda"))


def _run_selftest(args: argparse.Namespace) -> int:
    module, function = (
        ("firmware.service.selftest_fleet", "run_fleet_check")
        if args.fleet
        else ("firmware.service.selftest_pi", "run_selftest")
    )
    return runs(module, function)(args)


COMMANDS: tuple[Callable[[Commands], None], ...] = (
    _add_replay_parser,
    _add_sim_parser,
    _add_run_parser,
    _add_selftest_parser,
    _add_stats_parser,
    _add_history_parser,
    _add_export_parser,
    _add_coda_parser,
    add_cafe_parser,
    add_broker_recipe_parser,
    add_retire_parser,
    add_provision_parser,
    add_update_parser,
)
"""Every subcommand, in the order `--help` lists them (see `firmware.cli.command`)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="codenames-table", description="Firmware of the Codenames game table."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add_parser in COMMANDS:
        add_parser(commands)
    return parser


class Stopped(BaseException):
    """SIGINT or SIGTERM, raised in the main thread so that `finally` blocks and context managers
    clean up; a BaseException, like KeyboardInterrupt, so that no `except Exception` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    # A second signal must not cut the cleanup short.
    for name in (signal.SIGINT, signal.SIGTERM):
        signal.signal(name, signal.SIG_IGN)
    raise Stopped(signum)


def _runs_to_an_end(args: argparse.Namespace) -> bool:
    """Commands whose signals `main` handles; a window and the service have their own."""
    if args.command in ("sim", "coda"):
        return bool(args.headless)
    return args.command in ("replay", "stats", "history", "export")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    previous = {}
    if _runs_to_an_end(args) and threading.current_thread() is threading.main_thread():
        previous = {
            sig: signal.signal(sig, _raise_stopped) for sig in (signal.SIGINT, signal.SIGTERM)
        }
    try:
        run: Runner = args.run
        code = run(args)
        sys.stdout.flush()  # here, so that a closed pipe is met inside the `try`
        return code
    except UsageError as error:
        print(f"codenames-table {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except (KeyboardInterrupt, Stopped) as stop:
        signum = stop.signum if isinstance(stop, Stopped) else signal.SIGINT
        name = signal.Signals(signum).name
        print(f"codenames-table {args.command}: stopped by {name}", file=sys.stderr)
        return 128 + signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _discard_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush at exit does not
    meet the closed pipe again and print a traceback after all."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
