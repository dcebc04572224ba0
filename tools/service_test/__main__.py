"""`make service-test`: the table's service under a real systemd, end to end.

Builds (or takes from `.cache/service-test/`) a Debian Bookworm root, boots a fresh copy of it
with systemd 252 in a container, copies this checkout in, runs `systemd/install.sh` there and
checks the running service (`tools/service_test/checks.py`). The unit is the project's own; a
drop-in only changes its `ExecStart=` to `run --virtual` (there is no Pi hardware) and adds the
sandbox probe before it.

Skips, saying why, where no container can be booted (not root, no apt-get to install the
tools); under CI (`CI=true`) a skip is a failure. Exit 0 when every check passed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tools.service_test.checks import (
    DROP_IN,
    PLAY,
    PLAY_SCRIPT,
    PROBE,
    Report,
    ServiceChecks,
    drop_in,
)
from tools.service_test.container import (
    Container,
    ContainerError,
    cached_root,
    debian_mirror,
    fresh_root,
    install_host_tools,
    missing_host_tools,
)

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "service-test"
HERE = Path(__file__).resolve().parent
PROJECT = "/root/codenames-table"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
CA_INSIDE = "/root/service-test/host-ca.pem"
INSTALL_TIMEOUT_S = 900.0


def skip(reason: str) -> int:
    """Skip the test, or fail it under CI, where it must run."""
    if os.environ.get("CI"):
        print(f"service-test cannot run in CI: {reason}", file=sys.stderr)
        return 1
    print(f"service-test SKIPPED: {reason}")
    return 0


def checkout_files() -> list[str]:
    """The files of this checkout, as a fresh clone would have them plus uncommitted work:
    tracked and untracked ones, not ignored ones."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted({name for name in listed.split("\0") if name and (REPO / name).exists()})


def prepare(container_root: Path) -> None:
    """Put into the root, before it boots, what the test adds to a Pi."""
    target = container_root / PROJECT.lstrip("/")
    target.mkdir(parents=True)
    for name in checkout_files():
        source, copy = REPO / name, target / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, copy, follow_symlinks=False)
    helpers = container_root / "usr/local/lib/service-test"
    helpers.mkdir(parents=True)
    shutil.copy(HERE / "sandbox_probe.py", container_root / PROBE.lstrip("/"))
    shutil.copy(HERE / "fake_pi.sh", helpers / "fake_pi.sh")

    def write(path: str, text: str, mode: int = 0o644) -> None:
        file = container_root / path.lstrip("/")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
        file.chmod(mode)

    write(DROP_IN, drop_in(PLAY))
    write(PLAY, PLAY_SCRIPT)
    # Files of other users, which the sandbox must keep the service from reading.
    write("/root/service-test-secret", "root's\n", 0o600)
    write("/srv/service-test/secret", "nobody's\n", 0o600)
    os.chown(container_root / "srv/service-test/secret", 65534, 65534)
    if HOST_CA.is_file():
        # pip in the container must trust what the host trusts (a proxy's authority, say).
        write(CA_INSIDE, HOST_CA.read_text(encoding="utf-8"), 0o600)


def install(container: Container) -> tuple[bool, str]:
    """Run systemd/install.sh in the container, as a Pi would: its exit and output."""
    env = {"PIP_CERT": CA_INSIDE} if HOST_CA.is_file() else {}
    result = container.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "/usr/local/lib/service-test/fake_pi.sh",
            "sh",
            f"{PROJECT}/systemd/install.sh",
        ],
        env=env,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    return result.returncode == 0, result.stdout + result.stderr


def run_checks(run_root: Path, began: float, report: Report) -> int | None:
    """Boot, install and check into `report`; an exit code when skipped, else None."""
    prepare(run_root)
    built = time.monotonic()
    print(f"   ready after {built - began:.0f} s", flush=True)
    print("== Booting it with systemd", flush=True)
    try:
        container = Container(run_root, CACHE / "console.log")
    except ContainerError as error:
        return skip(f"the container does not boot here: {error}")
    with container:
        # systemd's debug log names every notification (READY=1, STOPPING=1) it receives.
        container.run(["systemd-analyze", "log-level", "debug"])
        print("== systemd/install.sh", flush=True)
        installed, output = install(container)
        (CACHE / "install.log").write_text(output, encoding="utf-8")
        report.check("install.sh installs and starts the service", installed, output[-3000:])
        print(f"   installed after {time.monotonic() - built:.0f} s", flush=True)
        if installed:
            checks = ServiceChecks(container, report)
            for check in checks.all():
                try:
                    check()
                except (ContainerError, TimeoutError) as error:
                    report.check(check.__name__.replace("_", " "), False, error)
                    break
        journal = container.run(
            ["journalctl", "--unit", "codenames-table", "--no-pager"], check=False
        ).stdout
        (CACHE / "journal.txt").write_text(journal, encoding="utf-8")
    return None


def main() -> int:
    began = time.monotonic()
    if os.geteuid() != 0:
        return skip("it boots a container, which needs root")
    missing = missing_host_tools()
    if missing:
        if shutil.which("apt-get") is None:
            return skip(f"{', '.join(missing)} missing, and no apt-get to install them")
        print(f"== Installing {', '.join(missing)}", flush=True)
        try:
            install_host_tools(missing)
        except ContainerError as error:
            return skip(str(error))
    mirror = debian_mirror()
    if mirror is None:
        return skip("the host's apt sources name no Debian bookworm mirror")
    CACHE.mkdir(parents=True, exist_ok=True)
    print("== The Bookworm root (.cache/service-test/root)", flush=True)
    root = cached_root(CACHE, mirror, CACHE / "debootstrap.log")
    report = Report()
    code = run_checks(fresh_root(root, CACHE / "run"), began, report)
    if code is not None:
        return code
    print(
        f"== service-test took {time.monotonic() - began:.0f} s; the unit's journal is in "
        ".cache/service-test/journal.txt"
    )
    print(f"{len(report.passed)} passed, {len(report.failed)} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
