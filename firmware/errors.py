"""The root of the firmware's exceptions, and the command line's exit code for bad input.

Every exception the firmware defines derives from `FirmwareError` and also from the built-in
it resembles (`ConfigError(FirmwareError, ValueError)`, `StoreError(FirmwareError, OSError)`),
so that a caller can catch either one. The rules core has its own roots
(`board_rules.codenames.CodenamesError`, `board_rules.coda.CodaError`): it imports nothing of
the firmware.

This module imports nothing: every layer may use it, the drivers as well as the commands.
"""

from __future__ import annotations

EXIT_USAGE = 2
"""Exit code for bad input: a malformed transcript, script or config, or a missing device."""


class FirmwareError(Exception):
    """Root of every error the firmware raises."""


class UsageError(FirmwareError, ValueError):
    """A command cannot do what it was asked: bad input, a bad option, or the wrong machine.

    The message is one line and names what is wrong (the file and line, the option or the config
    key); `firmware.cli.main.main` prints it after the command's name and exits `EXIT_USAGE`.
    """
