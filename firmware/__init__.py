"""The table's firmware: hardware drivers and their virtual twins, the application, the CLI."""
