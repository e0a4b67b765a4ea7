"""Shared pytest fixtures; each concern keeps its fixtures in its own module, imported here."""

from __future__ import annotations

import os

from conftest_store import (  # noqa: F401  (fixtures are found by name)
    db_url,
    pg_url,
    postgres_server_url,
    sqlite_url,
    store,
)
from hypothesis import settings

# Hypothesis profiles, as attrs' tests/conftest.py has them; HYPOTHESIS_PROFILE picks one (.ci/run
# sets "ci"). Both keep each test's own example count. No deadline in either: the time of one
# example on a machine shared by several test runs says nothing about the code. "ci" is
# derandomized, so a red build stays red on a re-run and a green one does not turn red by luck,
# and prints the blob that reproduces a failure; "dev" explores new examples on every run and
# keeps failing ones in .hypothesis/ to try first next time.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


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
