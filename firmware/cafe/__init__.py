"""The café view: every table of the fleet at a glance, from the broker's retained messages and
live ones, in the terminal (Textual) and, with `--http`, on a read-only web page."""
