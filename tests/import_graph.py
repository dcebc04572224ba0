"""What each of the project's modules imports, read from its source: every `import` and
`from … import`, at the top, under `TYPE_CHECKING` and inside functions alike, since an import
put out of sight is still a dependency of the design. Used by the layering and import-cycle tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("board_rules", "firmware", "tools")
"""The shipped packages and the development tools; the tests are not part of the design."""


def project_modules() -> dict[str, Path]:
    """Every module of `PACKAGES` by its dotted name (a package by its `__init__.py`)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name `module` imports, made absolute. `from a import b` gives `a` and `a.b`,
    since `b` may be a module of the package `a`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def within(name: str, prefix: str) -> bool:
    """Whether the dotted `name` is `prefix` or lies inside it (`a.b.c` is within `a.b`)."""
    return name == prefix or name.startswith(prefix + ".")


def dependency_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports (a name resolved to the longest
    project module it lies within: `from a.b import C` depends on `a.b`)."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = {_longest_module(name, modules) for name in imported_names(module, path)}
        graph[module] = targets - {"", module}
    return graph


def _longest_module(name: str, modules: dict[str, Path]) -> str:
    """The project module `name` lies within ("" for none: the standard library, a dependency)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name
