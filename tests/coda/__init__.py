"""Tests of `firmware.coda`: Coda on screen."""
