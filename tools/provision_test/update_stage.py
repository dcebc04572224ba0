"""`make provision-test`'s updates: the provisioned table moved to a new version with
`codenames-table update` while a game is in play, then back with `--previous`.

The new version is the card's own source with its version bumped. The game in play is written
into the table's store as the table writes it (its own user, `GameStore`): a clue given, so
the game is in play; the update must build the new version, then wait. The test checks it
waits (the old version still in service, the same process), then ends the game on the
assassin; the update must then switch, restart and come up READY, reporting the new version,
with the config, the credential and the games as they were, and the restart after the end.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from tools.service_test.checks import Report
from tools.service_test.container import Container

UPDATE_TIMEOUT_S = 1200.0
"""Building the new version installs the project and its dependencies again: minutes."""
SWITCH_TIMEOUT_S = 180.0
"""Once the game is over: the minute UNDO keeps, a poll, the restart."""
NEW_SOURCE = "/var/tmp/codenames-table-new.tar.gz"
LOG = "/var/log/provision-test-update.log"
KEPT = "sha256sum /etc/codenames-table/config.toml /etc/codenames-table/mqtt-password"
KEY = "RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"
"""A fixed key: red starts, the assassin in E5."""
STORE = """
import sys, time
from pathlib import Path
from board_rules.codenames import Game, Key, Mode
from board_rules.codenames.actions import parse_action
from firmware.table.store import GameStore, TimedAction
store = GameStore(Path("/var/lib/codenames-table"))
if sys.argv[1] == "start":
    game = Game(Key.parse(sys.argv[2]), Mode.STANDARD)
    game_id = store.start_game(game.key, game.mode)
    actions = ["clue 2"]
else:
    game_id = int(sys.argv[2])
    saved = store.game(game_id)
    game = saved.replay()
    actions = ["touch E5"]
done = list(store.game(game_id).actions) if sys.argv[1] != "start" else []
for text in actions:
    action = parse_action(text)
    game.play(action)
    done.append(TimedAction(action, time.time()))
store.save(game_id, game, done)
print(game_id, game.state.phase.value, done[-1].at)
"""


NEWER_UNIT = "# The unit of the version after the update."
"""A line the updated version's unit gains, to tell the two units apart."""
UNIT = "/etc/systemd/system/codenames-table.service"


def bumped_bundle(bundle: bytes) -> tuple[bytes, str]:
    """The card's source with `.post1` added to its version and `NEWER_UNIT` to its unit, and
    that version."""
    out = io.BytesIO()
    version = ""
    with (
        tarfile.open(fileobj=io.BytesIO(bundle), mode="r:gz") as source,
        tarfile.open(fileobj=out, mode="w:gz") as bumped,
    ):
        for member in source.getmembers():
            data = source.extractfile(member) if member.isfile() else None
            if member.name == "codenames-table/pyproject.toml" and data is not None:
                text = data.read().decode()
                old = re.search(r'^version = "(.*)"$', text, re.M)
                assert old is not None, "pyproject.toml names no version"
                version = f"{old[1]}.post1"
                text = text.replace(old[0], f'version = "{version}"', 1)
                member.size = len(text.encode())
                data = io.BytesIO(text.encode())
            if (
                member.name == "codenames-table/systemd/codenames-table.service"
                and data is not None
            ):
                unit = data.read() + f"{NEWER_UNIT}\n".encode()
                member.size = len(unit)
                data = io.BytesIO(unit)
            bumped.addfile(member, data)
    return out.getvalue(), version


