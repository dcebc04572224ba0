"""`make test-trixie`: the whole test suite under a Debian release's own Python (Trixie: 3.13,
the Python of Raspberry Pi OS Trixie), not the desktop's.

The release's root (its Python, and the programs the suite runs: Mosquitto, shellcheck,
systemd-analyze, make, openssl; not Chromium, see `PACKAGES`) is built once with `debootstrap`
into the machine's root cache (`container.root_cache()`), outside any checkout. Each run copies
it afresh, copies this checkout in (tracked and new files, as `make service-test`
does), and runs `make pytest` there under `systemd-nspawn`, the venv made by the release's own
`python3 -m venv`. The root's download caches (pip's and uv's) are kept in the root cache too, so
a second run fetches nothing.

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


def skip(reason: str) -> int:
    """Skip the run, or fail it under CI, where it must run."""
    return skip_or_fail("test-trixie", reason)


def run_suite(root: Path, downloads: Path) -> int:
    """`make pytest` of every test (the slow ones too) in `root` under systemd-nspawn: pytest's
    exit."""
    environment = {
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        # The venv is the release's, outside the copy: nothing of the host's is used.
        "VENV": "/root/venv",
        # uv's cache is in a bind mount, another file system than the venv's: copied, not linked.
        "UV_LINK_MODE": "copy",
    }
    if HOST_CA.is_file():
        # pip and uv in the root must trust what the host trusts (a proxy's authority, say).
        environment["PIP_CERT"] = CA_INSIDE
        environment["SSL_CERT_FILE"] = CA_INSIDE
    if os.environ.get("CI"):
        environment["CI"] = os.environ["CI"]
    command = [
        "systemd-nspawn",
        "--register=no",
        "--keep-unit",
        "--quiet",
        "--machine=codenames-release-suite",
        f"--directory={root}",
        f"--bind={downloads}:/root/.cache",
        f"--chdir={PROJECT}",
        *(f"--setenv={key}={value}" for key, value in environment.items()),
        "--",
        "make",
        "pytest",
        "VENV=/root/venv",
        "PYTEST_MARK=",  # every test, the slow ones too
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
    downloads = cache / f"downloads-{release}-{host_architecture()}"
    downloads.mkdir(exist_ok=True)
    # A copy, not an overlay over the cache: the table refuses a state folder on an overlay (as
    # on a Pi whose SD card is read-only), and the suite runs the table on the root's folders.
    root = fresh_root(lower, CACHE / f"{release}-root")
    copy_checkout(REPO, root / PROJECT.lstrip("/"))
    if HOST_CA.is_file():
        ca = root / CA_INSIDE.lstrip("/")
        ca.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HOST_CA, ca)
    print(f"   ready after {time.monotonic() - began:.0f} s; make pytest", flush=True)
    code = run_suite(root, downloads)
    print(f"== the suite on {release} took {time.monotonic() - began:.0f} s (exit {code})")
    return code


if __name__ == "__main__":
    sys.exit(main())
