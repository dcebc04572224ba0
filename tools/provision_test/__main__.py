"""`make provision-test`: a table set up the café's way, under the distribution's cloud-init and
systemd, end to end.

On the host: a broker recipe for `table-1` on 127.0.0.1, a Mosquitto run with it, and the
table's card files from `codenames-table provision --bundle`. A fresh Debian 13 Trixie root
(systemd 257 and Debian's cloud-init, `root.py`) gets those files as cloud-init's NoCloud seed
and the bundle where the card's boot partition is mounted, then boots in a container that
shares the host's network, so that 127.0.0.1 is the broker. The first boot must install the
table and start it, READY, its files in place with their owners and modes, reporting to the
broker as its own user; the second must change nothing and bring it back. Then the table is
updated to a new version while a game is in play, and back (`update_stage.py`).

What the test adds to the root, and a Pi does not need: cloud-init told to read only NoCloud
and to leave the network alone (the container's is the host's), cloud-init run where
/proc/device-tree says Raspberry Pi (`tools/service_test/fake_pi.sh`), and the table's unit on
virtual hardware (`run --virtual`, as `make service-test` does). Skips, saying why, where no
container can boot; under CI a skip is a failure. Ends with `N passed, N failed`.

    python3 -m tools.provision_test [trixie | bookworm]
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any

from firmware.cli.cloud_init import BLANK_USER_DATA
from firmware.cli.main import main as codenames_table
from tools import mosquitto
from tools.provision_test.root import SUITES, cached_tarball, unpack
from tools.provision_test.update_stage import UpdateStage
from tools.service_test.checks import EXECUTABLE, Report
from tools.service_test.container import Container, ContainerError, debian_mirror

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "provision-test"
TABLE = "table-1"
FAKE_PI = REPO / "tools" / "service_test" / "fake_pi.sh"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
MODEL = "Raspberry Pi 5 Model B Rev 1.0"
"""The Pi the container plays (install.sh picks the LED backend by model: the Pi 5's needs no
compiler), on both releases as Raspberry Pi OS supports it."""
FAKE_PI_COMMAND = (
    "/usr/bin/unshare --mount --propagation private sh /usr/local/lib/provision-test/fake_pi.sh"
    f' "{MODEL}"'
)
"""Runs the command after it where /proc/device-tree/model says MODEL (systemd's and sh's
quoting alike)."""
FIRST_BOOT_TIMEOUT_S = 1200.0
"""The first boot installs packages and the table's venv: minutes on a busy machine."""
SETTLE_TIMEOUT_S = 120.0
SNAPSHOT = (
    "find /opt/codenames-table /usr/local/src/codenames-table /etc/codenames-table "
    "/etc/systemd/system/codenames-table.service /etc/systemd/system/codenames-table.service.d "
    "/etc/systemd/system/multi-user.target.wants/codenames-table.service "
    "-printf '%p %y %m %u:%g %s %T@\\n' | sort; cat /etc/hostname /var/lib/cloud/data/instance-id"
)
"""What the table's install made, to the second: a second boot must leave it as it is."""
TEST_CLOUD_CFG = """\
# make provision-test: the seed is NoCloud's folder; the network is the host's, not ours.
datasource_list: [ NoCloud ]
network:
  config: disabled
# The root has no locale generated but C.UTF-8 (a Pi has the one Imager or raspi-config chose).
locale: C.UTF-8
"""


def skip(reason: str) -> int:
    if os.environ.get("CI"):
        print(f"provision-test cannot run in CI: {reason}", file=sys.stderr)
        return 1
    print(f"provision-test SKIPPED: {reason}")
    return 0


class CloudInitContainer(Container):
    """The container, booted once cloud-init has finished (it holds the boot until then)."""

    def _wait_until_booted(self) -> None:
        deadline = time.monotonic() + FIRST_BOOT_TIMEOUT_S
        result = self.run(
            ["cloud-init", "status", "--wait"], timeout=FIRST_BOOT_TIMEOUT_S, check=False
        )
        if "status:" not in result.stdout:
            raise ContainerError(f"cloud-init status: {result.stdout}{result.stderr}")
        while True:
            state = self.run(
                ["systemctl", "is-system-running", "--wait"], timeout=SETTLE_TIMEOUT_S, check=False
            ).stdout.strip()
            if state in ("running", "degraded") or time.monotonic() > deadline:
                return
            time.sleep(0.5)