class UpdateStage:
    """Update the booted table to `version` and back, checking each step into `report`."""

    def __init__(
        self,
        container: Container,
        report: Report,
        health: Callable[[float], dict[str, object] | None],
        on_pi: str,
    ) -> None:
        self.on_pi = on_pi
        """The command prefix that runs a command where the container looks like a Pi."""
        self.container = container
        self.report = report
        self.health = health
        """The table's retained health message written after the given time, or None."""

    def sh(self, script: str, timeout: float = 60.0) -> str:
        return self.container.run(["sh", "-c", script], timeout=timeout, check=False).stdout

    def updating(self) -> bool:
        """The update's unit still runs (`--remain-after-exit`: `exited` once done)."""
        return self.sh("systemctl show -p SubState table-update").strip() == "SubState=running"

    def service(self) -> dict[str, str]:
        shown = self.sh(
            "systemctl show --timestamp=unix -p MainPID,ActiveState,SubState,StatusText,"
            "ActiveEnterTimestamp codenames-table"
        )
        return dict(line.split("=", 1) for line in shown.splitlines() if "=" in line)

    def store(self, *words: str) -> list[str]:
        command = ["runuser", "-u", "codenames-table", "--", "/opt/codenames-table/bin/python"]
        command += ["-c", STORE, *words]
        done = self.container.run(command, check=False)
        self.report.check(f"the test's game: {words[0]}", done.returncode == 0, done.stderr)
        return done.stdout.split()

    def wait_for(self, what: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not what():
            if time.monotonic() > deadline:
                return False
            time.sleep(1.0)
        return True

    def ready(self, state: dict[str, str], version: str) -> None:
        self.report.check(
            f"{version}: the service is active and READY",
            state.get("ActiveState") == "active"
            and state.get("SubState") == "running"
            and bool(state.get("StatusText")),
            state,
        )

    def run(self, bundle: bytes, root: Path) -> None:
        check = self.report.check
        new_bundle, new_version = bumped_bundle(bundle)
        (root / NEW_SOURCE.lstrip("/")).write_bytes(new_bundle)
        old_version = self.sh("codenames-table --version").split()[-1]
        old_folder = self.sh("readlink /opt/codenames-table").strip()
        kept = self.sh(KEPT)
        before = self.service()
        game_id, phase, _ = self.store("start", KEY)
        check("a game is in play", phase != "over", phase)

        print(f"== Update to {new_version} while game {game_id} is in play", flush=True)
        began = time.monotonic()
        update = f"codenames-table update {NEW_SOURCE} >{LOG} 2>&1"
        # Run as the café runs it (detached, systemd-run), on the fake Pi install.sh asks for.
        detached = "systemd-run --quiet --remain-after-exit --unit table-update " + self.on_pi
        self.sh(f"{detached} sh -c {shlex.quote(update)}")
        self.wait_for(
            lambda: f"waiting: game {game_id}" in self.sh(f"cat {LOG}") or not self.updating(),
            UPDATE_TIMEOUT_S,
        )
        waiting = f"waiting: game {game_id} is in play" in self.sh(f"cat {LOG}")
        print(f"   new version built after {time.monotonic() - began:.0f} s", flush=True)
        check("the update builds the new version, then waits for the game", waiting,
              self.sh(f"tail -n 20 {LOG}"))  # fmt: skip
        during = self.service()
        check("while it waits, the old version plays on, in the same process",
              self.sh("readlink /opt/codenames-table").strip() == old_folder
              and during.get("MainPID") == before.get("MainPID")
              and during.get("ActiveState") == "active", during)  # fmt: skip

        _, phase, ended = self.store("end", game_id)
        check("the game is over", phase == "over", phase)
        finished = self.wait_for(lambda: not self.updating(), SWITCH_TIMEOUT_S)
        log = self.sh(f"cat {LOG}")
        status = self.sh("systemctl show -p ExecMainStatus table-update").strip()
        check("the update then finished, exit 0", finished and status == "ExecMainStatus=0",
              f"{status}\n{log[-2000:]}")  # fmt: skip
        after = self.service()
        self.ready(after, new_version)
        restarted = float(after.get("ActiveEnterTimestamp", "@0").lstrip("@") or 0)
        check("it restarted the table only after the game ended",
              restarted > float(ended), (restarted, ended))  # fmt: skip
        self.same_table(new_version, kept, game_id, restarted)
        previous = self.sh("readlink /opt/codenames-table-versions/previous").strip()
        check("the version before is kept as previous", previous == old_folder, previous)
        check("the new version's unit is installed", NEWER_UNIT in self.sh(f"cat {UNIT}"))

        print(f"== Back to {old_version} with update --previous", flush=True)
        back = self.container.run(
            ["codenames-table", "update", "--previous"], timeout=SWITCH_TIMEOUT_S, check=False
        )
        check("update --previous finished, exit 0", back.returncode == 0,
              back.stdout + back.stderr)  # fmt: skip
        state = self.service()
        self.ready(state, old_version)
        check("the old version's own folder is in service again",
              self.sh("readlink /opt/codenames-table").strip() == old_folder)  # fmt: skip
        shipped = f"{old_folder}/share/codenames-table/codenames-table.service"
        check("the unit it shipped with is back in place",
              self.sh(f"cmp {shipped} {UNIT} && echo same").strip() == "same")  # fmt: skip
        restarted = float(state.get("ActiveEnterTimestamp", "@0").lstrip("@") or 0)
        self.same_table(old_version, kept, game_id, restarted)

    def same_table(self, version: str, kept: str, game_id: str, since: float) -> None:
        check = self.report.check
        shown = self.sh("codenames-table --version").split()[-1]
        check(f"{version}: the command is that version", shown == version, shown)
        check(f"{version}: the config and the credential are as they were",
              self.sh(KEPT) == kept and bool(kept))  # fmt: skip
        modes = self.sh("stat -c '%U:%G %a' /etc/codenames-table/mqtt-password").strip()
        check(f"{version}: the credential is still root's alone", modes == "root:root 600", modes)
        history = self.sh("codenames-table history --json")
        try:
            games = {str(game["id"]): game for game in json.loads(history)}
        except (ValueError, TypeError, KeyError):
            games = {}
        check(f"{version}: the saved games are kept, the test's game over",
              games.get(game_id, {}).get("phase") == "over", history[-500:])  # fmt: skip
        health = self.health(since)
        check(f"{version}: the table reports to the broker as that version",
              health is not None and health.get("version") == version, health)  # fmt: skip
