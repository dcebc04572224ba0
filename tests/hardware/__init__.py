"""Tests of `hardware/`: the wiring documents agree with the pin map."""