def seed(root: Path, card: Path) -> None:
    """The card's files where cloud-init and the install look for them, and the test's own."""

    def write(path: str, data: bytes | str, mode: int = 0o644) -> None:
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)
        target.chmod(mode)

    for name in ("user-data", "meta-data", "network-config"):
        write(f"/var/lib/cloud/seed/nocloud/{name}", (card / name).read_bytes(), 0o600)
    write("/boot/firmware/codenames-table.tar.gz", (card / "codenames-table.tar.gz").read_bytes())
    # The card's copy, which the first boot blanks once the table is up.
    write("/boot/firmware/user-data", (card / "user-data").read_bytes())
    write("/etc/cloud/cloud.cfg.d/99-provision-test.cfg", TEST_CLOUD_CFG)
    # Nothing in the container may configure the host's interfaces.
    masked = root / "etc/systemd/system/systemd-networkd.service"
    masked.parent.mkdir(parents=True, exist_ok=True)
    masked.symlink_to("/dev/null")
    write("/usr/local/lib/provision-test/fake_pi.sh", FAKE_PI.read_text(), 0o755)
    units = root / "usr/lib/systemd/system"
    # cloud-init 24.3 and later run every stage in one process, cloud-init-main.service.
    stage_unit = next(
        name
        for name in ("cloud-init-main.service", "cloud-final.service")
        if (units / name).is_file()
    )
    exec_start = next(
        line.split("=", 1)[1]
        for line in (units / stage_unit).read_text().splitlines()
        if line.startswith("ExecStart=")
    )
    fake = FAKE_PI_COMMAND
    write(
        f"/etc/systemd/system/{stage_unit}.d/provision-test.conf",
        f"# make provision-test: cloud-init (and the install it runs) on a fake Pi.\n"
        f"[Service]\nExecStart=\nExecStart={fake} {exec_start}\n",
    )
    write(
        "/etc/systemd/system/codenames-table.service.d/provision-test.conf",
        f"# make provision-test: the table on virtual hardware.\n"
        f"[Service]\nExecStart=\nExecStart={EXECUTABLE} run --virtual\n",
    )
    if HOST_CA.is_file():
        # pip in the container must trust what the host trusts (a proxy's authority, say).
        write("/usr/local/share/provision-test/host-ca.pem", HOST_CA.read_text())
        write("/etc/pip.conf", "[global]\ncert = /usr/local/share/provision-test/host-ca.pem\n")


