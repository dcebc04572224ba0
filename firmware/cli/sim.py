"""`codenames-table sim`: the table on virtual hardware.

Without `--headless` it opens the desktop simulation (`firmware.sim.app`, imported only then:
Textual takes a while to load on a Pi), which reports to the café's broker as the service does
when the config has `[fleet]`, so that a person can play a table by hand and watch the café
view (and says, once the window is closed, why it could not report). `--headless --script
FILE` plays a script and prints its dumps; it reports to no broker (a virtual clock plays it
faster than real time, and the same every time) and says so in one line. A state directory it
cannot enter, or an `--oled-png` folder it cannot write, exits 2 before anything is played.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from firmware.cli.state_folder import default_state_dir
from firmware.errors import UsageError
from firmware.fleet.attach import reporting
from firmware.service.state_dir import StateDirError, check_enterable
from firmware.table.config import ConfigError, TableConfig, load_config
from firmware.table.words import WordListError, WordSource
from firmware.text_input import TextInputError, display_name, read_text
from firmware.virtual.script import PictureError, ScriptError, ScriptRunner, parse_script


def run_sim(args: argparse.Namespace) -> int:
    """Run the `sim` subcommand; returns the exit code, raises `UsageError` before anything is
    played."""
    try:
        config = load_config(args.config)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if not args.headless and (args.script is not None or args.oled_png is not None):
        raise UsageError("--script and --oled-png need --headless")
    try:
        if args.state_dir is not None or not args.headless:
            check_enterable(args.state_dir or default_state_dir())
    except StateDirError as error:
        raise UsageError(f"state directory {error}") from error
    if args.headless:
        return _run_headless(args, config)
    return _run_window(args, config)


def _word_source(args: argparse.Namespace) -> WordSource:
    """The words of the cards: `--words FILE`, or the list of the table's language."""
    words_file: Path | None = getattr(args, "words", None)
    try:
        return WordSource() if words_file is None else WordSource.from_file(Path(words_file))
    except WordListError as error:
        raise UsageError(str(error)) from error


def _run_window(args: argparse.Namespace, config: TableConfig) -> int:
    words = _word_source(args)
    from firmware.sim.app import SimApp

    try:
        app = SimApp(
            config,
            args.state_dir or default_state_dir(),
            words=words,
            seed=args.seed,
            language=args.lang,
        )
    except WordListError as error:
        raise UsageError(str(error)) from error
    fleet = config.fleet
    if fleet is not None:
        # Said before the window takes the screen, so that it is still there after it.
        print(f"codenames-table sim: reporting to {fleet.broker} as {fleet.table} ([fleet])")
    try:
        with reporting(fleet, app.vt.table, app.state_dir, lambda: app.vt.oled.is_up) as publisher:
            app.run()
    finally:
        app.close()
    if app.goodbye:
        print(app.goodbye)
    if publisher is not None and publisher.problem is not None:
        # The window hid the log: why the café view did not see this table.
        print(f"codenames-table sim: fleet: {publisher.problem}")
    return 0


def _run_headless(args: argparse.Namespace, config: TableConfig) -> int:
    if args.script is None:
        raise UsageError("--headless needs --script FILE")
    if config.fleet is not None:
        print(
            "codenames-table sim: [fleet] ignored: a headless script plays on a virtual clock; "
            "`run --virtual SCRIPT` reports to the broker in real time",
            file=sys.stderr,
        )
    try:
        script = parse_script(read_text(args.script))
    except (TextInputError, ScriptError) as error:
        raise UsageError(error.located(display_name(args.script))) from error
    words = _word_source(args)
    if args.oled_png is not None:
        try:
            args.oled_png.mkdir(parents=True, exist_ok=True)
            _check_writable(args.oled_png)
        except OSError as error:
            raise UsageError(
                f"--oled-png {args.oled_png}: cannot write there: {error.strerror or error}"
            ) from error
    with tempfile.TemporaryDirectory(prefix="codenames-table-") as scratch:
        # A script starts from an empty table unless told where the saved games are, so that
        # it prints the same every time. The folder holds the keys: the CLI turns SIGTERM into
        # an exception so that it is removed then too.
        state_dir = args.state_dir or Path(scratch)
        runner = ScriptRunner(
            config,
            state_dir,
            seed=args.seed,
            out=sys.stdout,
            oled_png_dir=args.oled_png,
            first_key=script.key,
            first_mode=script.mode,
            language=args.lang,
            words=words,
        )
        try:
            runner.run(script.steps)
        except PictureError as error:
            raise UsageError(f"--oled-png: {error}") from error
        finally:
            runner.close()
    return 0


def _check_writable(folder: Path) -> None:
    """Raise the `OSError` that writing a file into `folder` would meet."""
    with tempfile.TemporaryFile(dir=folder):
        pass
