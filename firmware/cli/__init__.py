"""The `codenames-table` command: one parser (`main`) and a module per command that is not
the service's own.
"""