def retained_status(
    port: int, recipe: Path, newer_than: float = 0.0, kind: str = "status"
) -> dict[str, Any] | None:
    """The table's retained status (or `kind` message) as the café view reads it (its own
    user, TLS), once one written after `newer_than` arrives; None after SETTLE_TIMEOUT_S."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    found: dict[str, Any] = {}
    arrived = threading.Event()

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        payload = json.loads(message.payload)
        if payload.get("at", 0) > newer_than and payload.get("status", "online") == "online":
            found.update(payload)
            arrived.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    client.tls_set(ca_certs=str(recipe / "view" / "cafe-ca.pem"))
    password = (recipe / "view" / "mqtt-password").read_text().strip()
    client.username_pw_set("cafe-view", password)
    client.on_message = on_message
    client.on_connect = lambda c, *_: c.subscribe(f"codenames/{TABLE}/{kind}", qos=1)
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while not arrived.is_set() and time.monotonic() < deadline:
        # Resubscribing reads the retained message again, the newest the broker holds.
        client.connect("127.0.0.1", port, 10)
        client.loop_start()
        arrived.wait(5.0)
        client.loop_stop()
        client.disconnect()
    return found or None


class Run:
    """One run: the broker, the card files, the root, and the report."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.report = Report()
        self.recipe = work / "recipe"
        self.port = mosquitto.free_port()

    def prepare(self) -> None:
        recipe = ["broker-recipe", "--table", TABLE, "--host", "127.0.0.1"]
        recipe += ["--port", str(self.port), "--out", str(self.recipe)]
        recipe += ["--broker-dir", str(self.recipe / "broker")]
        provision = ["provision", "--recipe", str(self.recipe), "--table", TABLE, "--bundle"]
        provision += ["--out", str(self.work / "cards")]
        for command in (recipe, provision):
            if codenames_table(command) != 0:
                raise RuntimeError(f"codenames-table {command[0]} failed")
        conf = (self.recipe / "broker" / "mosquitto.conf").read_text()
        # Here only: on loopback, and as root (the files are root's).
        conf = conf.replace(f"listener {self.port}\n", f"listener {self.port} 127.0.0.1\n")
        (self.work / "broker.conf").write_text(conf + "user root\n")

    def first_boot(self, container: Container) -> tuple[str, float]:
        check, run = self.report.check, container.run
        self._check_cloud_init(container, "its first boot")
        for name, kind in (("user-data", "cloud-config"), ("network-config", "network-config")):
            schema = run(
                ["cloud-init", "schema", "--schema-type", kind, "--config-file",
                 f"/var/lib/cloud/seed/nocloud/{name}"],
                check=False,
            )  # fmt: skip
            if "unrecognized arguments" in schema.stderr:  # cloud-init 22: user-data only
                if kind != "cloud-config":
                    continue
                schema = run(["cloud-init", "schema", "--config-file",
                              f"/var/lib/cloud/seed/nocloud/{name}"], check=False)  # fmt: skip
            check(f"the distribution's cloud-init schema accepts the {name}",
                  schema.returncode == 0, schema.stdout + schema.stderr)  # fmt: skip
        output = run(["cat", "/var/log/cloud-init-output.log"], check=False).stdout
        (CACHE / "cloud-init-output.log").write_text(output)
        check("the install ran and started the table", "== Installed and started" in output,
              output[-2000:])  # fmt: skip
        check("the hostname is the table's", run(["hostname"]).stdout.strip() == TABLE)
        on_card = run(["cat", "/boot/firmware/user-data"], check=False).stdout
        password = (self.recipe / "tables" / TABLE / "mqtt-password").read_text().strip()
        check("the card's user-data is blanked, the password gone from the boot partition",
              on_card == BLANK_USER_DATA and password not in on_card, on_card[:200])  # fmt: skip
        self._check_service(container)
        modes = run(
            ["stat", "-c", "%n %U:%G %a", "/etc/codenames-table/config.toml",
             "/etc/codenames-table/cafe-ca.pem", "/etc/codenames-table/mqtt-password"],
            check=False,
        ).stdout.split("\n")  # fmt: skip
        wanted = [
            "/etc/codenames-table/config.toml root:root 644",
            "/etc/codenames-table/cafe-ca.pem root:root 644",
            "/etc/codenames-table/mqtt-password root:root 600",
        ]
        check("config, CA and credential in place, with their owners and modes",
              modes[:3] == wanted, modes)  # fmt: skip
        config = run(["cat", "/etc/codenames-table/config.toml"], check=False).stdout
        names = f'table = "{TABLE}"' in config and f"mqtts://127.0.0.1:{self.port}" in config
        check("the config names the table and its broker", names)
        drop_in = run(
            ["cat", "/etc/systemd/system/codenames-table.service.d/fleet.conf"], check=False
        ).stdout
        handed = run(["test", "-s", "/run/credentials/codenames-table.service/mqtt"], check=False)
        check("the password reaches the service as a credential, not through the config",
              "LoadCredential=mqtt:/etc/codenames-table/mqtt-password" in drop_in
              and handed.returncode == 0 and "password =" not in config, drop_in)  # fmt: skip
        status_message = retained_status(self.port, self.recipe)
        check("the table reports online under codenames/table-1/status",
              status_message is not None and status_message.get("table") == TABLE,
              status_message)  # fmt: skip
        log = (self.work / "mosquitto.log").read_text(errors="replace")
        check("it connected to the broker as its own user", f"u'{TABLE}'" in log, log[-1500:])
        snapshot = run(["sh", "-c", SNAPSHOT], check=False).stdout
        return snapshot, (status_message or {}).get("at", 0.0)

    @property
    def bundle(self) -> bytes:
        """The source the card installed from."""
        return (self.work / "cards" / TABLE / "codenames-table.tar.gz").read_bytes()

    def health(self, newer_than: float) -> dict[str, Any] | None:
        """The table's retained health written after `newer_than`, as the café view reads it."""
        return retained_status(self.port, self.recipe, newer_than, "health")

    def second_boot(self, container: Container, snapshot: str, first_at: float) -> None:
        check, run = self.report.check, container.run
        self._check_cloud_init(container, "the second boot")
        self._check_service(container)
        again = run(["sh", "-c", SNAPSHOT], check=False).stdout
        changed = sorted(set(again.splitlines()) ^ set(snapshot.splitlines()))
        check("the second boot changed none of the table's files", not changed, changed[:10])
        output = run(["cat", "/var/log/cloud-init-output.log"], check=False).stdout
        check("the install ran once", output.count("== Installing") == 1)
        status_message = retained_status(self.port, self.recipe, newer_than=first_at)
        check("the table reports online again after the reboot", status_message is not None)

    def _check_cloud_init(self, container: Container, boot: str) -> None:
        # Exit 0: done; 2: done with warnings (cloud-init 23.4 and later); 1: an error.
        status = container.run(["cloud-init", "status", "--long"], check=False)
        self.report.check(
            f"cloud-init finished {boot} without errors",
            status.returncode in (0, 2) and "status: done" in status.stdout,
            status.stdout[-2500:],
        )

    def _check_service(self, container: Container) -> None:
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while True:
            shown = container.run(
                ["systemctl", "show", "-p", "ActiveState,SubState,StatusText", "codenames-table"],
                check=False,
            ).stdout
            state = dict(line.split("=", 1) for line in shown.splitlines() if "=" in line)
            if state.get("ActiveState") != "activating" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        active = container.run(["systemctl", "is-active", "codenames-table"], check=False)
        self.report.check(
            "the service is active and READY (running, with its status line)",
            active.stdout.strip() == "active"
            and state.get("SubState") == "running"
            and bool(state.get("StatusText")),
            shown,
        )
        print(f"   StatusText: {state.get('StatusText')}")


