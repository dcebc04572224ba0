"""`board_rules` stays pure: it imports the standard library and itself, nothing else."""

import sys
from pathlib import Path

from ..import_graph import imported_names, project_modules, within

RULES = {name: path for name, path in project_modules().items() if within(name, "board_rules")}


def imported_roots(module: str, path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_names(module, path)}


def test_board_rules_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"board_rules", "__future__"}
    assert RULES
    for module, path in RULES.items():
        assert imported_roots(module, path) <= allowed, path


def test_board_rules_has_no_clock_io_or_global_random() -> None:
    forbidden = {"time", "datetime", "os", "io", "socket", "secrets", "sqlite3", "threading"}
    for module, path in RULES.items():
        assert not imported_roots(module, path) & forbidden, path
        source = path.read_text(encoding="utf-8")
        # Randomness comes in as an injected random.Random, never the module's global state.
        assert "random.shuffle(" not in source and "random.choice(" not in source, path
        assert "open(" not in source and "print(" not in source, path
