"""Throwaway TLS certificates for the fleet's tests, made with the `openssl` command: a CA of
the test's own and a server certificate it signs for 127.0.0.1, valid for a day."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

CURVE = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
"""Elliptic-curve keys: made at once, where RSA keys take a noticeable while."""


@dataclass(frozen=True)
class ServerCertificate:
    """A CA's certificate, and a server's certificate and key that it signed."""

    ca: Path
    certificate: Path
    key: Path


def _openssl(*arguments: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        pytest.skip("the openssl command is not installed (apt-get install openssl)")
    subprocess.run([tool, *arguments], check=True, capture_output=True)


def certificate_authority(folder: Path, name: str) -> tuple[Path, Path]:
    """A new self-signed CA in `folder`: (its certificate, its key)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca, key = folder / f"{name}.pem", folder / f"{name}.key"
    _openssl(
        "req", "-x509", *CURVE, "-days", "1", "-subj", f"/CN={name}",
        "-keyout", str(key), "-out", str(ca),
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    return ca, key


def server_certificate(folder: Path) -> ServerCertificate:
    """A CA and a certificate it signed for the server at 127.0.0.1 (and localhost)."""
    ca, ca_key = certificate_authority(folder, "cafe-ca")
    key, request, certificate = (folder / f"server.{ext}" for ext in ("key", "csr", "pem"))
    _openssl(
        "req", "-new", *CURVE, "-subj", "/CN=127.0.0.1",
        "-keyout", str(key), "-out", str(request),
    )  # fmt: skip
    extensions = folder / "server.ext"
    extensions.write_text(
        "basicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\n"
        "extendedKeyUsage=serverAuth\n"
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
        "authorityKeyIdentifier=keyid\n"
    )
    _openssl(
        "x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
        "-CAcreateserial", "-days", "1", "-out", str(certificate), "-extfile", str(extensions),
    )  # fmt: skip
    return ServerCertificate(ca, certificate, key)
