"""A Debian root (Bookworm or Trixie) booted with its own systemd in a container, for `make
service-test`.

The root is built once with `debootstrap` and kept in the machine's root cache (`root_cache()`:
/var/cache/codenames-table, or $CODENAMES_ROOT_CACHE), outside any checkout, so that every clone
on the machine reuses it; it is rebuilt when the package list or the suite changes. Each run
boots a fresh copy of it with `systemd-nspawn`. The host has no systemd of its own, hence
`--register=no --keep-unit`, and commands run inside through `nsenter` into the namespaces of
the container's PID 1.

Standard library only: it runs on the host's own `python3`, before any venv exists.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

RELEASES = {
    "bookworm": "Debian 12, the base of Raspberry Pi OS Bookworm: systemd 252, Python 3.11",
    "trixie": "Debian 13, the base of Raspberry Pi OS Trixie: systemd 257, Python 3.13",
}
"""The Debian releases under the Raspberry Pi OS releases the table supports."""
ROOT_CACHE_VARIABLE = "CODENAMES_ROOT_CACHE"
DEFAULT_ROOT_CACHE = Path("/var/cache/codenames-table")
PACKAGES = (
    # What the container boots: systemd as PID 1, D-Bus for systemctl, and a Python with venv.
    "systemd",
    "systemd-sysv",
    "dbus",
    "python3",
    "python3-venv",
    # What install.sh installs to build the `pi` extra: already in the cached root, so that a
    # run with a warm cache downloads no Debian package.
    "python3-dev",
    "gcc",
    "libc6-dev",
)
HOST_TOOLS = {"debootstrap": "debootstrap", "systemd-nspawn": "systemd-container"}
"""Commands the test needs on the host, and the Debian package of each."""
BOOT_TIMEOUT_S = 90.0
SHUTDOWN_TIMEOUT_S = 20.0


class ContainerError(RuntimeError):
    """The container could not be built, booted or reached."""


def root_cache() -> Path:
    """Where the debootstrapped roots are kept for every checkout on this machine."""
    return Path(os.environ.get(ROOT_CACHE_VARIABLE) or DEFAULT_ROOT_CACHE)


def host_architecture() -> str:
    """The host's Debian architecture (amd64 on a desktop or CI machine)."""
    try:
        return subprocess.run(
            ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "amd64"


def debian_mirror(sources_dir: Path = Path("/etc/apt")) -> str | None:
    """The host's Debian mirror, read from its apt sources (deb822 `.sources` files first, then
    one-line `sources.list`): the one that carries a release in `RELEASES` (one archive carries
    them all); None when it names none."""
    for path in sorted(sources_dir.glob("sources.list.d/*.sources")):
        found = _mirror_in_deb822(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found
    for path in [sources_dir / "sources.list", *sorted(sources_dir.glob("sources.list.d/*.list"))]:
        if path.is_file():
            found = _mirror_in_one_line(path.read_text(encoding="utf-8", errors="replace"))
            if found:
                return found
    return None


def _mirror_in_deb822(text: str) -> str | None:
    """
    >>> _mirror_in_deb822("Types: deb\\nURIs: http://m/debian\\nSuites: bookworm other\\n")
    'http://m/debian'
    >>> _mirror_in_deb822("Types: deb\\nURIs: http://m/debian\\nSuites: trixie\\n")
    'http://m/debian'
    >>> _mirror_in_deb822("Types: deb\\nURIs: http://m/sec\\nSuites: bookworm-security\\n") is None
    True
    """
    for stanza in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if (
            "deb" in fields.get("types", "").split()
            and set(RELEASES) & set(fields.get("suites", "").split())
            and fields.get("enabled", "yes").lower() != "no"
            and fields.get("uris")
        ):
            return fields["uris"].split()[0]
    return None


def _mirror_in_one_line(text: str) -> str | None:
    """
    >>> _mirror_in_one_line("# x\\ndeb [arch=amd64] http://m/debian bookworm main\\n")
    'http://m/debian'
    """
    for line in text.splitlines():
        words = re.sub(r"\[[^]]*\]", " ", line.split("#", 1)[0]).split()
        if len(words) >= 3 and words[0] == "deb" and words[2] in RELEASES:
            return words[1]
    return None


def skip(tool: str, reason: str) -> int:
    """Skip `tool` (exit 0), saying why, or fail it under CI (exit 1), where it must run."""
    if os.environ.get("CI"):
        print(f"{tool} cannot run in CI: {reason}", file=sys.stderr)
        return 1
    print(f"{tool} SKIPPED: {reason}")
    return 0


def checkout_files(repo: Path) -> list[str]:
    """The files of the checkout `repo`, as a fresh clone would have them plus uncommitted
    work: tracked and untracked ones, not ignored ones (no .venv, no caches)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted({name for name in listed.split("\0") if name and (repo / name).exists()})


def copy_checkout(repo: Path, target: Path) -> None:
    """The checkout's files (`checkout_files`) into the folder `target`, made now."""
    target.mkdir(parents=True)
    for name in checkout_files(repo):
        source, copy = repo / name, target / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, copy, follow_symlinks=False)


def missing_host_tools() -> list[str]:
    """The Debian packages of the host tools that are not installed."""
    missing = {package for tool, package in HOST_TOOLS.items() if shutil.which(tool) is None}
    return sorted(missing)


def install_host_tools(packages: Sequence[str]) -> None:
    """`apt-get install` them (as root, on a Debian host)."""
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
        if result.returncode != 0:
            raise ContainerError(f"{' '.join(command)} failed: {result.stderr.strip()[-500:]}")


def root_stamp(packages: Iterable[str], suite: str) -> str:
    """What the cached root was built from: a change of it rebuilds the root.

    >>> root_stamp(["b", "a"], "bookworm")
    'suite=bookworm include=a,b\\n'
    """
    return f"suite={suite} include={','.join(sorted(packages))}\n"


def cached_root(
    cache: Path,
    name: str,
    suite: str,
    mirror: str,
    log: Path,
    *,
    packages: Sequence[str] | None = None,
) -> Path:
    """The root `cache`/`name`: Debian `suite` with `packages` (else `PACKAGES`), built now if
    missing or built from another suite or package list."""
    included = PACKAGES if packages is None else tuple(packages)
    root = cache / name
    stamp = cache / f"{name}.stamp"
    wanted = root_stamp(included, suite)
    if root.is_dir() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return root
    building = cache / f"{name}.tmp"
    for stale in (building, root):
        if stale.exists():
            shutil.rmtree(stale)
    stamp.unlink(missing_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    command = [
        "debootstrap",
        "--variant=minbase",
        f"--include={','.join(included)}",
        suite,
        str(building),
        mirror,
    ]
    with log.open("w", encoding="utf-8") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
    if result.returncode != 0:
        raise ContainerError(f"debootstrap failed (exit {result.returncode}); see {log}")
    building.rename(root)
    stamp.write_text(wanted, encoding="utf-8")
    return root


def fresh_root(root: Path, run: Path) -> Path:
    """A copy of the cached `root` for one run (kept until the next, to look into).

    A copy, not an overlay over the cache: install.sh takes an overlay root for Raspberry Pi
    OS's read-only SD card mode and refuses to install on it, rightly.
    """
    if run.exists():
        shutil.rmtree(run)
    # cp keeps device nodes, hard links, owners and extended attributes as debootstrap made them.
    subprocess.run(["cp", "-a", str(root), str(run)], check=True)
    return run


@dataclass
class Completed:
    """A command run in the container."""

    args: Sequence[str]
    returncode: int
    stdout: str
    stderr: str


class Container:
    """A booted copy of the root; `close` (or `with`) powers it off."""

    def __init__(self, root: Path, console_log: Path, name: str = "codenames-service-test"):
        self.root = root
        self._console = console_log.open("w", encoding="utf-8")
        self._nspawn = subprocess.Popen(
            [
                "systemd-nspawn",
                "--register=no",
                "--keep-unit",
                "--quiet",
                f"--machine={name}",
                "--console=read-only",
                "--directory",
                str(root),
                "--boot",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self._console,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            self.pid = self._find_init()
            self._wait_until_booted()
        except BaseException:
            self.close()
            raise

    def _find_init(self) -> int:
        """The host PID of the container's PID 1: nspawn's descendant that is 1 in its own
        PID namespace."""
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._nspawn.poll() is not None:
                raise ContainerError(
                    f"systemd-nspawn exited with {self._nspawn.returncode}: "
                    f"see {self._console.name}"
                )
            for pid in _descendants(self._nspawn.pid):
                # Before it executes systemd, the child is still nspawn setting up the mounts.
                if _namespace_pid(pid) == 1 and _command_name(pid) == "systemd":
                    return pid
            time.sleep(0.1)
        raise ContainerError("the container's init did not appear")

    def _wait_until_booted(self) -> None:
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while True:
            result = self.run(
                ["systemctl", "is-system-running", "--wait"], timeout=BOOT_TIMEOUT_S, check=False
            )
            # "degraded": booted, with some unit failed (a container lacks some devices).
            if result.stdout.strip() in ("running", "degraded"):
                return
            # Until systemd listens on its private socket, systemctl cannot even ask: "Failed
            # to connect to bus" (252), "... to system scope bus via local transport" (257).
            if not re.search(r"Failed to connect to (system scope )?bus", result.stderr) or (
                time.monotonic() > deadline
            ):
                raise ContainerError(f"it did not boot: {result.stdout}{result.stderr}")
            time.sleep(0.2)

    def run(
        self,
        command: Sequence[str],
        *,
        timeout: float = 60.0,
        check: bool = True,
        env: Mapping[str, str] | None = None,
        input_text: str | None = None,
    ) -> Completed:
        """Run `command` inside, as root, with a clean environment (`env` added to it)."""
        environment = {
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root",
            "LANG": "C.UTF-8",
            "SYSTEMD_PAGER": "",
            **(env or {}),
        }
        args = [
            "nsenter",
            f"--target={self.pid}",
            "--all",
            "env",
            "-i",
            *(f"{key}={value}" for key, value in environment.items()),
            *command,
        ]
        try:
            result = subprocess.run(
                args, check=False, capture_output=True, text=True, timeout=timeout, input=input_text
            )
        except subprocess.TimeoutExpired as error:
            raise ContainerError(f"{' '.join(command)}: no end after {timeout:g} s") from error
        done = Completed(command, result.returncode, result.stdout, result.stderr)
        if check and result.returncode != 0:
            raise ContainerError(
                f"{' '.join(command)} exited with {result.returncode}:\n"
                f"{result.stdout[-2000:]}{result.stderr[-2000:]}"
            )
        return done

    def write(self, path: str, text: str, mode: int = 0o644) -> None:
        """Write a file inside (through the host's view of the root)."""
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(mode)

    def close(self) -> None:
        """Power the container off (SIGTERM to nspawn asks its init to), then make sure."""
        if self._nspawn.poll() is None:
            self._nspawn.terminate()
            try:
                self._nspawn.wait(SHUTDOWN_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(self._nspawn.pid, signal.SIGKILL)
                self._nspawn.wait()
        self._console.close()

    def __enter__(self) -> Container:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _descendants(pid: int) -> list[int]:
    """Every process below `pid`, from the parent PIDs in /proc."""
    parents: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        match = re.search(r"^PPid:\s*(\d+)", text, re.MULTILINE)
        if match:
            parents.setdefault(int(match.group(1)), []).append(int(status.parent.name))
    found: list[int] = []
    todo = list(parents.get(pid, []))
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(parents.get(child, []))
    return found


def _command_name(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def _namespace_pid(pid: int) -> int | None:
    """The innermost PID of a process (the `NSpid:` line of its status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("NSpid:"):
            return int(line.split()[-1])
    return None
