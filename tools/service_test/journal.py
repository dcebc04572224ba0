"""Reading the unit's journal and properties in the container, for `make service-test`."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

UNIT = "codenames-table.service"
READY_LINE = "table ready on virtual hardware: "
"""What `run --virtual` logs, with the game as JSON, just before it sends READY=1."""
PLAYED_LINE = "script played: "
"""What it logs, with the game as JSON, once its script is played."""
PROBE_LINE = "sandbox probe: "
"""What tools/service_test/sandbox_probe.py prints, with its findings as JSON."""


class Runner(Protocol):
    """What runs a command in the container (`container.Container.run`)."""

    def __call__(self, command: list[str]) -> str: ...


@dataclass(frozen=True)
class Entry:
    """One journal entry of the unit: its text, process and times (microseconds)."""

    message: str
    pid: int | None
    monotonic_us: int
    realtime_us: int


def parse_entries(json_lines: str) -> list[Entry]:
    """`journalctl -o json` output as entries; a MESSAGE journald kept as bytes is decoded.

    >>> parse_entries('{"MESSAGE": "hi", "_PID": "7", "__MONOTONIC_TIMESTAMP": "5", '
    ...               '"__REALTIME_TIMESTAMP": "9"}\\n')
    [Entry(message='hi', pid=7, monotonic_us=5, realtime_us=9)]
    """
    entries: list[Entry] = []
    for line in json_lines.splitlines():
        if not line.strip():
            continue
        fields: dict[str, Any] = json.loads(line)
        message = fields.get("MESSAGE", "")
        if isinstance(message, list):
            message = bytes(message).decode("utf-8", errors="replace")
        pid = fields.get("_PID")
        entries.append(
            Entry(
                message=str(message),
                pid=int(pid) if pid is not None else None,
                monotonic_us=int(fields["__MONOTONIC_TIMESTAMP"]),
                realtime_us=int(fields["__REALTIME_TIMESTAMP"]),
            )
        )
    return entries


def payload(entry: Entry, marker: str) -> dict[str, Any] | None:
    """The JSON that follows `marker` in the entry's message, or None without the marker.

    >>> payload(Entry('INFO x: script played: {"actions": 2}', None, 0, 0), PLAYED_LINE)
    {'actions': 2}
    """
    at = entry.message.find(marker)
    if at < 0:
        return None
    found: dict[str, Any] = json.loads(entry.message[at + len(marker) :])
    return found


NOTIFICATION = re.compile(
    r"Got notification message from PID (\d+)(?: \((.*)\)|: (.*))$", re.DOTALL
)
"""systemd's debug line for a notification: "… from PID 41 (READY=1, STATUS=a)" (252), "… from
PID 41: READY=1, STATUS=a" (257)."""


def notifications(entries: list[Entry], pid: int | None = None) -> list[tuple[Entry, str]]:
    """systemd's debug lines "Got notification message from PID N …": the entry and what the
    message held, for process `pid` (or any).

    >>> lines = ["x: Got notification message from PID 41 (READY=1, STATUS=a)",
    ...          "x: Got notification message from PID 42: READY=1, STATUS=b"]
    >>> [text for _, text in notifications([Entry(line, 1, 0, 0) for line in lines])]
    ['READY=1, STATUS=a', 'READY=1, STATUS=b']
    """
    found: list[tuple[Entry, str]] = []
    for entry in entries:
        match = NOTIFICATION.search(entry.message)
        if match and (pid is None or match[1] == str(pid)):
            found.append((entry, (match[2] if match[2] is not None else match[3]).strip()))
    return found


class Journal:
    """The unit's journal and properties, read through `run` (a command in the container)."""

    def __init__(self, run: Runner) -> None:
        self._run = run

    def entries(self) -> list[Entry]:
        """Every entry of the unit since boot: its own lines and systemd's about it."""
        output = self._run(["journalctl", "--unit", UNIT, "--output=json", "--no-pager", "--all"])
        return parse_entries(output)

    def properties(self, *names: str) -> dict[str, str]:
        """`systemctl show` of the unit."""
        output = self._run(["systemctl", "show", UNIT, "--property", ",".join(names)])
        pairs = (line.split("=", 1) for line in output.splitlines() if "=" in line)
        return {name: value for name, value in pairs}

    def wait_for(
        self,
        what: str,
        found: Callable[[list[Entry]], bool],
        timeout_s: float,
        poll_s: float = 0.25,
    ) -> list[Entry]:
        """Poll the journal until `found` says yes; the entries then. TimeoutError names
        `what`."""
        deadline = time.monotonic() + timeout_s
        while True:
            entries = self.entries()
            if found(entries):
                return entries
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what} within {timeout_s:g} s")
            time.sleep(poll_s)

    def wait_for_state(
        self, ok: Callable[[dict[str, str]], bool], names: tuple[str, ...], timeout_s: float
    ) -> dict[str, str]:
        """Poll the unit's properties until `ok` says yes; TimeoutError with the last seen."""
        deadline = time.monotonic() + timeout_s
        while True:
            seen = self.properties(*names)
            if ok(seen):
                return seen
            if time.monotonic() > deadline:
                raise TimeoutError(f"after {timeout_s:g} s the unit is still {seen}")
            time.sleep(0.1)
