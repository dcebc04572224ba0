"""`make test-trixie` (tools/release_suite.py) without a root: its arguments, its skip, and the
programs its Debian root brings for the tests that look for them. Running the suite there is
`make test-trixie`'s (root, minutes); CI runs it."""

from __future__ import annotations

import re

import pytest

from tools import release_suite

from ..paths import REPO

PROGRAM_PACKAGES = {
    "chattr": "e2fsprogs",
    "make": "make",
    "openssl": "openssl",
    "shellcheck": "shellcheck",
    "systemd-analyze": "systemd",
    "mosquitto": "mosquitto",
}
"""The programs the suite runs and the Debian package of each."""


def test_an_unknown_release_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert release_suite.main(["buster"]) == 2
    assert "usage: python3 -m tools.release_suite [bookworm|trixie]" in capsys.readouterr().err


def test_without_root_it_skips_and_under_ci_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    monkeypatch.setattr(release_suite, "missing_host_tools", lambda: pytest.fail("looked"))
    monkeypatch.delenv("CI", raising=False)
    assert release_suite.main([]) == 0
    assert "test-trixie SKIPPED: it runs the suite in a Debian root" in capsys.readouterr().out
    monkeypatch.setenv("CI", "true")
    assert release_suite.main([]) == 1


def test_the_root_brings_every_program_the_tests_look_for() -> None:
    looked_for = set()
    for test in (REPO / "tests").rglob("*.py"):
        text = test.read_text(encoding="utf-8")
        looked_for |= set(re.findall(r'which\("([a-z-]+)"\)', text))
        # The saving tests run chattr without looking for it first.
        looked_for |= set(re.findall(r'_run\("(chattr)"', text))
    # The café page's browser tests skip without Chromium, which the root lacks (PACKAGES).
    looked_for -= {"chromium", "chromium-browser", "chromedriver"}
    looked_for.discard("setpriv")  # util-linux: in every Debian root
    # Checked on the host and skipped in the root, saying why: the hardware's simulations
    # (ngspice) and cloud-init's own schema check, which `make provision-test` runs in its root.
    looked_for -= {"ngspice", "cloud-init"}
    assert looked_for <= PROGRAM_PACKAGES.keys(), looked_for - PROGRAM_PACKAGES.keys()
    assert set(PROGRAM_PACKAGES.values()) <= set(release_suite.PACKAGES)


def test_the_suite_runs_as_make_runs_it() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "test-trixie:\n\tpython3 -m tools.release_suite trixie\n" in makefile
