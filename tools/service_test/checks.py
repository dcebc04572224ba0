"""What `make service-test` checks of the installed service, through systemctl, journalctl and
the state folder, in the order a table lives it: started, played, hung, killed, misconfigured,
stopped; and its sandbox and security score.

Each check prints `ok: …` or `FAIL: …`; the run ends with `N passed, N failed`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tools.service_test.container import Container
from tools.service_test.journal import (
    PLAYED_LINE,
    PROBE_LINE,
    READY_LINE,
    UNIT,
    Entry,
    Journal,
    notifications,
    payload,
)

STATE_DIR = "/var/lib/codenames-table"
SERVICE_USER = "codenames-table"
CONFIG = "/etc/codenames-table/config.toml"
DROP_IN = "/etc/systemd/system/codenames-table.service.d/service-test.conf"
PLAY = "/etc/codenames-table/service-test-play.txt"
PROBE = "/usr/local/lib/service-test/sandbox_probe.py"
EXECUTABLE = "/opt/codenames-table/bin/codenames-table"
PLAY_SCRIPT = """\
key RRRRR/RRRRB/BBBBB/BBNNN/NNNNA
turn +1         # red's clue: 2
push
press A1        # red agent
press B1        # red agent
press C4        # a bystander: blue's turn
push            # blue's clue: 1
press E2        # blue agent
dump
"""
PLAYED_ACTIONS = 6
"""The actions the script confirms: two clues and four touches."""
BAD_CONFIG_LINES = "\n[service_test]\nbroken = true\n"
"""An unknown section: the table must refuse to start, naming it."""
REFUSALS = {"EACCES", "EPERM", "EROFS", "EAFNOSUPPORT"}
"""The errors of a refusal (a missing file or folder would prove nothing)."""
START_TIMEOUT_S = 60.0
STATE_PROPERTIES = ("ActiveState", "SubState", "MainPID", "NRestarts", "Result", "StatusText")


def drop_in(script: str | None) -> str:
    """The test's drop-in: the same unit on virtual hardware, the probe of the sandbox first."""
    command = f"{EXECUTABLE} run --virtual" + (f" {script}" if script else "")
    return (
        "# make service-test: the table on virtual hardware; the sandbox probed before it.\n"
        "[Service]\n"
        f"ExecStartPre=/usr/bin/python3 {PROBE}\n"
        "ExecStart=\n"
        f"ExecStart={command}\n"
    )


@dataclass
class Report:
    """The outcome of every check."""

    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def check(self, what: str, ok: bool, detail: object = "") -> bool:
        if ok:
            self.passed.append(what)
            print(f"ok: {what}", flush=True)
        else:
            self.failed.append(what)
            print(f"FAIL: {what}" + (f": {detail}" if detail != "" else ""), flush=True)
        return ok


def seconds(usec_property: str) -> float:
    """A `systemctl show` time span in microseconds ("10000000") or words ("10s") as seconds.

    >>> seconds("10000000"), seconds("2s"), seconds("1min 30s"), seconds("500ms")
    (10.0, 2.0, 90.0, 0.5)
    """
    if usec_property.isdigit():
        return int(usec_property) / 1_000_000
    units = {"min": 60.0, "ms": 0.001, "us": 0.000001, "s": 1.0, "h": 3600.0}
    total = 0.0
    for number, unit in re.findall(r"([\d.]+)\s*(min|ms|us|s|h)", usec_property):
        total += float(number) * units[unit]
    return total


def last_payload(entries: list[Entry], marker: str) -> dict[str, Any] | None:
    for entry in reversed(entries):
        found = payload(entry, marker)
        if found is not None:
            return found
    return None


