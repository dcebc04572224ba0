"""Where the broker is (`mqtt://host:port`, `mqtts://host:port`) and a paho client set up to
reach it, shared by the table's publisher and the café's view.

paho-mqtt is imported only inside `new_client`, so that parsing an address costs no import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.errors import FirmwareError
from firmware.text_input import TextInputError, read_text

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

_URL = re.compile(r"(mqtts?)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?")


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
        """`mqtt://host[:1883]` or `mqtts://host[:8883]`; `BrokerError` otherwise."""
        match = _URL.fullmatch(url)
        if match is None:
            raise BrokerError(f"{url!r}: expected mqtt://host:port or mqtts://host:port")
        scheme, host, port = match.groups()
        tls = scheme == "mqtts"
        number = int(port) if port else (8883 if tls else 1883)
        if not 0 < number < 65536:
            raise BrokerError(f"{url!r}: port {number} is not 1-65535")
        return cls(host.strip("[]"), number, tls)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


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


def new_client(client_id: str, address: BrokerAddress, credentials: Credentials) -> mqtt.Client:
    """A paho client (MQTT 3.1.1) with TLS and the user set as `credentials` say, not yet
    connected; `BrokerError` naming the CA or password file that cannot be used."""
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
    return client
