"""Tests of `firmware.service` and the install scripts in `systemd/`."""
