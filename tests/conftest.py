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
    import hashlib
    import importlib
    import json
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.append(str(root / "benchmarks"))
    from pure_python import compiled_modules  # setup.py's COMPILED list

    manifest = root / "engine" / "_compiled.json"
    digests: dict[str, str] = json.loads(manifest.read_text()) if manifest.exists() else {}
    stale = []
    for name, source in compiled_modules().items():
        module = importlib.import_module(name)
        if str(module.__file__).endswith(".py") or not source.exists():
            continue  # pure Python, or an installed (non-editable) build
        path = source.relative_to(root).as_posix()
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
