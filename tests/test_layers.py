"""The package's layers import only downwards, and no module imports itself back (ARCHITECTURE.md).

Every module of kscore/ is parsed (ast) for its imports, top-level and inside
functions alike: a lazy import is still a dependency. Then each module is imported
for real, so a module that cannot load on its own fails here too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kscore"

#: Bottom to top. A module may import from its own layer or any layer below it.
LAYERS = ["kscore.errors", "kscore.filetypes", "kscore.game", "kscore.vision", "kscore.app", "kscore.lab"]
SHARED = {"kscore", "kscore.errors", "kscore.filetypes"}  # the package root and its two shared modules


def module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def source_of(name: str) -> Path:
    base = PACKAGE.parent.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def kscore_imports(name: str) -> set[str]:
    """The kscore modules `name` imports, resolved to module names (from X import Y: X.Y if Y is a module)."""
    known = set(module_names())
    is_package = source_of(name).name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source_of(name).read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
    return {m for m in found if m in known and m != name}


def layer_of(name: str) -> int:
    return max(i for i, layer in enumerate(LAYERS) if name == layer or name.startswith(layer + ".")) if name not in {"kscore"} else -1


def test_every_module_is_in_a_layer():
    assert len(module_names()) > 40
    for name in module_names():
        assert name == "kscore" or any(name == l or name.startswith(l + ".") for l in LAYERS), name


def test_imports_only_go_down_the_layers():
    upward = []
    for name in module_names():
        for imported in kscore_imports(name):
            if imported != "kscore" and layer_of(imported) > layer_of(name):
                upward.append(f"{name} imports {imported}")
    assert upward == []


def test_no_import_cycle():
    graph = {name: kscore_imports(name) for name in module_names()}
    state: dict[str, int] = {}  # 1 visiting, 2 done
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [node, nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [])
    assert cycles == []


def test_the_core_rules_name_no_expansion():
    """kingdom, properties, rules and the registry read no expansion module: expansions plug in."""
    for name in ["kscore.game.kingdom", "kscore.game.properties", "kscore.game.rules", "kscore.game.registry",
                 "kscore.game.scoring", "kscore.game.ranking", "kscore.game.scoreline"]:
        assert not any(m.startswith("kscore.game.expansions") for m in kscore_imports(name)), name


def test_the_registry_is_filled_by_the_expansions():
    from kscore.game import registry

    assert {"kingdomino", "queendomino", "origins"} <= set(registry.GAMES)
    assert {"harmony", "middle-kingdom", "totem", "tribe"} <= set(registry.VARIANTS)
    assert "coins" in registry.KINGDOM_KEYS and len(registry.QUESTS) == 17
    assert registry.score_rules()


@pytest.mark.parametrize("name", module_names())
def test_each_module_imports_on_its_own(name):
    """In a fresh interpreter, so an order that only works after another module is loaded fails."""
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-2000:]
