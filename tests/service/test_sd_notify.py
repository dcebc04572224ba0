"""The sd_notify client against real AF_UNIX datagram sockets, as systemd's notify socket is."""

from __future__ import annotations

import itertools
import logging
import os
import socket
import uuid
from collections.abc import Iterator

import pytest

from firmware.service.sd_notify import (
    SystemdNotifier,
    WatchdogFeeder,
    heartbeat_interval,
    watchdog_interval_from,
)

from ..notify_socket import NotifySocket, path_notify_socket


@pytest.fixture
def path_socket() -> Iterator[NotifySocket]:
    with path_notify_socket() as receiver:
        yield receiver


@pytest.fixture
def abstract_socket() -> Iterator[NotifySocket]:
    name = f"codenames-table-test/{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        yield NotifySocket(sock, "@" + name)


def notifier_for(receiver: NotifySocket, **env: str) -> SystemdNotifier:
    return SystemdNotifier.from_environment({"NOTIFY_SOCKET": receiver.env_value, **env})


def test_each_message_is_one_datagram_with_the_exact_assignments(
    path_socket: NotifySocket,
) -> None:
    with notifier_for(path_socket) as notifier:
        assert notifier.enabled
        assert notifier.ready()
        assert path_socket.receive() == b"READY=1"
        assert notifier.watchdog()
        assert path_socket.receive() == b"WATCHDOG=1"
        assert notifier.status("playing")
        assert path_socket.receive() == b"STATUS=playing"
        assert notifier.stopping()
        assert path_socket.receive() == b"STOPPING=1"
        assert notifier.ready(status="playing; 3 actions")
        assert path_socket.receive() == b"READY=1\nSTATUS=playing; 3 actions"
        assert notifier.stopping("stopping on SIGTERM")
        assert path_socket.receive() == b"STOPPING=1\nSTATUS=stopping on SIGTERM"
        assert path_socket.nothing_pending()


def test_an_abstract_socket_name_starting_with_at_is_reached(
    abstract_socket: NotifySocket,
) -> None:
    with notifier_for(abstract_socket) as notifier:
        notifier.ready()
        notifier.watchdog()
        assert abstract_socket.receive() == b"READY=1"
        assert abstract_socket.receive() == b"WATCHDOG=1"


def test_a_status_on_several_lines_stays_one_assignment(path_socket: NotifySocket) -> None:
    with notifier_for(path_socket) as notifier:
        notifier.status("no OLED\nplaying on")
        assert path_socket.receive() == b"STATUS=no OLED playing on"
        notifier.status("Turno dos azuis · ∞")
        assert path_socket.receive() == "STATUS=Turno dos azuis · ∞".encode()


@pytest.mark.parametrize("environ", [{}, {"NOTIFY_SOCKET": ""}])
def test_without_a_notify_socket_every_call_is_a_no_op(environ: dict[str, str]) -> None:
    with SystemdNotifier.from_environment(environ) as notifier:
        assert not notifier.enabled
        assert not notifier.ready()
        assert not notifier.watchdog()
        assert not notifier.status("x")
        assert not notifier.stopping()


