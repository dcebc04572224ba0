"""hardware/README.md's capacitive table agrees with the firmware: each chip's address, its
electrodes in order and its IRQ pin are the ones `firmware.drivers.touch_pads` uses."""

from __future__ import annotations

import re

from firmware.drivers.touch_pads import ADDRESSES, TouchPadsConfig, electrode_of, parse_switch

from ..paths import REPO

README = (REPO / "hardware" / "README.md").read_text(encoding="utf-8")


def chip_rows() -> list[list[str]]:
    section = README.split("## The capacitive table (MPR121)", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| [123] \| 0x5", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_readme_names_each_chips_address_electrodes_and_irq_pin() -> None:
    rows = chip_rows()
    assert len(rows) == len(ADDRESSES)
    pins = TouchPadsConfig().irq_pins
    named = 0
    for chip, (number, address, electrodes, irq) in enumerate(rows):
        assert number == str(chip + 1)
        assert address.startswith(f"0x{ADDRESSES[chip]:02X}")
        assert irq.startswith(f"GPIO {pins[chip]} ")
        wired = []
        for part in electrodes.split(";"):
            match = re.match(r"\s*E(\d+)(?:–E(\d+))?: ([A-Z0-9 ]+)$", part)
            if match and "spare" not in part:
                first = int(match.group(1))
                names = match.group(3).split()
                wired += [(first + i, name) for i, name in enumerate(names)]
        assert wired, electrodes
        for electrode, name in wired:
            assert electrode_of(parse_switch(name)) == (chip, electrode), name
        named += len(wired)
    assert named == 25 + 5  # every card pad and console button
