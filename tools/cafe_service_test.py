"""`make cafe-service-test`: the café's counter machine under a real systemd, end to end.

Boots a fresh copy of `make service-test`'s Debian Bookworm root (systemd 252) in a container,
writes a broker recipe for two tables on this machine, runs `systemd/install-cafe.sh` there
(Debian's Mosquitto with the recipe, the café view's unit) and checks: both services run; the
table's own fleet check is let in with its password and refused with another's; the page
answers on the address the recipe names; a table on virtual hardware (`run --virtual`, as a
transient unit) appears on it online; the view runs as a dynamic user; its unit scores at most
2.0 in `systemd-analyze security` there; its journal holds no traceback.

Skips, saying why, where no container can be booted (see `tools.service_test`); under CI a skip
is a failure. Exit 0 when every check passed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tools.service_test.__main__ import CA_INSIDE, HOST_CA, skip
from tools.service_test.checks import Report
from tools.service_test.container import (
    Container,
    ContainerError,
    cached_root,
    copy_checkout,
    debian_mirror,
    fresh_root,
    host_architecture,
    install_host_tools,
    missing_host_tools,
    root_cache,
)

REPO = Path(__file__).resolve().parents[1]
"""The Bookworm root is `make service-test`'s, built once for both."""
CACHE = REPO / ".cache" / "cafe-service-test"
PROJECT = "/root/codenames-table"
RECIPE = "/root/recipe"
PAGE = "127.0.0.1:8080"
EXECUTABLE = "/opt/codenames-table/bin/codenames-table"
INSTALL_TIMEOUT_S = 900.0
WAIT_S = 30.0
EXPOSURE_GOAL = 2.0
TABLES = ("table-1", "table-2")

READ_PAGE = """
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as response:
    print(response.status)
    if sys.argv[1].endswith("/events"):
        for line in response:
            if line.startswith(b"data: "):
                print(line.decode().strip())
                break
    else:
        print(response.read().decode()[:200])
"""
"""Run inside: the page's status and its beginning, or the first snapshot of `/events`."""


def table_config(table: str, password_of: str | None = None) -> str:
    """A table's config for the container, from the recipe's `[fleet]` with its files where
    the recipe's folder keeps them; `password_of` another table for a wrong password."""
    own = f"{RECIPE}/tables/{table}"
    fleet = (Path(CACHE / "run" / RECIPE.lstrip("/")) / "tables" / table / "fleet.toml").read_text()
    password = f"{RECIPE}/tables/{password_of or table}/mqtt-password"
    fleet = re.sub(r'(?m)^password_file = ".*"$', f'password_file = "{password}"', fleet)
    return re.sub(r'(?m)^ca_file = ".*"$', f'ca_file = "{own}/cafe-ca.pem"', fleet)


def prepare(container_root: Path) -> None:
    """Put the checkout, the recipe and the tables' configs into the root before it boots."""
    copy_checkout(REPO, container_root / PROJECT.lstrip("/"))
    recipe = container_root / RECIPE.lstrip("/")
    command = [sys.executable, "-m", "firmware.cli", "broker-recipe", "--out", str(recipe)]
    command += ["--host", "127.0.0.1", "--host", "localhost"]
    for table in TABLES:
        command += ["--table", table]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True)
    configs = {
        "table-1.toml": table_config("table-1"),
        "table-2-wrong.toml": table_config("table-2", password_of="table-1"),
    }
    for name, text in configs.items():
        (container_root / "root" / name).write_text(text, encoding="utf-8")
    if HOST_CA.is_file():
        # pip in the container must trust what the host trusts (a proxy's authority, say).
        inside = container_root / CA_INSIDE.lstrip("/")
        inside.parent.mkdir(parents=True, exist_ok=True)
        inside.write_text(HOST_CA.read_text(encoding="utf-8"), encoding="utf-8")


def until(check: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """Call `check()` until it is true or `timeout` passes, every half second (another
    machine's services, with no event to wait on)."""
    end = time.monotonic() + timeout
    while True:
        if check():
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.5)