def test_an_address_that_is_no_unix_socket_turns_notifications_off(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with SystemdNotifier.from_environment({"NOTIFY_SOCKET": "vsock:2:1234"}) as notifier:
        assert not notifier.enabled
        assert not notifier.ready()
    assert "not a Unix socket address" in caplog.text


def test_a_failed_send_never_raises_and_is_logged_once(
    path_socket: NotifySocket, caplog: pytest.LogCaptureFixture
) -> None:
    with notifier_for(path_socket) as notifier:
        path_socket.sock.close()
        os.unlink(path_socket.env_value)  # systemd went away
        with caplog.at_level(logging.WARNING, logger="firmware.service.sd_notify"):
            assert not notifier.watchdog()
            assert not notifier.watchdog()
            assert not notifier.stopping()
    warnings = [r for r in caplog.records if r.name == "firmware.service.sd_notify"]
    assert len(warnings) == 1
    assert "cannot notify systemd" in warnings[0].getMessage()


def test_close_is_idempotent_and_later_messages_go_nowhere(path_socket: NotifySocket) -> None:
    notifier = notifier_for(path_socket)
    notifier.close()
    notifier.close()
    assert not notifier.enabled
    assert not notifier.ready()
    assert path_socket.nothing_pending()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, None),
        ({"WATCHDOG_USEC": "10000000"}, 10.0),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "4242"}, 0.5),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, None),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "pid"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "ten"}, None),
    ],
)
def test_the_watchdog_interval_is_for_the_process_that_systemd_named(
    environ: dict[str, str], expected: float | None
) -> None:
    assert watchdog_interval_from(environ, pid=4242) == expected
    notifier = SystemdNotifier.from_environment(environ, pid=4242)
    assert notifier.watchdog_interval == expected


def test_the_watchdog_interval_defaults_to_this_process() -> None:
    environ = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())}
    assert SystemdNotifier.from_environment(environ).watchdog_interval == 2.0


def test_the_heartbeat_is_half_the_watchdog_interval_and_at_most_a_second() -> None:
    assert heartbeat_interval(10.0) == 1.0
    assert heartbeat_interval(1.2) == pytest.approx(0.6)
    assert heartbeat_interval(None) == 1.0


def test_the_feeder_sends_at_most_once_per_half_heartbeat(path_socket: NotifySocket) -> None:
    now = [100.0]
    with notifier_for(path_socket) as notifier:
        feed = WatchdogFeeder(notifier, heartbeat_s=1.0, monotonic=lambda: now[0])
        sent_at: list[float] = []
        # A busy loop: a heartbeat every 0.1 s for 3 s.
        for step in range(31):
            now[0] = 100.0 + step / 10
            feed()
            if not path_socket.nothing_pending():
                sent_at.append(now[0])
    assert sent_at == pytest.approx([100.0, 100.5, 101.0, 101.5, 102.0, 102.5, 103.0])


def test_the_feeder_never_leaves_more_than_one_and_a_half_heartbeats_between_sends(
    path_socket: NotifySocket,
) -> None:
    # The loop's worst case: called just before the gap is over, then a whole heartbeat later.
    now = [0.0]
    with notifier_for(path_socket) as notifier:
        feed = WatchdogFeeder(notifier, heartbeat_s=1.0, monotonic=lambda: now[0])
        sent_at: list[float] = []
        for t in (0.0, 0.49, 1.49, 1.98, 2.98):
            now[0] = t
            feed()
            if not path_socket.nothing_pending():
                sent_at.append(t)
    assert sent_at == [0.0, 1.49, 2.98]
    assert max(b - a for a, b in itertools.pairwise(sent_at)) <= 1.5


def test_the_feeder_stops_for_good_at_the_first_fault_and_says_why_once(
    path_socket: NotifySocket, caplog: pytest.LogCaptureFixture
) -> None:
    now = [0.0]
    faults: list[str | None] = [None, None, "the clock thread died: SystemExit", None]
    with notifier_for(path_socket) as notifier:
        feed = WatchdogFeeder(
            notifier, heartbeat_s=1.0, monotonic=lambda: now[0], fault=lambda: faults.pop(0)
        )
        received: list[bytes] = []
        for step in range(6):
            now[0] = float(step)
            feed()
            received.extend(path_socket.pending())
    assert received == [
        b"WATCHDOG=1",
        b"WATCHDOG=1",
        b"STATUS=failing, waiting for the watchdog to restart it: "
        b"the clock thread died: SystemExit",
    ]
    assert faults == [None]  # not asked again once it answered
    assert feed.stopped_for == "the clock thread died: SystemExit"
    errors = [r.getMessage() for r in caplog.records if r.name == "firmware.service.sd_notify"]
    assert errors == [
        "no more watchdog heartbeats, so that systemd restarts the table: "
        "the clock thread died: SystemExit"
    ]
