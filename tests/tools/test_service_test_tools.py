"""The parts of `make service-test` (tools/service_test) that run without a container: the
mirror and cache rules, the journal reading, the probe, the drop-in and the script it plays.

The container itself is `make service-test`'s to run (root, minutes); CI runs it.
"""

from __future__ import annotations

import doctest
import random
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.cli.main import build_parser
from firmware.service.virtual_service import RealTimePlayer, read_play_script
from firmware.table.config import TableConfig
from firmware.virtual.table import VirtualTable
from tools.service_test import __main__ as harness
from tools.service_test import checks, container, journal, sandbox_probe

from ..paths import DEVELOPERS_GUIDE, REPO
from ..service.test_virtual_service import Stepper

README = DEVELOPERS_GUIDE
UNIT = REPO / "systemd" / "codenames-table.service"


@pytest.mark.parametrize("module", [container, journal, checks])
def test_the_examples_in_the_docstrings_hold(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_the_mirror_is_the_hosts_debian_source_not_its_security_one(tmp_path: Path) -> None:
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://security.example/debian-security\n"
        "Suites: bookworm-security\nComponents: main\n\n"
        "Types: deb-src\nURIs: http://src.example/debian\nSuites: bookworm\n\n"
        "Types: deb\nURIs: http://main.example/debian\nSuites: bookworm bookworm-updates\n",
        encoding="utf-8",
    )
    assert container.debian_mirror(tmp_path) == "http://main.example/debian"


def test_the_mirror_is_read_from_a_one_line_sources_list_too(tmp_path: Path) -> None:
    (tmp_path / "sources.list").write_text(
        "deb http://other.example/debian sid main\n"
        "deb [signed-by=/k.gpg] http://main.example/debian bookworm main\n",
        encoding="utf-8",
    )
    assert container.debian_mirror(tmp_path) == "http://main.example/debian"
    assert container.debian_mirror(tmp_path / "nothing") is None


@pytest.fixture
def fake_debootstrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `debootstrap` on PATH that only makes the target folder and notes each call."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    tool = bin_dir / "debootstrap"
    tool.write_text(f'#!/bin/sh\necho "$*" >>{calls}\nmkdir -p "$4/etc"\n', encoding="utf-8")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return calls


