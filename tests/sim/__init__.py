"""Tests of `firmware.sim` and `firmware.tui`: the desktop simulation and its look."""
