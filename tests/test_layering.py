"""No import cycles among the project's modules, counting every import: in a function, under
TYPE_CHECKING, and a package's own (its ``__init__`` importing its submodules, by name or through
``import_module``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("assistant", "parsers")


def project_modules() -> dict[str, Path]:
    """Every module of the project by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module's edges to the project's modules it imports, their enclosing packages included
    (Python runs a package's ``__init__`` before any submodule)."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, one level up per dot after the first
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                named.add(base)
                named.update(f"{base}.{alias.name}" for alias in node.names)
            elif (loaded := _loaded_by_name(node, name, package)) is not None:
                named.update(m for m in modules if m.startswith(f"{loaded}."))
        # what it names, and the packages above it but not above this module (those ran before it,
        # not for it)
        edges = set(named)
        for target in named:
            parts = target.split(".")
            edges.update(
                p
                for i in range(1, len(parts))
                if not name.startswith(f"{(p := '.'.join(parts[:i]))}.")
            )
        graph[name] = {t for t in edges if t in modules and t != name}
    return graph


def _loaded_by_name(node: ast.AST, name: str, package: str) -> str | None:
    """The package whose modules ``import_module(f"{__name__}.{...}")`` (or ``{__package__}``) loads
    by name."""
    if not (
        isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "import_module"
        and node.args
    ):
        return None
    first = node.args[0]
    if not (isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.FormattedValue)):
        return None
    return {"__name__": name, "__package__": package}.get(
        getattr(first.values[0].value, "id", None)
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles():
    assert cycles(import_graph()) == []


def test_the_graph_sees_lazy_and_type_only_imports():
    graph = import_graph()
    assert "assistant.gamefile.game" in graph["assistant.cli.options"]  # imported inside a function
    assert (
        "assistant.forum.store" in graph["assistant.upkeep.update"]
    )  # imported under TYPE_CHECKING
    hooks = {"assistant.counting.hooks.judge", "assistant.counting.hooks.sheriff"}
    assert hooks <= graph["assistant.counting.hooks.registry"]  # by name
    assert (
        "assistant.counting.hooks" in graph["assistant.counting.hooks.judge"]
    )  # its own package, named
    assert (
        "assistant" not in graph["assistant.counting.hooks.judge"]
    )  # a package above it ran before it, not for it
    assert "assistant" in graph["assistant.cli.main"]  # from assistant import __version__
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


STAGES = (
    "gamefile",
    "reading",
    "forum",
    "counting",
    "output",
    "upkeep",
    "cli",
)  # the README's drawing, in order
SHARED = {
    "assistant",
    "assistant.__main__",
    "assistant.bundled",
    "assistant.errors",
}  # any stage may use them


def stage(module: str) -> int | None:
    parts = module.split(".")
    return (
        STAGES.index(parts[1])
        if parts[0] == "assistant" and len(parts) > 1 and parts[1] in STAGES
        else None
    )


def test_every_module_of_assistant_is_in_a_stage_folder():
    loose = [
        m
        for m in project_modules()
        if m.startswith("assistant") and m not in SHARED and stage(m) is None
    ]
    assert loose == []


def test_each_stage_imports_only_the_stages_before_it():
    graph = import_graph()
    against = sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if stage(module) is not None and stage(target) is not None and stage(target) > stage(module)
    )
    assert against == []
    assert stage("assistant.counting.hooks.judge") == STAGES.index("counting")
