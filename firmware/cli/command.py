"""How a subcommand of `codenames-table` is registered: an `add_<name>_parser(commands)` declares
its options on its own subparser and names its runner with `set_defaults(run=runs(module,
function))`; `firmware.cli.main` lists every one of them and calls `args.run(args)`.

The runner's module is imported only when the command runs: start-up time matters on a Pi Zero
2 W, and most commands import much more than their options need.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import TypeAlias

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What `add_subparsers` returns, where each command adds its parser."""

Runner = Callable[[argparse.Namespace], int]
"""A command's body: its parsed arguments in, its exit code out."""


def runs(module: str, function: str) -> Runner:
    """The runner `function` of `module`, imported when the command runs."""

    def run(args: argparse.Namespace) -> int:
        runner: Runner = getattr(importlib.import_module(module), function)
        return runner(args)

    return run
