"""The house, read from the source (``ast``, nothing imported): one subpackage per work over shared rooms.

* a work's subpackage never imports another work's subpackage: what two works need goes down into a
  shared room (``solvers``, ``data``, ``validation``, ``experiments``, ``dp_learning``, ...).  The one
  exception is the thesis's own dependency, §2 (``gaussian_mixtures``) using §1's (``dp_noise``) LP
  bounds and mechanisms, and only through public names (no ``_private`` module, function or attribute);
* no import cycle between the package's modules, counting imports inside functions too (a lazy import
  hides a cycle from the interpreter, not from the reader).

``python tests/test_architecture.py`` prints the import graph between works and shared rooms.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "safeguarded"
ALLOWED_WORK_EDGES = {("gaussian_mixtures", "dp_noise")}
# Cycles known when this test was written, each with its way out; the test fails when a new one appears
# and also when a known one is gone (then delete its entry).
KNOWN_CYCLES: dict[tuple[str, ...], str] = {}


def _works() -> tuple[str, ...]:
    tree = ast.parse((SRC / "paths.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "WORKS" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("src/safeguarded/paths.py defines no WORKS tuple")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """``(module, imported names, line)`` for every import statement of the module (functions included)."""
    out = []
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join(package + ([base] if base else []))
            out.append((base, [a.name for a in node.names], node.lineno))
    return out


def module_graph() -> dict[str, set[str]]:
    """Edges between the package's own modules (``from pkg import mod`` counts as an edge to ``mod``)."""
    mods = modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        for module, names, _ in imports(name, path):
            for target in [module, *(f"{module}.{n}" for n in names)]:
                if target in mods and target != name:
                    graph[name].add(target)
    return graph


def room(module: str) -> str:
    """The work subpackage or shared module of a module (``safeguarded.dp_noise.bounds`` -> dp_noise)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def room_graph() -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for a, targets in module_graph().items():
        out[room(a)] |= {room(b) for b in targets if room(b) != room(a)}
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (networkx)."""
    import networkx as nx

    g = nx.DiGraph([(a, b) for a, bs in graph.items() for b in bs])
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def cross_work_imports() -> list[str]:
    """Every import from one work's subpackage into another's that the house does not allow."""
    works = set(_works())
    wrong = []
    for name, path in modules().items():
        src_room = room(name)
        if src_room not in works:
            continue
        tree = ast.parse(path.read_text())
        aliases = set()  # names bound to another work's modules: ``from safeguarded.dp_noise import bounds``
        for module, names, line in imports(name, path):
            parts = module.split(".")
            if parts[0] != "safeguarded" or len(parts) < 2 or parts[1] not in works or parts[1] == src_room:
                continue
            where = f"{path.relative_to(SRC.parent.parent)}:{line}: {src_room} imports {module}"
            if (src_room, parts[1]) not in ALLOWED_WORK_EDGES:
                wrong.append(f"{where} (another work's subpackage)")
                continue
            private = [p for p in parts[2:] if p.startswith("_")] + [n for n in names if n.startswith("_")]
            if private:
                wrong.append(f"{where} {names} (private names {private})")
            aliases |= set(names) if len(parts) == 2 else set()
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")):
                wrong.append(f"{path.relative_to(SRC.parent.parent)}:{node.lineno}: {src_room} uses "
                             f"{node.value.id}.{node.attr} (a private name of another work)")
    return wrong


def test_reads_the_whole_package():
    mods = modules()
    assert "safeguarded.solvers" in mods and "safeguarded.dp_noise.bounds" in mods
    assert set(_works()) <= {room(m) for m in mods}
    # the reader resolves relative imports and ``from package import module`` as edges
    assert "safeguarded.solvers" in module_graph()["safeguarded.robust_lr_aux.transport"]


def test_no_work_imports_another_works_subpackage():
    wrong = cross_work_imports()
    assert not wrong, "cross-work imports (move the shared piece into a shared room):\n" + "\n".join(wrong)


def test_no_import_cycle_between_modules():
    found = {tuple(c) for c in cycles(module_graph())}
    new = sorted(found - set(KNOWN_CYCLES))
    assert not new, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in new)
    gone = sorted(set(KNOWN_CYCLES) - found)
    assert not gone, f"known cycles now broken, delete them from KNOWN_CYCLES: {gone}"


def test_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e", "e2"]]
    assert cycles({"a": {"b"}, "b": {"c"}}) == []


if __name__ == "__main__":
    works = set(_works())
    graph = room_graph()
    print("work -> work:")
    for a in sorted(graph):
        if a in works and graph[a] & works:
            print(f"  {a} -> {', '.join(sorted(graph[a] & works))}")
    print("every room -> the rooms it imports:")
    for a in sorted(graph):
        print(f"  {a} -> {', '.join(sorted(graph[a]))}")
    print("module import cycles:", "; ".join(" <-> ".join(c) for c in cycles(module_graph())) or "none")
    wrong = cross_work_imports()
    print("disallowed cross-work imports:", "\n  " + "\n  ".join(wrong) if wrong else "none")
