"""Where the broker is (`mqtt://host:port`, `mqtts://host:port`) and a paho client set up to
reach it, shared by the table's publisher and the café's view.

paho-mqtt is imported only inside `new_client`, so that parsing an address costs no import.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from board_rules.text import clip
from firmware.errors import FirmwareError
from firmware.text_input import TextInputError, read_text

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

_URL = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<place>.*)", re.DOTALL)
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
"""A DNS label (RFC 1035 section 2.3.1, RFC 1123 section 2.1): 1 to 63 letters, digits or
hyphens, neither first nor last a hyphen."""
_HOST_LENGTH: Final = 253
"""The longest host name DNS carries (RFC 1035 section 3.1: 255 octets on the wire)."""
_LOGIN = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<login>[^\s'\"]*)@")
_EXPECTED = "expected mqtt://host:port or mqtts://host:port"


def redact(text: str) -> str:
    """`text` with the password of every URL in it (`scheme://user:password@`) replaced by
    `***`: what any error line passes through before it is shown or logged."""

    def hide(found: re.Match[str]) -> str:
        # A login without a colon may be a token: all of it is hidden then.
        user, colon, _ = found["login"].partition(":")
        return f"{found['scheme']}{user + ':' if colon else ''}***@"

    return _LOGIN.sub(hide, text)


def _shown(url: str) -> str:
    # An address as an error line quotes it: its password hidden, its length bounded.
    return repr(clip(redact(url)))


class BrokerError(FirmwareError, ValueError):
    """A broker address, CA file or password file that cannot be used; one line."""


@dataclass(frozen=True)
class BrokerAddress:
    """A broker as a URL names it."""

    host: str
    port: int
    tls: bool

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """`mqtt://host[:1883]` or `mqtts://host[:8883]`, the host a DNS name, an IPv4 address
        or an IPv6 one in brackets; `BrokerError` otherwise, the one validation of every
        command (`run`, `run --check-config`, `selftest --fleet`, `cafe`)."""
        match = _URL.fullmatch(url)
        if match is None or match["scheme"] not in ("mqtt", "mqtts"):
            raise BrokerError(f"{_shown(url)}: {_EXPECTED}")
        if "@" in url:
            raise BrokerError(
                f"{_shown(url)}: a user or password is not read from the address: give "
                "username and password_file (--username and --password-file to the café)"
            )
        tls = match["scheme"] == "mqtts"
        host, port = _host_and_port(match["place"], url)
        number = 8883 if tls else 1883
        if port is not None:
            number = int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else 0
            if not 0 < number < 65536:
                raise BrokerError(f"{_shown(url)}: port {clip(port)} is not 1-65535")
        return cls(host, number, tls)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtt' if not self.tls else 'mqtts'}://{host}:{self.port}"


def _host_and_port(place: str, url: str) -> tuple[str, str | None]:
    """The host and the port's text (None when absent) of an address's `host[:port]`."""
    if place.startswith("["):
        inside, bracket, rest = place[1:].partition("]")
        try:
            host = str(ipaddress.IPv6Address(inside))
        except ValueError:
            bracket = ""
        if not bracket or (rest and not rest.startswith(":")):
            raise BrokerError(f"{_shown(url)}: [{clip(inside)}] is not an IPv6 address")
        return host, rest[1:] if rest else None
    host, colon, port = place.partition(":")
    if not host:
        raise BrokerError(f"{_shown(url)}: no host; {_EXPECTED}")
    labels = host.split(".")
    if (
        len(host) > _HOST_LENGTH
        or not host.isascii()
        or not all(_LABEL.fullmatch(label) for label in labels)
    ):
        raise BrokerError(
            f"{_shown(url)}: {clip(host)!r} is not a host name: labels of 1 to 63 ASCII "
            "letters, digits or inner hyphens, joined by single dots (253 characters at most)"
        )
    return host, port if colon else None


def plain_password_warning(address: BrokerAddress, password_file: Path | None) -> str | None:
    """One line when a password would cross the network unencrypted (plain `mqtt://`), else
    None."""
    if address.tls or password_file is None:
        return None
    return (
        f"the broker {address} is plain mqtt://: the password travels unencrypted; "
        "use mqtts:// with a CA file"
    )


@dataclass(frozen=True)
class Credentials:
    """How a client proves itself: the CA to trust for TLS, a user and the password's file."""

    ca_file: Path | None = None
    username: str | None = None
    password_file: Path | None = None

    def password(self) -> str | None:
        """The password file's first line, read now (it may be rotated); `BrokerError`."""
        if self.password_file is None:
            return None
        try:
            text = read_text(self.password_file)
        except TextInputError as error:
            raise BrokerError(error.located(str(self.password_file))) from error
        return text.splitlines()[0] if text else ""


def new_client(
    client_id: str,
    address: BrokerAddress,
    credentials: Credentials,
    *,
    will: tuple[str, bytes] | None = None,
    reconnect_s: tuple[int, int] = (1, 30),
) -> mqtt.Client:
    """A paho client (MQTT 3.1.1) with TLS and the user set as `credentials` say, its last
    `will` (topic and payload, retained at QoS 1) and paho's delays between reconnections (the
    first, doubling up to the second), not yet connected: each side connects it its own way (the
    table at once, to log a refusal's reason; the café in the background). `BrokerError` naming
    the CA or password file that cannot be used."""
    import ssl

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if address.tls:
        try:
            ca = None if credentials.ca_file is None else str(credentials.ca_file)
            client.tls_set(ca_certs=ca)
        except (OSError, ssl.SSLError) as error:
            raise BrokerError(f"CA file {credentials.ca_file}: cannot be used: {error}") from error
    if credentials.username is not None:
        client.username_pw_set(credentials.username, credentials.password())
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(*reconnect_s)
    return client
