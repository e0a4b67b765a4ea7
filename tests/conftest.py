"""Shared pytest fixtures; each concern keeps its fixtures in its own module, imported here."""

from __future__ import annotations

from conftest_store import (  # noqa: F401  (fixtures are found by name)
    db_url,
    pg_url,
    postgres_server_url,
    sqlite_url,
    store,
)


def compiled_but_stale() -> list[str]:
    """The modules that run compiled (see setup.py) although their source changed since."""
    import ast
    import hashlib
    import importlib
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    setup_py = ast.parse((root / "setup.py").read_text())
    compiled: list[str] = next(
        ast.literal_eval(node.value) for node in setup_py.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED")
    manifest = root / "engine" / "_compiled.json"
    digests: dict[str, str] = json.loads(manifest.read_text()) if manifest.exists() else {}
    stale = []
    for path in compiled:
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        source = root / path
        if str(module.__file__).endswith(".py") or not source.exists():
            continue  # pure Python, or an installed (non-editable) build
        if digests.get(path) != hashlib.sha256(source.read_bytes()).hexdigest():
            stale.append(path)
    return stale


def pytest_configure(config: object) -> None:
    stale = compiled_but_stale()
    if stale:
        import pytest

        pytest.exit(f"{', '.join(stale)} changed since it was compiled: the tests would run the "
                    "old compiled code. Run `.venv/bin/pip install -e .` again (or install with "
                    "HANDLOG_PURE_PYTHON=1 to skip compiling).", returncode=4)
