"""Tests of `firmware.cli`: the commands, in-process through `main`."""
