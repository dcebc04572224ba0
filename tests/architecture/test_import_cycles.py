"""No import cycle among the project's modules, counting imports inside functions and under
`TYPE_CHECKING`: a cycle put out of sight is still two modules that cannot be understood, tested
or moved one without the other.
"""

from __future__ import annotations

from pathlib import Path

from ..import_graph import dependency_graph, imported_names


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` depends on, directly or not (itself only through a cycle)."""
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def import_cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The modules that depend on each other, one sorted tuple per cycle (strong component)."""
    reach = {module: reachable(graph, module) for module in graph}
    return {
        tuple(sorted(other for other in reach[module] if module in reach[other]))
        for module in graph
        if module in reach[module]
    }


def test_the_cycle_finder_finds_hidden_and_long_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert import_cycles(graph) == {("a", "b", "c"), ("e",)}
    assert import_cycles({"a": {"b"}, "b": set()}) == set()


def test_every_import_counts_hidden_and_relative_ones_too(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "import a.b\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from c import D\n"
        "def f() -> None:\n    from . import e\n    from ..g import h\n",
        encoding="utf-8",
    )
    assert imported_names("pkg.sub.mod", source) == {
        *("a.b", "typing", "typing.TYPE_CHECKING", "c", "c.D"),
        *("pkg.sub", "pkg.sub.e", "pkg.g", "pkg.g.h"),
    }


def test_no_module_imports_itself_back() -> None:
    cycles = import_cycles(dependency_graph())
    assert not cycles, sorted(" <-> ".join(cycle) for cycle in cycles)
