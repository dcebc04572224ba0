"""Tests of `firmware.table`: the game loop, the store, the screens, the config."""
