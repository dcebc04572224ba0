"""The desktop simulation: a Textual window over the virtual table."""
