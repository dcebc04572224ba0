"""The firmware's layers, held: what each package may not import, read from every module's
source (imports inside functions and under `TYPE_CHECKING` count: a hidden import is still a
dependency). The README's layout table tells the same story; `test_purity` holds `board_rules`
to the standard library.

Lowest first: `board_rules` (pure rules), `firmware.errors`, `firmware.text_input`,
`firmware.config_keys` and `firmware.collector` (under every layer) < `firmware.drivers` (the
hardware, no game) < the virtual twins (circuits under the drivers) < `firmware.table` (the
application) < the virtual table and its scripts, and `firmware.service` < `firmware.cli` and the
terminal apps (`firmware.sim`, `firmware.coda`, their look in `firmware.tui`), the only ones on
Textual. The fleet (`firmware.fleet`, MQTT) stands above the table, under the service that attaches
it; the café view (`firmware.cafe`) is an app that knows the fleet's messages and no table."""

from __future__ import annotations

import pytest

from ..import_graph import imported_names, project_modules, within

FIRMWARE = (
    "firmware.errors",
    "firmware.text_input",
    "firmware.config_keys",
    "firmware.collector",
    "firmware.drivers",
    "firmware.virtual",
    "firmware.table",
    "firmware.fleet",
    "firmware.service",
    "firmware.cli",
    "firmware.sim",
    "firmware.coda",
    "firmware.tui",
    "firmware.cafe",
)
"""The firmware's packages (and shared modules), lowest first."""
TWINS = tuple(
    f"firmware.virtual.{name}"
    for name in (
        "encoder",
        "i2c",
        "led_supply",
        "matrix_circuit",
        "mpr121",
        "mpr121_physics",
        "ssd1306",
        "strip",
    )
)
VIRTUAL_TABLE = ("firmware.virtual.table", "firmware.virtual.script")
APPS = ("firmware.cli", "firmware.sim", "firmware.coda", "firmware.tui", "firmware.cafe")
"""The command line and the terminal apps: the top, which nothing of the table reaches up to."""
TEXTUAL_APPS = ("firmware.sim", "firmware.coda", "firmware.tui", "firmware.cafe")


def all_but(*allowed: str) -> tuple[str, ...]:
    """Every firmware package but `allowed` (the first being the package the rule is for)."""
    return tuple(package for package in FIRMWARE if package not in allowed)


RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (package, may not import)
    # The error root and the bounded text reading lie under every layer, which all use them.
    ("firmware.errors", all_but("firmware.errors")),
    ("firmware.text_input", all_but("firmware.text_input", "firmware.errors")),
    # The config's keys are declared on the types of every layer that has some, drivers first.
    ("firmware.config_keys", all_but("firmware.config_keys", "firmware.errors")),
    # The garbage collector's settling, for the long-running programs, stands on nothing.
    ("firmware.collector", all_but("firmware.collector")),
    # The drivers know the hardware and no game; the twins stand under them, not beside.
    (
        "firmware.drivers",
        all_but(
            "firmware.drivers", "firmware.errors", "firmware.text_input", "firmware.config_keys"
        ),
    ),
    # A twin is a circuit that the drivers drive: of the firmware it knows only the drivers.
    *((twin, all_but("firmware.drivers", "firmware.errors")) for twin in TWINS),
    # The application never knows whether it runs on the Pi, on virtual hardware or in a window.
    ("firmware.table", ("firmware.virtual", "firmware.service", "firmware.fleet", *APPS)),
    # The fleet reports a table it is handed: of the firmware it knows the table and below.
    ("firmware.fleet", ("firmware.virtual", "firmware.service", *APPS)),
    # The virtual table stands where the Pi's devices stand: the service runs it, not the reverse.
    *((module, ("firmware.service", *APPS)) for module in VIRTUAL_TABLE),
    ("firmware.service", APPS),
    # The terminal apps: the simulation runs the table, Coda knows none of it; they share a look.
    ("firmware.sim", ("firmware.cli", "firmware.coda")),
    ("firmware.coda", all_but("firmware.coda", "firmware.tui")),
    ("firmware.tui", all_but("firmware.tui")),
    # The café reads the fleet's messages and knows no table: only the schema, its look and
    # the catalogs its words are in (see ALLOWED).
    (
        "firmware.cafe",
        all_but(
            "firmware.cafe",
            "firmware.fleet",
            "firmware.tui",
            "firmware.errors",
            "firmware.collector",
        ),
    ),
    # Textual is the terminal apps' own business.
    *((package, ("textual",)) for package in all_but(*TEXTUAL_APPS)),
    # MQTT is the fleet's and the café's business, the web the café's alone.
    *((package, ("paho",)) for package in all_but("firmware.fleet", "firmware.cafe")),
    *((package, ("aiohttp",)) for package in all_but("firmware.cafe")),
    # Development tools are not shipped to the Pi.
    ("firmware", ("tools",)),
)


ALLOWED: dict[str, tuple[str, ...]] = {
    # The café's words are in the table's catalogs, one set of translations for both; the
    # catalogs' loader needs nothing of the table.
    "firmware.cafe": ("firmware.table.i18n",),
    # The touch chip's twin measures the pads its physics describes.
    "firmware.virtual.mpr121": ("firmware.virtual.mpr121_physics",),
}
"""Modules a package may import although a rule above forbids their package."""


def test_every_package_of_the_firmware_has_rules() -> None:
    modules = project_modules()
    packages = {".".join(name.split(".")[:2]) for name in modules if within(name, "firmware")}
    assert packages - {"firmware"} == set(FIRMWARE)
    virtual = {name for name in modules if within(name, "firmware.virtual")}
    assert virtual - {"firmware.virtual"} == {*TWINS, *VIRTUAL_TABLE}


@pytest.mark.parametrize(
    ("package", "forbidden"), RULES, ids=[f"{p} not {','.join(f)}" for p, f in RULES]
)
def test_a_layer_imports_nothing_it_may_not(package: str, forbidden: tuple[str, ...]) -> None:
    modules = {name: path for name, path in project_modules().items() if within(name, package)}
    assert modules, package
    broken = []
    for module, path in modules.items():
        allowed = ALLOWED.get(package, ())
        names = {
            n
            for n in imported_names(module, path)
            if any(within(n, b) for b in forbidden) and not any(within(n, a) for a in allowed)
        }
        # `from a import B` reads as `a` and `a.B`: name the module once.
        broken += [f"{module} imports {n}" for n in names if n.rpartition(".")[0] not in names]
    assert not broken, sorted(broken)
