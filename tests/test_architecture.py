"""The import direction engine <- schema <- replay <- recorder, checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "schema", "replay", "recorder")

# What each package may not import (top-level module names).
FORBIDDEN: dict[str, set[str]] = {
    "engine": {
        "schema", "replay", "recorder", "migrations",
        "sqlmodel", "sqlalchemy", "alembic", "psycopg", "sqlite3",
        "click", "fastapi", "pydantic", "starlette", "uvicorn", "httpx", "requests", "urllib",
        "time", "datetime", "random", "secrets", "uuid", "os", "socket", "asyncio",
        "threading", "subprocess",
    },
    "schema": {"replay", "recorder"},
    "replay": {"recorder"},
    "recorder": set(),
}


def top_name(module: str) -> str:
    """The package a module belongs to: handlog's own by their folder (`handlog.schema.store`
    -> `schema`), any other by its top-level name."""
    parts = module.split(".")
    return parts[1] if parts[0] == "handlog" and len(parts) > 1 else parts[0]


def imported_modules(source: str) -> set[str]:
    """Package names of every module a source file imports (absolute imports)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(top_name(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(top_name(node.module))
            if node.module == "handlog":
                names.update(alias.name for alias in node.names)
    return names


def violations(package: str, root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / package).rglob("*.py")):
        bad = imported_modules(path.read_text()) & FORBIDDEN[package]
        found.extend(f"{path.relative_to(root)} imports {name}" for name in sorted(bad))
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_import_direction(package: str) -> None:
    """No package imports a package above it, and the engine imports no I/O, clock or random."""
    assert violations(package) == []


def test_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    """The checker itself sees a forbidden import (so the test above can fail)."""
    (tmp_path / "engine").mkdir()
    bad = "import random\nfrom handlog.schema.store import x\n"
    (tmp_path / "engine" / "bad.py").write_text(bad)
    assert violations("engine", tmp_path) == [
        "engine/bad.py imports random",
        "engine/bad.py imports schema",
    ]
