"""The `codenames-table` command line itself: its choices and argument checks."""

import subprocess
import sys


def test_the_command_line_offers_exactly_the_tables_languages() -> None:
    from firmware.cli import LANGUAGE_CHOICES
    from firmware.i18n import LANGUAGES

    assert LANGUAGE_CHOICES == LANGUAGES


def test_selftest_refuses_a_wait_that_is_not_positive() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "selftest", "--wait", "-1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "more than 0 seconds" in result.stderr