def test_the_root_is_built_once_and_rebuilt_when_the_package_list_changes(
    tmp_path: Path, fake_debootstrap: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    log = tmp_path / "debootstrap.log"
    mirror = "http://m.example/debian"
    root = container.cached_root(cache, "st-bookworm", "bookworm", mirror, log)
    assert root == cache / "st-bookworm" and root.is_dir()
    assert container.cached_root(cache, "st-bookworm", "bookworm", mirror, log) == root
    assert len(fake_debootstrap.read_text().splitlines()) == 1
    (root / "etc" / "left-from-before").touch()
    monkeypatch.setattr(container, "PACKAGES", (*container.PACKAGES, "sqlite3"))
    assert container.cached_root(cache, "st-bookworm", "bookworm", mirror, log) == root
    calls = fake_debootstrap.read_text().splitlines()
    assert len(calls) == 2
    assert "sqlite3" in calls[1] and f"bookworm {root}.tmp {mirror}" in calls[1]
    assert not (root / "etc" / "left-from-before").exists()


def test_each_release_has_its_own_root_and_another_suite_rebuilds_it(
    tmp_path: Path, fake_debootstrap: Path
) -> None:
    cache = tmp_path / "cache"
    log = tmp_path / "debootstrap.log"
    mirror = "http://m.example/debian"
    for suite in ("bookworm", "trixie"):
        container.cached_root(cache, f"st-{suite}", suite, mirror, log, packages=["python3"])
    container.cached_root(cache, "st-trixie", "trixie", mirror, log, packages=["python3"])
    container.cached_root(cache, "st-trixie", "sid", mirror, log, packages=["python3"])
    calls = fake_debootstrap.read_text().splitlines()
    assert [call.split()[2] for call in calls] == ["bookworm", "trixie", "sid"]
    assert (cache / "st-trixie.stamp").read_text() == "suite=sid include=python3\n"


def test_the_roots_are_kept_outside_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(container.ROOT_CACHE_VARIABLE, raising=False)
    assert container.root_cache() == Path("/var/cache/codenames-table")
    assert not container.root_cache().is_relative_to(REPO)
    monkeypatch.setenv(container.ROOT_CACHE_VARIABLE, "/srv/roots")
    assert container.root_cache() == Path("/srv/roots")


def test_each_release_is_installed_as_its_pi(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(harness.MODELS) == set(container.RELEASES)
    assert "Raspberry Pi 4" in harness.MODELS["bookworm"]
    assert "Raspberry Pi 5" in harness.MODELS["trixie"]
    assert harness.main(["buster"]) == 2
    assert "unknown release buster (known: bookworm, trixie)" in capsys.readouterr().err


def test_a_skip_is_a_failure_under_ci(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert harness.skip("no nspawn here") == 0
    assert "SKIPPED: no nspawn here" in capsys.readouterr().out
    monkeypatch.setenv("CI", "true")
    assert harness.skip("no nspawn here") == 1
    assert "cannot run in CI: no nspawn here" in capsys.readouterr().err


def test_without_root_it_skips_before_touching_anything(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(harness.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(harness, "missing_host_tools", lambda: pytest.fail("looked for tools"))
    assert harness.main([]) == 0
    assert "SKIPPED: it boots a container, which needs root" in capsys.readouterr().out


def test_the_journal_notifications_are_read_per_process() -> None:
    entries = journal.parse_entries(
        '{"MESSAGE": "x.service: Got notification message from PID 41 (READY=1, STATUS=a)",'
        ' "_PID": "1", "__MONOTONIC_TIMESTAMP": "1", "__REALTIME_TIMESTAMP": "2"}\n'
        '{"MESSAGE": "x.service: Got notification message from PID 42 (WATCHDOG=1)",'
        ' "_PID": "1", "__MONOTONIC_TIMESTAMP": "3", "__REALTIME_TIMESTAMP": "4"}\n'
    )
    assert [m for _, m in journal.notifications(entries, 41)] == ["READY=1, STATUS=a"]
    assert len(journal.notifications(entries)) == 2


def test_the_probe_tells_what_worked_from_what_was_refused(tmp_path: Path) -> None:
    assert sandbox_probe.attempt(lambda: sandbox_probe.write_in(str(tmp_path))) == "ok"
    assert list(tmp_path.iterdir()) == []  # it cleans up after itself
    missing = str(tmp_path / "missing")
    assert sandbox_probe.attempt(lambda: sandbox_probe.write_in(missing)) == "ENOENT"
    found = sandbox_probe.probe()
    assert set(found) == {
        *(f"write {folder}" for folder in (*sandbox_probe.WRITABLE, *sandbox_probe.READ_ONLY)),
        *(f"socket {name}" for name in sandbox_probe.SOCKETS),
        *(f"read {path}" for path in sandbox_probe.SECRETS),
    }
    # Outside any sandbox a Unix socket always opens: the probe's control case.
    assert found["socket unix datagram"] == "ok"


def test_the_drop_in_only_replaces_the_command_with_run_virtual() -> None:
    text = checks.drop_in(checks.PLAY)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0] == "[Service]"
    assert lines.index("ExecStart=") < len(lines) - 1  # the unit's command is reset first
    command = shlex.split(lines[-1].removeprefix("ExecStart="))
    assert command[0] == checks.EXECUTABLE
    args = build_parser().parse_args(command[1:])
    assert (args.command, args.virtual) == ("run", checks.PLAY)
    assert build_parser().parse_args(shlex.split(checks.drop_in(None))[-2:]).virtual == ""


def test_the_play_script_confirms_the_actions_the_test_expects(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text(checks.PLAY_SCRIPT, encoding="utf-8")
    play = read_play_script(script)
    with VirtualTable(TableConfig(), tmp_path, rng=random.Random(1), first_key=play.key) as vt:
        assert RealTimePlayer(vt, Stepper(vt).pause).play(play.steps)
        assert len(vt.table.game.applied) == checks.PLAYED_ACTIONS
        assert vt.table.rejections == []


def test_the_fake_pi_wrapper_passes_shellcheck() -> None:
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck is not installed here (.ci/run installs it)")
    script = REPO / "tools" / "service_test" / "fake_pi.sh"
    result = subprocess.run([tool, str(script)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_the_readme_gives_the_offline_security_score_that_systemd_analyze_finds() -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (it is on Debian)")
    result = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        check=False,
    )
    score = checks.exposure(result.stdout)
    if score is None:
        pytest.skip(f"this systemd-analyze cannot score offline: {result.stderr.strip()}")
    assert f"exposure level {score}" in README.read_text(encoding="utf-8")
