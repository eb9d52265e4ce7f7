"""The layers the architecture page promises, kept by the imports: the
import-linter contracts of pyproject.toml (``lint-imports``) hold, no module
imports another in a cycle (function-level imports count), and no module
imports inside a function to dodge one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


ROOT = Path(__file__).resolve().parents[2]
APPS = ["games", "clubs", "accounts", "quickplay", "ratings", "notifications", "moderation", "config", "hooks"]
SKIP = {"migrations", "management", "__pycache__"}


def test_the_layer_contracts_hold():
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys; from importlinter.cli import lint_imports_command; lint_imports_command(['--no-cache'])"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if SKIP & set(path.relative_to(ROOT).parts):
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports, anywhere in its body."""
    graph = {m: set() for m in mods}
    for mod, path in mods.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                names = [f"{base}.{a.name}" for a in node.names] + ([base] if node.module else [])
            for name in names:
                while name and name not in mods:
                    name = name.rpartition(".")[0]
                if name and name != mod:
                    graph[mod].add(name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles(_graph(_modules())) == []


def test_no_import_cycles_between_apps():
    """The same graph with one node per top-level package: no two apps (or an
    app and ``config``) import each other, even through different modules."""
    apps: dict[str, set[str]] = {}
    for mod, deps in _graph(_modules()).items():
        top = mod.split(".")[0]
        apps.setdefault(top, set()).update(d.split(".")[0] for d in deps if d.split(".")[0] != top)
    assert _cycles(apps) == []


def test_a_cycle_is_found_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
