"""The import direction engine <- schema <- replay <- recorder, checked on the source."""

from __future__ import annotations

import ast
import re
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
    "schema": {"replay", "recorder", "migrations"},
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


def module_name(path: Path, root: Path) -> str:
    """`engine/hand.py` -> `handlog.engine.hand` (a package's `__init__.py` -> the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["handlog", *parts])


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the product modules it imports, anywhere in its source (a deferred import
    inside a function still ties the two modules together)."""
    files = {module_name(path, root): path for package in PACKAGES
             for path in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {target for target in targets if target in files and target != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_import_circle() -> None:
    """No two product modules import each other, directly or through others."""
    assert import_circles(import_graph()) == []


def test_circle_finder_sees_a_circle(tmp_path: Path) -> None:
    """The finder sees a circle of three modules, one import deferred into a function."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "engine" / "a.py").write_text("from handlog.engine.b import x\n")
    (tmp_path / "engine" / "b.py").write_text("from handlog.engine import c\n")
    (tmp_path / "engine" / "c.py").write_text("def f():\n    import handlog.engine.a\n")
    (tmp_path / "schema" / "d.py").write_text("from handlog.engine.a import y\n")
    assert import_circles(import_graph(tmp_path)) == [
        ["handlog.engine.a", "handlog.engine.b", "handlog.engine.c"]]


def test_the_log_mathematics_stands_alone() -> None:
    """schema/tlog.py (RFC 9162 hashing and proofs) imports the standard library only, so an
    auditor can copy the one file into their own checker."""
    import sys

    source = (ROOT / "schema" / "tlog.py").read_text()
    # Ours would show as their folder's name (`schema`), which is no standard module.
    assert imported_modules(source) - {"__future__"} <= set(sys.stdlib_module_names)


CREATE_APP_LINES = 80


def test_the_app_factory_only_wires_and_every_route_states_its_answer(tmp_path: Path) -> None:
    """create_app is wiring (at most 80 lines); every JSON route declares its response model
    (no bare dict where the shape is known) and a security scheme when it needs a session;
    the rest are files or pages (left out of the document, or documented by their media
    types with a security scheme: the exports and the report) or event streams (documented
    as text/event-stream)."""
    import inspect

    from fastapi.responses import Response, StreamingResponse
    from fastapi.routing import APIRoute
    from web_support import make_app, make_recorder

    from handlog.recorder.api import create_app
    from handlog.recorder.api_spec import app_routes

    assert len(inspect.getsource(create_app).splitlines()) <= CREATE_APP_LINES
    recorder = make_recorder(tmp_path)
    app, _auth = make_app(recorder)
    routes = [r for r in app_routes(app) if isinstance(r, APIRoute)]
    assert len(routes) >= 30
    document = app.openapi()
    assert set(document["components"]["securitySchemes"]) == {"session", "csrf"}
    for route in routes:
        if not route.include_in_schema:
            continue
        if route.response_class is StreamingResponse:
            assert "text/event-stream" in route.responses[200]["content"], route.path
            continue
        if route.response_class is Response:  # a file (an export, the report): typed by media
            operation = document["paths"][route.path_format]["get"]
            assert operation["responses"]["200"]["content"], route.path
            assert operation.get("security"), route.path
            continue
        assert route.response_model is not None, route.path
        assert getattr(route.response_model, "__origin__", None) is not dict, route.path
        for method in route.methods:
            operation = document["paths"][route.path_format][method.lower()]
            for status, answer in operation["responses"].items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema")
                assert schema, (route.path, method, status)
            if route.path.startswith("/api/") and route.path != "/api/session":
                assert operation.get("security"), (route.path, method)
    recorder.store.close()


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


# --- the profile is read by the engine only -------------------------------------------------

def profile_reads(source: str, parameters: set[str]) -> list[str]:
    """Attribute reads of a house-rule parameter (`x.deals_allowed`) in a source file (a
    method called by the same name, `tournaments.color_up(...)`, is no read)."""
    tree = ast.parse(source)
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    return [f"line {node.lineno}: .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in parameters
            and id(node) not in called]


def test_no_recorder_module_reads_a_profile_parameter() -> None:
    """The engine reads every house-rule parameter; the recorder asks it (deal_open,
    action_clock...). `rules show` lists them, which is its whole job."""
    import dataclasses

    from handlog.engine.profiles import Profile

    parameters = {f.name for f in dataclasses.fields(Profile)} - {"name", "title", "source"}
    found = {str(path.relative_to(ROOT)): reads
             for path in sorted((ROOT / "recorder").rglob("*.py"))
             if path.name != "cli_rules.py"
             and (reads := profile_reads(path.read_text(), parameters))}
    assert found == {}
    assert profile_reads("if get_profile(p).deals_allowed:\n    pass\n", parameters)


def test_one_cache_folds_the_tournament() -> None:
    """One cache of a tournament stream: only recorder/tournament_service.py (Tournaments)
    folds and extends a tournament's state on the write side and for the floor (its followers,
    the floor's read model, are fed from it); `table show --at` folds a prefix for one answer,
    kept nowhere."""
    folds = re.compile(r"\b(fold_tournament|apply_tournament)\(")
    found = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "recorder").rglob("*.py")
                   if folds.search(path.read_text()))
    assert found == ["recorder/cli_table.py", "recorder/tournament_service.py"]
