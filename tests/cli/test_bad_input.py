"""Random input to every reader of text: the config loader, the transcript and the script. Whatever
comes in, the command exits 0 or 2, and on 2 says why in one line; it never raises, never hangs."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firmware.table.config import ConfigError, TableConfig, load_config
from firmware.virtual.script import ScriptError, parse_script

from ..conftest import Cli

FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def one_line(text: str) -> str:
    """The only line of `text`, which must end with a newline."""
    assert text.endswith("\n")
    assert text.count("\n") == 1, text
    assert len(text) < 1000
    return text[:-1]


def run(cli: Cli, argv: list[str]) -> tuple[int, str]:
    """Run the command in this process; its exit code and standard output, once standard error
    was checked to hold one line on exit 2 and nothing otherwise."""
    code, out, err = cli(*argv)
    assert code in (0, 2), (code, err)
    if code == 2:
        one_line(err)
        assert out == ""
    else:
        assert err == ""
    return code, out


# --- the config: random bytes, and random documents made of the real sections and keys ---

KEYS = {
    "table": ["language", "mode", "brightness", "timer_s", "strict", "sleep_after_s", "state_dir"],
    "input": ["debounce_ms", "stuck_after_s"],
    "oled": ["contrast", "dim_contrast", "shift_every_s", "rotate_180"],
    "led.layout": ["serpentine", "rotation", "mirror", "offset"],
    "led.style": ["red", "assassin", "covered_dim", "assassin_blink_hz", "colour_blind_team"],
    "pins.matrix": ["rows", "columns"],
    "pins.led": ["backend", "data"],
    "pins.oled": ["address"],
    "pins.encoder": ["a", "b", "push"],
}
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**4000), max_value=10**4000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 10, 1e-9, 1e300, -0.0, 600, 86_400, 10_000_000]),
)
SCALARS = st.one_of(
    NUMBERS,
    st.booleans(),
    st.text(max_size=20),
    st.sampled_from(["en", "coop", "/var/lib/x", "/tmp/x", "rel", "#ff0000", "spi", "red"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def toml_value(value: Any) -> str:
    """`value` written as TOML (JSON's string escapes are TOML's, but for a few that only make
    the document invalid, which the loader must survive too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    pairs = (f"{json.dumps(key)} = {toml_value(item)}" for key, item in value.items())
    return "{" + ", ".join(pairs) + "}"


@st.composite
def config_documents(draw: st.DrawFn) -> str:
    lines = []
    for section in draw(st.lists(st.sampled_from(sorted(KEYS)), max_size=4, unique=True)):
        lines.append(f"[{section}]")
        names = st.sampled_from(KEYS[section]) | st.text(min_size=1, max_size=8)
        for name in draw(st.lists(names, max_size=4, unique=True)):
            lines.append(f"{json.dumps(name)} = {toml_value(draw(VALUES))}")
    return "\n".join(lines) + "\n"


@FAST
@given(document=config_documents())
@example(document="[oled]\nshift_every_s = 1e-9\n")
@example(document="[table]\nsleep_after_s = inf\nstate_dir = 'a\\u0000b'\n")
@example(document="[led.layout]\noffset = 10000000\n")
def test_a_random_config_document_is_checked_in_one_line(
    tmp_path: Path, cli: Cli, document: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(document, encoding="utf-8")
    code, out = run(cli, ["run", "--check-config", "--config", str(path)])
    if code == 0:
        one_line(out)
        config = load_config(path)
        # Whatever passed is inside the bounds that keep the clock and the loops sane.
        assert 10 <= config.sleep_after_s <= 86_400
        shift = config.oled.shift_every_s
        assert shift == 0 or 10 <= shift <= 86_400
        assert config.led_layout.offset <= 100


@FAST
@given(data=st.binary(max_size=300))
@example(data=b"\xff")
@example(data=b"\xef\xbb\xbf[table]\nmode = 'coop'\n")
@example(data=b"a = " + b"[" * 20_000 + b"]" * 20_000)
@example(data=b"[table]\nsleep_after_s = " + b"9" * 5000)
def test_random_bytes_as_a_config_are_a_config_or_one_line_of_error(
    tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(data)
    try:
        assert isinstance(load_config(path), TableConfig)
    except ConfigError as error:
        one_line(f"{error}\n")


# --- transcripts and scripts: random lines of real words, and random bytes ---

SEPARATORS = [" ", "\t", "\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u00a0", "#"]
ENDINGS = ["\n", "\r\n", "\r"]
TOKENS = st.one_of(
    st.sampled_from(
        [
            "key",
            "mode",
            "coop",
            "clue",
            "touch",
            "cover",
            "done",
            "undo",
            "penalty",
            "timeout",
            "A1",
            "e5",
            "Z9",
            "unlimited",
            "9",
            "RRRRR/RRRRB/BBBBB/BBNNN/NNNNA",
            "press",
            "button",
            "timer",
            "turn",
            "+3",
            "-1000",
            "+100000000",
            "push",
            "wait",
            "0.5",
            "1e300",
            "nan",
            "dump",
            "power-cut",
            "\ufeff",
        ]
    ),
    st.text(max_size=6),
)


@st.composite
def line_texts(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        tokens = draw(st.lists(TOKENS, max_size=4))
        separators = [draw(st.sampled_from(SEPARATORS)) for _ in tokens]
        lines.append("".join(t + s for t, s in zip(tokens, separators, strict=True)))
        lines.append(draw(st.sampled_from(ENDINGS)))
    return "".join(lines)


@FAST
@given(text=line_texts(), raw=st.binary(max_size=100), as_bytes=st.booleans())
@example(text="# note\x1ctouch E5\n", raw=b"", as_bytes=False)
@example(text="", raw=b"clue 1\n\xff\n", as_bytes=True)
def test_a_random_transcript_is_replayed_or_refused_in_one_line(
    tmp_path: Path, cli: Cli, text: str, raw: bytes, as_bytes: bool
) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(raw if as_bytes else text.encode())
    code, out = run(cli, ["replay", str(path), "--seed", "1"])
    if code == 0:
        assert json.loads(out)["mode"] in ("standard", "coop")


@FAST
@given(text=line_texts())
@example(text="turn +100000000\n")
@example(text="wait 3600\n" * 7)
def test_a_random_script_is_read_or_refused_in_one_line(text: str) -> None:
    try:
        parse_script(text)
    except ScriptError as error:
        one_line(f"{error.message}\n")


# A script that reads is also played, on a short leash: only steps that take little virtual time.
QUICK = [
    "dump",
    "push",
    "press A1",
    "press E5 0.2",
    "button done",
    "button undo 1.2",
    "turn +2",
    "wait 1",
    "power-cut",
]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(st.sampled_from(QUICK), max_size=6),
    ending=st.sampled_from(ENDINGS),
    noise=st.sampled_from(["", "\ufeff", "# x\x1cpress E5", "jump", "\xff"]),
)
def test_a_random_script_runs_or_is_refused_in_one_line(
    tmp_path: Path, cli: Cli, steps: list[str], ending: str, noise: str
) -> None:
    path = tmp_path / "script.txt"
    data = (noise + ending + ending.join(steps) + ending).encode()
    path.write_bytes(data.replace("\xff".encode(), b"\xff"))
    code, out = run(cli, ["sim", "--headless", "--script", str(path), "--seed", "1"])
    if code == 0:
        assert len(out.splitlines()) == steps.count("dump")
