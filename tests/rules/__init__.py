"""Tests of `board_rules`: the Codenames and Coda rules cores."""