def main(argv: list[str]) -> int:
    suite = argv[0] if argv else SUITES[0]
    if len(argv) > 1 or suite not in SUITES:
        print(f"usage: python3 -m tools.provision_test [{' | '.join(SUITES)}]", file=sys.stderr)
        return 2
    began = time.monotonic()
    if os.geteuid() != 0:
        return skip("it boots a container, which needs root")
    missing = [tool for tool in ("debootstrap", "systemd-nspawn") if shutil.which(tool) is None]
    if missing:
        return skip(f"{', '.join(missing)} not installed")
    if mosquitto.binary() is None:
        return skip(mosquitto.NOT_INSTALLED)
    mirror = debian_mirror()
    if mirror is None:
        return skip("the host's apt sources name no Debian mirror")
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"== The {suite} root (/var/cache/codenames-table)", flush=True)
    tarball = cached_tarball(suite, mirror, CACHE / f"debootstrap-{suite}.log")
    work = CACHE / "work"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(mode=0o700)
    run = Run(work)
    run.prepare()
    root = unpack(tarball, CACHE / "root")
    seed(root, work / "cards" / TABLE)
    print(f"   ready after {time.monotonic() - began:.0f} s", flush=True)
    broker = mosquitto.launch(work / "broker.conf", run.port, work / "mosquitto.log")
    try:
        print("== First boot: cloud-init installs the table", flush=True)
        booted = time.monotonic()
        try:
            with CloudInitContainer(root, CACHE / "console-1.log", "codenames-provision") as c:
                print(f"   cloud-init done after {time.monotonic() - booted:.0f} s", flush=True)
                snapshot, first_at = run.first_boot(c)
            print("== Second boot", flush=True)
            with CloudInitContainer(root, CACHE / "console-2.log", "codenames-provision") as c:
                run.second_boot(c, snapshot, first_at)
                UpdateStage(c, run.report, run.health, FAKE_PI_COMMAND).run(run.bundle, root)
        except ContainerError as error:
            run.report.check("the container boots", False, error)
    finally:
        broker.terminate()
        broker.wait()
    print(f"== provision-test took {time.monotonic() - began:.0f} s; logs in .cache/provision-test")
    print(f"{len(run.report.passed)} passed, {len(run.report.failed)} failed")
    return 1 if run.report.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
