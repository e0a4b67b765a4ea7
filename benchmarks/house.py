"""The house in numbers, read from the source: product lines per package, the largest
functions, the places that append to the store, and the Python import circles.

    python3 benchmarks/house.py            # this checkout
    python3 benchmarks/house.py --root DIR # another (an older commit's worktree, to compare)

Standard library only, and nothing is imported from the checkout: it reads the files as text.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

PACKAGES = ("engine", "schema", "replay", "recorder", "migrations")
APPENDS = re.compile(r"\bstore\.append(_many)?\(|\.append_many\(")


def product_files(root: Path, package: str) -> list[Path]:
    return sorted(p for p in (root / package).rglob("*") if p.is_file()
                  and p.suffix in (".py", ".js", ".html", ".css")
                  and "vendor" not in p.parts and "node_modules" not in p.parts)


def functions(root: Path) -> list[tuple[int, str]]:
    """(lines, place) of every function and method of the Python packages."""
    found = []
    for package in PACKAGES:
        for path in product_files(root, package):
            if path.suffix != ".py":
                continue
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    found.append((lines, f"{path.relative_to(root)}:{node.lineno} {node.name}"))
    return sorted(found, reverse=True)


def module_name(root: Path, path: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def imports(root: Path) -> dict[str, set[str]]:
    """Module -> the product modules it imports anywhere in it (a deferred import inside a
    function still ties the two modules); handlog.x and the old top-level x alike."""
    modules = {module_name(root, p): p for package in PACKAGES[:4]
               for p in product_files(root, package) if p.suffix == ".py"}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            named: list[str] = []
            if isinstance(node, ast.Import):
                named = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                named = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for target in named:
                target = target.removeprefix("handlog.")
                if target in modules and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--largest", type=int, default=10)
    root = parser.parse_args().root.resolve()
    largest = parser.parse_args().largest
    print(f"house: {root}")
    total = 0
    for package in PACKAGES:
        files = product_files(root, package)
        py = sum(len(p.read_text().splitlines()) for p in files if p.suffix == ".py")
        other = sum(len(p.read_text().splitlines()) for p in files if p.suffix != ".py")
        total += py + other
        print(f"  {package:<11} {py:>6} Python lines, {other:>5} page lines, {len(files)} files")
    print(f"  {'all':<11} {total:>6} lines")
    print(f"largest functions ({largest}):")
    for lines, place in functions(root)[:largest]:
        print(f"  {lines:>4}  {place}")
    print("calls that append to the store (product code):")
    for package in PACKAGES[1:]:
        for path in product_files(root, package):
            if path.suffix != ".py" or path.name == "store.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if APPENDS.search(line) and not line.lstrip().startswith(("#", '"')):
                    print(f"  {path.relative_to(root)}:{number}: {line.strip()}")
    groups = circles(imports(root))
    print(f"Python import circles: {len(groups)}")
    for group in groups:
        print("  " + " <-> ".join(group))


if __name__ == "__main__":
    main()
