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
        "click", "fastapi", "starlette", "uvicorn", "httpx", "requests", "urllib",
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


# --- the recorder decides no command; one call appends --------------------------------------

COMMAND_MODULES = ("handlog.engine.table_commands", "handlog.engine.commands")


def command_decisions(source: str) -> list[str]:
    """`isinstance` tests against a command class of the engine (imported by name, or through
    its module), outside an `assert` (which only narrows a type the code already knows)."""
    tree = ast.parse(source)
    classes: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in COMMAND_MODULES:
            classes.update(alias.asname or alias.name for alias in node.names
                           if alias.name[:1].isupper())
        elif isinstance(node, ast.ImportFrom) and node.module == "handlog.engine":
            modules.update(alias.asname or alias.name for alias in node.names
                           if f"handlog.engine.{alias.name}" in COMMAND_MODULES)
    narrowed = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert)
                for n in ast.walk(a.test)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance" and len(node.args) == 2) or id(node) in narrowed:
            continue
        if any(isinstance(part, ast.Name) and part.id in classes or (
                isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name)
                and part.value.id in modules) for part in ast.walk(node.args[1])):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_recorder_decides_no_command() -> None:
    """No module of recorder/ tests a command's class to decide it: the engine decides every
    table command, the read side every correction (replay/decide.py)."""
    found = {path.name: bad for path in sorted((ROOT / "recorder").rglob("*.py"))
             if (bad := command_decisions(path.read_text()))}
    assert found == {}


def test_the_command_check_sees_a_decision() -> None:
    source = ("from handlog.engine.table_commands import SeatPlayer, StartHand\n"
              "from handlog.engine import commands as hc\n"
              "def f(c):\n    assert isinstance(c, StartHand)\n"
              "    if isinstance(c, SeatPlayer | hc.Fold):\n        return 1\n")
    assert command_decisions(source) == ["line 5: isinstance(c, SeatPlayer | hc.Fold)"]


def appends(source: str) -> list[int]:
    """Lines calling a store's append or append_many (`store.append(...)`,
    `self.store.append_many(...)`)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "append_many"):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "store":
                lines.append(node.lineno)
    return lines


def test_one_call_appends_to_the_store() -> None:
    """Every change reaches the log through one call: Recorder._write's (the store's own
    append_many handing a single stream to its append is the store's inside)."""
    found = [f"{path.relative_to(ROOT)}:{line}"
             for package in (*PACKAGES, "migrations")
             for path in sorted((ROOT / package).rglob("*.py"))
             for line in appends(path.read_text())]
    assert len(found) == 1 and found[0].startswith("recorder/service.py:"), found
