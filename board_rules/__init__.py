"""Pure rules of board games: standard library only, no I/O, no clock, no global random state.

Each game lives in its own subpackage (`board_rules.codenames`, `board_rules.coda`); drivers,
screens and storage import these packages, never the reverse.
"""
