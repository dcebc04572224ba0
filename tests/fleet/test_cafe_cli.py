"""`codenames-table cafe`: a bad broker URL, listening address, token file or language is one
line and exit 2."""

from __future__ import annotations

import pytest

from firmware.cafe.web import parse_listen
from firmware.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--broker", "http://x"], "codenames-table cafe: --broker 'http://x': expected mqtt://"),
        (["--broker", "mqtt://x", "--http", "127.0.0.1:0"], "--http '127.0.0.1:0': expected"),
        (["--broker", "mqtt://x", "--no-terminal"], "--no-terminal needs --http"),
        (["--broker", "mqtt://x", "--lang", "fr"], "--lang 'fr': expected one of en, es, pt, it"),
        (["--broker", "mqtt://x", "--lang", "pt_PT"], "--lang 'pt_PT': expected one of"),
        (
            ["--broker", "mqtt://x", "--http", "0.0.0.0:8080"],
            "--http 0.0.0.0:8080: a page served beyond loopback needs --token-file",
        ),
        (
            ["--broker", "mqtt://x", "--http", "0.0.0.0:8080", "--token-file", "/nonexistent"],
            "--token-file /nonexistent: cannot be read",
        ),
        (
            ["--broker", "mqtt://x", "--http", "8080", "--token-file", "/dev/null"],
            "--token-file /dev/null: expected one line of 16 characters or more",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cafe", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "listen"),
    [
        ("8080", ("127.0.0.1", 8080)),
        (":8080", ("127.0.0.1", 8080)),
        ("0.0.0.0:8080", ("0.0.0.0", 8080)),
        ("[::1]:8080", ("::1", 8080)),
    ],
)
def test_the_page_is_bound_to_localhost_unless_a_host_is_given(
    text: str, listen: tuple[str, int]
) -> None:
    assert parse_listen(text) == listen
