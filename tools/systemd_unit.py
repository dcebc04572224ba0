"""A systemd unit file's settings as systemd reads them, for the tools and tests that check what
the table's unit says (`systemd/codenames-table.service`)."""

from __future__ import annotations

from pathlib import Path

TABLE_UNIT = Path(__file__).resolve().parent.parent / "systemd" / "codenames-table.service"
"""The table's unit, as `install.sh` installs it on the Pi."""


def unit_settings(unit: Path) -> dict[str, list[tuple[str, str]]]:
    """The unit file as systemd reads it: sections of (key, value), keys repeated in order."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for raw in unit.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def unit_values(unit: Path, section: str, key: str) -> list[str]:
    """Every value `key` is given in `section` of `unit`, in order."""
    return [value for name, value in unit_settings(unit).get(section, []) if name == key]
