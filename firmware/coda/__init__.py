"""Coda on screen: the Textual app, its controller (which knows no Textual), scene, widgets and
texts, over the pure rules in `board_rules.coda`.
"""
