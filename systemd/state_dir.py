"""Print the folder where a table config keeps the saved games, for install.sh and uninstall.sh.

`python3 systemd/state_dir.py CONFIG` prints `[table] state_dir` of CONFIG, normalised, or the
default when CONFIG or the key is absent; a file it cannot read, or a value that is no usable
path, is one line on standard error and exit 2. It runs with the system's python3 before any
venv exists, so it imports only the standard library; the firmware checks the rest of the file.
"""

from __future__ import annotations

import os
import sys
import tomllib

DEFAULT_STATE_DIR = "/var/lib/codenames-table"
MAX_CONFIG_BYTES = 1 << 20


def state_dir(path: str) -> str:
    """The state folder CONFIG names; ValueError says why there is none to tell."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return DEFAULT_STATE_DIR
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ValueError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes")
    try:
        document = tomllib.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{path}: {error}") from None
    table = document.get("table", {})
    value = table.get("state_dir", DEFAULT_STATE_DIR) if isinstance(table, dict) else None
    # The shell scripts split on nothing but newlines, yet a control character in a path is a
    # mistake wherever it is.
    if not isinstance(value, str) or not value or not value.isprintable():
        raise ValueError(f"{path}: table.state_dir must be a folder path")
    return os.path.normpath(value)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: state_dir.py CONFIG", file=sys.stderr)
        return 2
    try:
        print(state_dir(argv[1]))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