class ServiceChecks:
    """The checks, run one after the other on a container where install.sh has run."""

    def __init__(self, container: Container, report: Report) -> None:
        self.container = container
        self.report = report
        self.journal = Journal(lambda command: container.run(command, check=False).stdout)
        timing = self.journal.properties("WatchdogUSec", "TimeoutStopUSec", "RestartUSec")
        self.watchdog_s = seconds(timing["WatchdogUSec"])
        self.stop_timeout_s = seconds(timing["TimeoutStopUSec"])
        self.restart_s = seconds(timing["RestartUSec"])
        self.played: dict[str, Any] | None = None

    def systemctl(self, *args: str, check: bool = True) -> int:
        return self.container.run(["systemctl", *args], check=check, timeout=90).returncode

    def state(self) -> dict[str, str]:
        return self.journal.properties(*STATE_PROPERTIES)

    def wait_active(self, *, other_than: str | None = None) -> dict[str, str]:
        """Wait until the unit runs (a main PID other than `other_than`, if given)."""
        return self.journal.wait_for_state(
            lambda s: (
                s["ActiveState"] == "active"
                and s["SubState"] == "running"
                and s["MainPID"] not in ("0", other_than)
            ),
            STATE_PROPERTIES,
            START_TIMEOUT_S,
        )

    # --- the checks, in order ---

    def ready_after_start(self) -> None:
        """Installed and started by install.sh: active only after READY=1.

        systemd's own debug lines, in the order it wrote them, tell: the start, the READY=1
        it received, and the change to `running` (the unit's `active`) with "Started" after.
        """
        state = self.wait_active()
        main_pid = int(state["MainPID"])
        entries = self.journal.wait_for(
            "start line", lambda e: any(payload(x, READY_LINE) for x in e), START_TIMEOUT_S
        )
        ready = [
            at
            for at, entry in enumerate(entries)
            if any("READY=1" in m for _, m in notifications([entry], main_pid))
        ]
        report = self.report
        report.check("the service is active and running", state["ActiveState"] == "active", state)
        if not report.check("the main process sent READY=1 (systemd's debug log)", bool(ready)):
            return
        at_ready = ready[0]
        report.check(
            "READY=1 came with the status line",
            "STATUS=playing; actions in the current game:" in entries[at_ready].message,
            entries[at_ready].message,
        )
        started = [
            at for at in range(at_ready) if "Changed start-pre -> start" in entries[at].message
        ]
        running = [
            at
            for at in range(started[-1] if started else 0, len(entries))
            if re.search(r"Changed \S+ -> running", entries[at].message)
        ]
        report.check(
            "the unit became active (running) only after READY=1",
            bool(started) and bool(running) and running[0] > at_ready,
            [entries[at].message for at in running[:1]],
        )
        line = [e for e in entries[:at_ready] if e.pid == main_pid and payload(e, READY_LINE)]
        report.check(
            "the journal has the table's start line, before READY=1",
            bool(line),
            [e.message for e in entries if payload(e, READY_LINE)],
        )
        report.check(
            "systemd's 'Started' line follows READY=1",
            any(e.message.startswith(f"Started {UNIT}") for e in entries[at_ready:]),
        )
        nice = self.journal.properties("Nice")["Nice"]
        stat = self.container.run(["cat", f"/proc/{main_pid}/stat"], check=False).stdout
        # The fields after the command's closing parenthesis: fields[0] is stat's field 3 (the
        # state), so the nice value, field 19, is fields[16].
        fields = stat.rpartition(")")[2].split()
        report.check(
            f"the table runs at the unit's priority (Nice={nice})",
            int(nice) < 0 and len(fields) > 16 and fields[16] == nice,
            stat,
        )

    def script_saved(self) -> None:
        """The play script is played and saved by the service user, mode 0600."""
        entries = self.journal.wait_for(
            "'script played' line",
            lambda e: last_payload(e, PLAYED_LINE) is not None,
            START_TIMEOUT_S,
        )
        self.played = last_payload(entries, PLAYED_LINE)
        actions = None if self.played is None else self.played.get("actions")
        self.report.check(
            f"the script's {PLAYED_ACTIONS} actions were played", actions == PLAYED_ACTIONS, actions
        )
        key = PLAY_SCRIPT.splitlines()[0].removeprefix("key ")
        self.report.check(
            "the journal never holds the key",
            not any(form in e.message for e in entries for form in (key, key.replace("/", ""))),
        )
        listing = self.container.run(
            ["find", STATE_DIR, "-printf", "%y %u %g %m %P\\n"], check=False
        ).stdout.splitlines()
        files = [line.split(" ", 4) for line in listing]
        database = [f for f in files if f[4] == "games.sqlite3"]
        self.report.check(
            f"{STATE_DIR}/games.sqlite3 is the service user's, mode 0600",
            database == [["f", SERVICE_USER, SERVICE_USER, "600", "games.sqlite3"]],
            listing,
        )
        self.report.check(
            "everything in the state folder is the service user's and private to it",
            all(f[1] == SERVICE_USER and int(f[3], 8) & 0o077 == 0 for f in files),
            listing,
        )
        # From now on a restart resumes the game instead of playing the script again.
        self.container.write(DROP_IN, drop_in(None))
        self.systemctl("daemon-reload")

    def resumed(self, since: int, what: str) -> None:
        """The table that started after entry `since` resumed the played game exactly."""
        entries = self.journal.wait_for(
            "start line of the new process",
            lambda e: any(payload(x, READY_LINE) for x in e[since:]),
            START_TIMEOUT_S,
        )
        resumed = last_payload(entries[since:], READY_LINE)
        self.report.check(
            f"{what}: the game resumed with every confirmed action",
            self.played is not None and resumed == self.played,
            f"played {json.dumps(self.played)}\nresumed {json.dumps(resumed)}",
        )

    def watchdog_kills_a_hung_table(self) -> None:
        """SIGSTOP: the watchdog fires within WatchdogSec, systemd restarts, game resumed."""
        before = self.state()
        since = len(self.journal.entries())
        stopped_at_us = time.time_ns() // 1000
        self.systemctl("kill", "--kill-whom=main", "--signal=SIGSTOP", UNIT)
        after = self.wait_active(other_than=before["MainPID"])
        entries = self.journal.entries()[since:]
        timeouts = [e for e in entries if "Watchdog timeout" in e.message]
        report = self.report
        if report.check("SIGSTOP: systemd's watchdog fired", bool(timeouts), entries[-5:]):
            elapsed = (timeouts[0].realtime_us - stopped_at_us) / 1e6
            # The last WATCHDOG=1 came less than 1.5 s before the stop (the unit's promise);
            # systemd's timers may fire up to 250 ms late, and the journal notes it after.
            report.check(
                f"SIGSTOP: the watchdog fired {elapsed:.1f} s after the stop "
                f"(WatchdogSec={self.watchdog_s:g})",
                self.watchdog_s - 1.5 <= elapsed <= self.watchdog_s + 1.0,
            )
        report.check(
            "SIGSTOP: restarted once (NRestarts=1)", after["NRestarts"] == "1", after["NRestarts"]
        )
        self.resumed(since, "SIGSTOP")

    def sigkill_restarts(self) -> None:
        before = self.state()
        since = len(self.journal.entries())
        self.systemctl("kill", "--kill-whom=main", "--signal=SIGKILL", UNIT)
        after = self.wait_active(other_than=before["MainPID"])
        report = self.report
        report.check(
            "SIGKILL: restarted (NRestarts=2)", after["NRestarts"] == "2", after["NRestarts"]
        )
        self.resumed(since, "SIGKILL")

    def config_error_stops_for_good(self) -> None:
        """A config error: exit 2, failed, no restart; fixed and restarted: running."""
        config_path = self.container.root / CONFIG.lstrip("/")
        good = config_path.read_text(encoding="utf-8")
        config_path.write_text(good + BAD_CONFIG_LINES, encoding="utf-8")
        since = len(self.journal.entries())
        self.systemctl("restart", UNIT, check=False)
        failed = self.journal.wait_for_state(
            lambda s: s["ActiveState"] == "failed",
            (*STATE_PROPERTIES, "ExecMainStatus"),
            START_TIMEOUT_S,
        )
        report = self.report
        report.check(
            "config error: exit 2, failed with result exit-code",
            failed["ExecMainStatus"] == "2" and failed["Result"] == "exit-code",
            failed,
        )
        # Two restart delays: a restart would have begun by then.
        time.sleep(2 * self.restart_s + 1)
        later = self.journal.properties(*STATE_PROPERTIES, "ExecMainStatus")
        report.check(
            "config error: not restarted (still failed, NRestarts=0)",
            later["ActiveState"] == "failed" and later["NRestarts"] == "0",
            later,
        )
        messages = [e.message for e in self.journal.entries()[since:]]
        report.check(
            "config error: the journal names the bad section",
            any("service_test" in m and "unknown section" in m for m in messages),
            messages[-5:],
        )
        config_path.write_text(good, encoding="utf-8")
        since = len(self.journal.entries())
        self.systemctl("restart", UNIT)
        state = self.wait_active()
        report.check("config fixed and restarted: running", state["ActiveState"] == "active")
        self.resumed(since, "config fixed")

    def clean_stop(self) -> None:
        """SIGTERM (`systemctl stop`): STOPPING=1, then a clean exit within TimeoutStopSec."""
        main_pid = self.state()["MainPID"]
        since = len(self.journal.entries())
        began = time.monotonic()
        self.systemctl("stop", UNIT)
        took = time.monotonic() - began
        state = self.journal.properties(*STATE_PROPERTIES, "ExecMainCode", "ExecMainStatus")
        entries = self.journal.entries()[since:]
        stopping = [m for _, m in notifications(entries, int(main_pid)) if "STOPPING=1" in m]
        report = self.report
        report.check("stop: the table sent STOPPING=1", bool(stopping), stopping)
        report.check(
            f"stop: done within TimeoutStopSec={self.stop_timeout_s:g} s",
            took < self.stop_timeout_s and not any("timed out" in e.message for e in entries),
            f"{took:.2f} s",
        )
        report.check(
            "stop: a clean exit (status 0, result success, inactive)",
            state["ExecMainStatus"] == "0"
            and state["Result"] == "success"
            and state["ActiveState"] == "inactive",
            state,
        )

    def sandbox_holds(self) -> None:
        """The probe's findings, from inside the unit's sandbox."""
        found = last_payload(self.journal.entries(), PROBE_LINE)
        report = self.report
        if not report.check("sandbox: the probe ran inside the unit", found is not None):
            return
        assert found is not None
        allowed = {name for name, outcome in found.items() if outcome == "ok"}
        expected = {
            "write /var/lib/codenames-table",
            "write /run/codenames-table",
            "socket unix datagram",
        }
        report.check(
            "sandbox: only the state and runtime folders are writable, only AF_UNIX opens",
            allowed == expected,
            found,
        )
        for kind in ("write", "socket", "read"):
            refused = {n: o for n, o in found.items() if n.startswith(kind) and n not in expected}
            report.check(
                f"sandbox: every '{kind}' outside them is refused ({len(refused)} tried)",
                bool(refused) and all(o in REFUSALS for o in refused.values()),
                refused,
            )

    def security_score(self) -> None:
        """`systemd-analyze security` of the running unit, as the offline check scores it."""
        online = self.container.run(
            ["systemd-analyze", "security", "--no-pager", UNIT], check=False
        ).stdout
        offline = self.container.run(
            [
                "systemd-analyze",
                "security",
                "--offline=true",
                "--no-pager",
                "/root/codenames-table/systemd/codenames-table.service",
            ],
            check=False,
        ).stdout
        scores = [exposure(online), exposure(offline)]
        self.report.check(
            f"security: the running unit scores as the offline check ({scores[0]} = {scores[1]})",
            scores[0] is not None and scores[0] == scores[1],
            online[-600:],
        )

    def all(self) -> list[Callable[[], None]]:
        return [
            self.ready_after_start,
            self.script_saved,
            self.sandbox_holds,
            self.security_score,
            self.watchdog_kills_a_hung_table,
            self.sigkill_restarts,
            self.config_error_stops_for_good,
            self.clean_stop,
        ]


def exposure(analysis: str) -> str | None:
    """The overall exposure level in `systemd-analyze security` output.

    >>> exposure("→ Overall exposure level for x.service: 0.6 SAFE 😀")
    '0.6'
    """
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", analysis)
    return match.group(1) if match else None
