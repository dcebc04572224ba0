"""`make test-trixie`: the whole test suite under a Debian release's own Python (Trixie: 3.13,
the Python of Raspberry Pi OS Trixie), not the desktop's.

The release's root (its Python, and the programs the suite runs: Mosquitto, shellcheck,
systemd-analyze, make, openssl; not Chromium, see `PACKAGES`) is built once with `debootstrap`
into the machine's root cache (`container.root_cache()`), outside any checkout. Each run lays a
fresh overlay over it, copies this checkout in (tracked and new files, as `make service-test`
does), and runs `make pytest` there under `systemd-nspawn`, the venv made by the release's own
`python3 -m venv`. pip's downloads are kept in the root cache too, so a second run fetches
nothing.

    python3 -m tools.release_suite [RELEASE]      (trixie by default; root needed)

Skips, saying why, where it cannot run (not root, no systemd-nspawn); under CI a skip is a
failure. Its exit is pytest's.

Standard library only: it runs on the host's own `python3`, before any venv exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tools.service_test.__main__ import CA_INSIDE, HOST_CA
from tools.service_test.container import (
    RELEASES,
    ContainerError,
    cached_root,
    copy_checkout,
    debian_mirror,
    host_architecture,
    install_host_tools,
    missing_host_tools,
    root_cache,
)
from tools.service_test.container import skip as skip_or_fail

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache" / "release-suite"
PROJECT = "/root/codenames-table"
PACKAGES = (
    "python3",
    "python3-venv",
    "make",
    "git",
    "openssl",
    "ca-certificates",
    # chattr: the saving tests make a database immutable.
    "e2fsprogs",
    # The fleet's tests against a real broker. Not Chromium: debootstrap cannot resolve the
    # virtual package (dbus-session-bus) under its GTK, so the café page's browser tests skip
    # here, saying so; `make test` runs them on the host.
    "mosquitto",
    # The service's tests: the install scripts linted, the unit scored by this release's systemd.
    "shellcheck",
    "systemd",
)
"""What the root holds besides Debian's minimal base."""
SUITE_TIMEOUT_S = 1800.0


class Overlay:
    """A writable overlay mounted over the cached `lower` root (`with`: unmounted after)."""

    def __init__(self, lower: Path, work: Path) -> None:
        self.upper, self.scratch, self.merged = work / "upper", work / "work", work / "root"
        if self.merged.is_mount():
            # Left mounted by a run that was killed before it could unmount.
            subprocess.run(["umount", str(self.merged)], check=True)
        if work.exists():
            shutil.rmtree(work)
        for folder in (self.upper, self.scratch, self.merged):
            folder.mkdir(parents=True)
        options = f"lowerdir={lower},upperdir={self.upper},workdir={self.scratch}"
        mounted = subprocess.run(
            ["mount", "-t", "overlay", "overlay", "-o", options, str(self.merged)],
            capture_output=True,
            text=True,
            check=False,
        )
        if mounted.returncode != 0:
            raise ContainerError(f"cannot mount an overlay: {mounted.stderr.strip()}")

    def __enter__(self) -> Overlay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        subprocess.run(["umount", str(self.merged)], check=False)


def skip(reason: str) -> int:
    """Skip the run, or fail it under CI, where it must run."""
    return skip_or_fail("test-trixie", reason)


def run_suite(root: Path, pip_cache: Path) -> int:
    """`make pytest` in `root` under systemd-nspawn: pytest's exit."""
    environment = {
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        # The venv is the release's, outside the copy: nothing of the host's is used.
        "VENV": "/root/venv",
    }
    if HOST_CA.is_file():
        # pip in the root must trust what the host trusts (a proxy's authority, say).
        environment["PIP_CERT"] = CA_INSIDE
    if os.environ.get("CI"):
        environment["CI"] = os.environ["CI"]
    command = [
        "systemd-nspawn",
        "--register=no",
        "--keep-unit",
        "--quiet",
        "--machine=codenames-release-suite",
        f"--directory={root}",
        f"--bind={pip_cache}:/root/.cache/pip",
        f"--chdir={PROJECT}",
        *(f"--setenv={key}={value}" for key, value in environment.items()),
        "--",
        "make",
        "pytest",
        "VENV=/root/venv",
    ]
    try:
        return subprocess.run(command, check=False, timeout=SUITE_TIMEOUT_S).returncode
    except subprocess.TimeoutExpired:
        print(f"release-suite: no end after {SUITE_TIMEOUT_S:g} s", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    release = args[0] if args else "trixie"
    if len(args) > 1 or release not in RELEASES:
        print(f"usage: python3 -m tools.release_suite [{'|'.join(RELEASES)}]", file=sys.stderr)
        return 2
    began = time.monotonic()
    if os.geteuid() != 0:
        return skip("it runs the suite in a Debian root with systemd-nspawn, which needs root")
    missing = missing_host_tools()
    if missing:
        if shutil.which("apt-get") is None:
            return skip(f"{', '.join(missing)} missing, and no apt-get to install them")
        install_host_tools(missing)
    mirror = debian_mirror()
    if mirror is None:
        return skip(f"the host's apt sources name no Debian mirror of {' or '.join(RELEASES)}")
    cache = root_cache()
    name = f"suite-{release}-{host_architecture()}"
    print(f"== {RELEASES[release]}: the root {cache / name}", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    lower = cached_root(cache, name, release, mirror, CACHE / "debootstrap.log", packages=PACKAGES)
    pip_cache = cache / f"pip-{release}-{host_architecture()}"
    pip_cache.mkdir(exist_ok=True)
    try:
        overlay = Overlay(lower, CACHE / release)
    except ContainerError as error:
        return skip(str(error))
    with overlay:
        copy_checkout(REPO, overlay.merged / PROJECT.lstrip("/"))
        if HOST_CA.is_file():
            ca = overlay.merged / CA_INSIDE.lstrip("/")
            ca.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(HOST_CA, ca)
        print(f"   ready after {time.monotonic() - began:.0f} s; make pytest", flush=True)
        code = run_suite(overlay.merged, pip_cache)
    print(f"== the suite on {release} took {time.monotonic() - began:.0f} s (exit {code})")
    return code


if __name__ == "__main__":
    sys.exit(main())
