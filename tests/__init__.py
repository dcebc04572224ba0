"""The test suite of the Codenames table."""