def run_checks(container: Container, report: Report) -> None:
    """Install, then each check into `report`."""
    env = {"PIP_CERT": CA_INSIDE} if HOST_CA.is_file() else {}
    installed = container.run(
        ["sh", f"{PROJECT}/systemd/install-cafe.sh", "--recipe", RECIPE, "--http", PAGE],
        env=env,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    output = installed.stdout + installed.stderr
    (CACHE / "install.log").write_text(output, encoding="utf-8")
    if not report.check("install-cafe.sh installs and starts both", installed.returncode == 0,
                        output[-3000:]):  # fmt: skip
        return
    active = container.run(["systemctl", "is-active", "mosquitto", "codenames-cafe"], check=False)
    report.check("Mosquitto and the café view run", active.stdout.split() == ["active"] * 2,
                 active.stdout)  # fmt: skip
    let_in = container.run(
        [EXECUTABLE, "selftest", "--fleet", "--config", "/root/table-1.toml"], check=False
    )
    report.check(
        "the broker lets table-1 in with its password, over TLS",
        let_in.returncode == 0
        and "fleet: connected to mqtts://127.0.0.1:8883 as table-1" in let_in.stdout,
        let_in.stdout + let_in.stderr,
    )
    refused = container.run(
        [EXECUTABLE, "selftest", "--fleet", "--config", "/root/table-2-wrong.toml"], check=False
    )
    report.check(
        "the broker refuses table-2 with table-1's password",
        refused.returncode == 1 and "refused table table-2: Not authorized" in refused.stdout,
        refused.stdout + refused.stderr,
    )

    def page(path: str) -> str:
        read = ["/opt/codenames-table/bin/python", "-c", READ_PAGE, f"http://{PAGE}/{path}"]
        return container.run(read, check=False, timeout=20).stdout

    report.check("the page answers on the recipe's address", until(lambda: page("").startswith(
        "200\n<!doctype html>")), page(""))  # fmt: skip
    container.run(
        [
            "systemd-run", "--unit", "service-test-table-1", "--property", "Type=notify",
            EXECUTABLE, "run", "--virtual", "--config", "/root/table-1.toml",
            "--state-dir", "/var/lib/service-test-table-1",
        ],
        timeout=90,
    )  # fmt: skip

    def shown_online() -> bool:
        _, _, data = page("events").partition("data: ")
        try:
            rows = {row["id"]: row for row in json.loads(data)["tables"]}
        except (ValueError, KeyError, TypeError):
            return False
        return "table-1" in rows and rows["table-1"]["offline"] is False

    report.check("a table on virtual hardware shows on the page, online", until(shown_online),
                 page("events"))  # fmt: skip
    main_pid = container.run(["systemctl", "show", "-P", "MainPID", "codenames-cafe"]).stdout
    status = container.run(["cat", f"/proc/{main_pid.strip()}/status"], check=False).stdout
    uid = re.search(r"(?m)^Uid:\s+(\d+)", status)
    report.check("the view runs as a dynamic user, not root", uid is not None and uid[1] != "0",
                 status[:300])  # fmt: skip
    security = container.run(
        ["systemd-analyze", "security", "--no-pager", "codenames-cafe"], check=False
    ).stdout
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", security)
    report.check(
        f"the view's unit scores at most {EXPOSURE_GOAL} where it runs",
        level is not None and float(level[1]) <= EXPOSURE_GOAL,
        security[-2000:],
    )
    journal = container.run(
        ["journalctl", "--unit", "codenames-cafe", "--no-pager"], check=False
    ).stdout
    (CACHE / "journal.txt").write_text(journal, encoding="utf-8")
    report.check("the view's journal holds no traceback", "Traceback" not in journal,
                 journal[-2000:])  # fmt: skip


def main() -> int:
    began = time.monotonic()
    if os.geteuid() != 0:
        return skip("it boots a container, which needs root")
    missing = missing_host_tools()
    if missing:
        if shutil.which("apt-get") is None:
            return skip(f"{', '.join(missing)} missing, and no apt-get to install them")
        try:
            install_host_tools(missing)
        except ContainerError as error:
            return skip(str(error))
    mirror = debian_mirror()
    if mirror is None:
        return skip("the host's apt sources name no Debian bookworm mirror")
    CACHE.mkdir(parents=True, exist_ok=True)
    # The service test's Bookworm root, shared: it holds what install.sh needs.
    cache, name = root_cache(), f"service-test-bookworm-{host_architecture()}"
    print(f"== The Bookworm root ({cache / name})", flush=True)
    root = cached_root(cache, name, "bookworm", mirror, CACHE / "debootstrap.log")
    run_root = fresh_root(root, CACHE / "run")
    prepare(run_root)
    report = Report()
    print("== Booting it with systemd", flush=True)
    try:
        container = Container(run_root, CACHE / "console.log", name="codenames-cafe-test")
    except ContainerError as error:
        return skip(f"the container does not boot here: {error}")
    with container:
        print("== systemd/install-cafe.sh", flush=True)
        try:
            run_checks(container, report)
        except ContainerError as error:
            report.check("the checks ran to their end", False, error)
    print(f"== cafe-service-test took {time.monotonic() - began:.0f} s")
    print(f"{len(report.passed)} passed, {len(report.failed)} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
