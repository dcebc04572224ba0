"""`board_rules` stays pure: it imports the standard library and itself, nothing else."""

import ast
import sys
from pathlib import Path

RULES = Path(__file__).parents[1] / "board_rules"


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_board_rules_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"board_rules", "__future__"}
    files = sorted(RULES.rglob("*.py"))
    assert files
    for path in files:
        assert imported_roots(path) <= allowed, path


def test_board_rules_has_no_clock_io_or_global_random() -> None:
    forbidden = {"time", "datetime", "os", "io", "socket", "secrets", "sqlite3", "threading"}
    for path in sorted(RULES.rglob("*.py")):
        assert not imported_roots(path) & forbidden, path
        source = path.read_text(encoding="utf-8")
        # Randomness comes in as an injected random.Random, never the module's global state.
        assert "random.shuffle(" not in source and "random.choice(" not in source, path
        assert "open(" not in source and "print(" not in source, path
