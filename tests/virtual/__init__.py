"""Tests of `firmware.virtual`: the twins and the headless scripts."""
