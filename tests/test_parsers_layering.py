"""The parsers are a library of their own: they import nothing from the application."""

from __future__ import annotations

import ast
from pathlib import Path

PARSERS = Path(__file__).resolve().parents[1] / "parsers"


def test_parsers_import_nothing_from_the_application():
    imported = set()
    for path in sorted(PARSERS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add((path.name, node.module.split(".")[0]))
            elif isinstance(node, ast.Import):
                imported.update((path.name, alias.name.split(".")[0]) for alias in node.names)
    assert {(name, module) for name, module in imported if module == "assistant"} == set()
    assert ("phpbb.py", "parsers") in imported  # the walk did see the parsers' own imports
