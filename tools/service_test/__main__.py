"""`make service-test`: the table's service under a real systemd, end to end, on each release.

For each Debian release named (`bookworm`, `trixie`; both by default), builds (or takes from the
machine's root cache, see `container.root_cache`) a root, boots a fresh copy of it with its own
systemd (252 on Bookworm, 257 on Trixie) in a container, copies this checkout in, runs
`systemd/install.sh` there as on the release's Pi model (`MODELS`) and checks the running
service (`tools/service_test/checks.py`). The unit is the project's own; a drop-in only changes
its `ExecStart=` to `run --virtual` (there is no Pi hardware) and adds the sandbox probe before
it. What each run leaves to look into is in `.cache/service-test/RELEASE/`.

Skips, saying why, where no container can be booted (not root, no apt-get to install the
tools); under CI (`CI=true`) a skip is a failure. Exit 0 when every check passed.

    python3 -m tools.service_test [RELEASE...]
"""

from __future__ import annotations

import os
import shutil
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
    RELEASES,
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
from tools.service_test.container import skip as skip_or_fail

REPO = Path(__file__).resolve().parents[2]
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
CA_INSIDE = "/root/service-test/host-ca.pem"
CACHE = REPO / ".cache" / "service-test"
MODELS = {
    "bookworm": "Raspberry Pi 4 Model B Rev 1.5",
    "trixie": "Raspberry Pi 5 Model B Rev 1.0",
}
"""The Pi each release's install is faked on: a Pi 4 (rpi-ws281x, built with the compiler) on
Bookworm, a Pi 5 (neopixel-spi, no compiler) on Trixie, today's café purchase."""
HERE = Path(__file__).resolve().parent
PROJECT = "/root/codenames-table"
INSTALL_TIMEOUT_S = 900.0


def skip(reason: str) -> int:
    """Skip the test, or fail it under CI, where it must run."""
    return skip_or_fail("service-test", reason)


def prepare(container_root: Path) -> None:
    """Put into the root, before it boots, what the test adds to a Pi."""
    copy_checkout(REPO, container_root / PROJECT.lstrip("/"))
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


def install(container: Container, model: str) -> tuple[bool, str]:
    """Run systemd/install.sh in the container, as a Pi `model` would: its exit and output."""
    env = {"PIP_CERT": CA_INSIDE} if HOST_CA.is_file() else {}
    result = container.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "/usr/local/lib/service-test/fake_pi.sh",
            model,
            "sh",
            f"{PROJECT}/systemd/install.sh",
        ],
        env=env,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    return result.returncode == 0, result.stdout + result.stderr


def run_checks(release: str, run_root: Path, began: float, report: Report) -> int | None:
    """Boot, install and check into `report`; an exit code when skipped, else None."""
    logs = CACHE / release
    prepare(run_root)
    built = time.monotonic()
    print(f"   ready after {built - began:.0f} s", flush=True)
    print("== Booting it with systemd", flush=True)
    try:
        container = Container(run_root, logs / "console.log")
    except ContainerError as error:
        return skip(f"the container does not boot here: {error}")
    with container:
        version = container.run(["systemctl", "--version"]).stdout.split("\n", 1)[0]
        print(f"   {version}", flush=True)
        # systemd's debug log names every notification (READY=1, STOPPING=1) it receives.
        container.run(["systemd-analyze", "log-level", "debug"])
        model = MODELS[release]
        print(f"== systemd/install.sh on a faked {model}", flush=True)
        installed, output = install(container, model)
        (logs / "install.log").write_text(output, encoding="utf-8")
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
        (logs / "journal.txt").write_text(journal, encoding="utf-8")
    return None


def test_release(release: str, mirror: str) -> int:
    """Every check on `release`: 0 when they all passed."""
    began = time.monotonic()
    logs = CACHE / release
    logs.mkdir(parents=True, exist_ok=True)
    cache = root_cache()
    name = f"service-test-{release}-{host_architecture()}"
    print(f"== {RELEASES[release]}: the root {cache / name}", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    root = cached_root(cache, name, release, mirror, logs / "debootstrap.log")
    report = Report()
    code = run_checks(release, fresh_root(root, logs / "run"), began, report)
    if code is not None:
        return code
    print(
        f"== service-test on {release} took {time.monotonic() - began:.0f} s; the unit's "
        f"journal is in .cache/service-test/{release}/journal.txt"
    )
    print(f"{release}: {len(report.passed)} passed, {len(report.failed)} failed")
    return 1 if report.failed else 0


def main(argv: list[str] | None = None) -> int:
    releases = sys.argv[1:] if argv is None else argv
    unknown = sorted(set(releases) - set(RELEASES))
    if unknown:
        print(
            f"service-test: unknown release {', '.join(unknown)} (known: {', '.join(RELEASES)})",
            file=sys.stderr,
        )
        return 2
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
        return skip(f"the host's apt sources name no Debian mirror of {' or '.join(RELEASES)}")
    failed = [release for release in releases or list(RELEASES) if test_release(release, mirror)]
    if failed:
        print(f"service-test failed on {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
