"""The firmware's exceptions share one root, each also the built-in it resembles; the command
line turns a `UsageError` into exit 2 and one line."""

import ast
import importlib
from pathlib import Path

import pytest

from firmware.errors import EXIT_USAGE, FirmwareError, UsageError

from ..conftest import Cli
from ..paths import REPO

FIRMWARE = REPO / "firmware"


def defined_exceptions() -> list[type[BaseException]]:
    """Every exception class the firmware defines. A module is imported only if its source
    defines a class at all, so that the Textual apps load only when they hold one."""
    found: list[type[BaseException]] = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
        if not names:
            continue
        parts = path.relative_to(FIRMWARE.parent).with_suffix("").parts
        module = importlib.import_module(".".join(p for p in parts if p != "__init__"))
        for name in names:
            cls = getattr(module, name)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                found.append(cls)
    return found


def builtin_bases(cls: type[BaseException]) -> list[type]:
    """The classes `cls` derives from that the firmware does not define, beyond `Exception`."""
    generic = {cls, object, BaseException, Exception}
    return [
        base for base in cls.__mro__ if base not in generic and "firmware" not in base.__module__
    ]


EXCEPTIONS = defined_exceptions()


def test_the_search_finds_the_errors_of_every_layer() -> None:
    modules = {cls.__module__.split(".")[1] for cls in EXCEPTIONS if cls is not FirmwareError}
    assert {"drivers", "table", "service", "virtual", "text_input"} <= modules


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_firmware_error_derives_from_the_root_and_a_built_in(
    cls: type[BaseException],
) -> None:
    if not issubclass(cls, Exception):
        # A signal (`Stopped`), like KeyboardInterrupt: no `except Exception` may swallow it.
        assert cls.__doc__ and "BaseException" in cls.__doc__
        return
    assert issubclass(cls, FirmwareError)
    assert cls.__doc__, "a one-line docstring says when it is raised"
    if cls is FirmwareError:
        return
    if not builtin_bases(cls):
        # Only the root of a family may stand without a built-in: its members each have one.
        family = [other for other in EXCEPTIONS if other is not cls and issubclass(other, cls)]
        assert family, f"{cls.__name__} also derives from no built-in exception"
        assert all(builtin_bases(member) for member in family)


def test_usage_error_is_a_value_error_with_its_message() -> None:
    error = UsageError("--games must be 1 or more, not 0")
    assert isinstance(error, ValueError)
    assert str(error) == "--games must be 1 or more, not 0"
    assert EXIT_USAGE == 2


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["sim", "--headless"], "codenames-table sim: --headless needs --script FILE"),
        (["coda", "--headless", "--players", "easy"], "codenames-table coda: --players: 2 to 4"),
        (
            ["coda", "--players", "easy,hard"],
            "codenames-table coda: --players, --games and --timing need",
        ),
        (["replay", "{missing}"], "codenames-table replay: {missing}: cannot read: "),
        (["stats", "--config", "{missing}"], "codenames-table stats: {missing}: cannot read: "),
        (["selftest"], "codenames-table selftest: this is not a Raspberry Pi"),
    ],
)
def test_main_turns_a_usage_error_into_exit_2_and_one_line(
    cli: Cli, tmp_path: Path, argv: list[str], line: str
) -> None:
    missing = str(tmp_path / "missing.txt")
    result = cli(*(arg.format(missing=missing) for arg in argv))
    assert (result.returncode, result.stdout) == (EXIT_USAGE, "")
    [printed] = result.stderr.splitlines()
    assert printed.startswith(line.format(missing=missing))
