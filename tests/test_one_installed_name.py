"""handlog installs one import name, `handlog`: the wheel holds nothing else at its top, so it
installs beside PyPI's `schema` (or `engine`, `replay`...) and both import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy: a build writes into its source folder (build/, the compiled modules'
    # manifest), and this checkout's editable install must stay as it is.
    source = out / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "node_modules", "build", "*.so", "*.egg-info", "__pycache__",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "test-artifacts"))
    # Pure Python: the wheel's layout is what this checks, not the compiled engine.
    env = os.environ | {"HANDLOG_PURE_PYTHON": "1"}
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, source, env=env)
    (built,) = out.glob("handlog-*.whl")
    return built


def test_the_wheel_holds_only_the_handlog_package(wheel: Path) -> None:
    """Every file of the wheel is under handlog/ (or its metadata): no top-level `schema`."""
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"handlog"}
    names = set(zipfile.ZipFile(wheel).namelist())
    for module in ("engine/hand.py", "schema/store.py", "replay/fold.py", "recorder/cli.py",
                   "migrations/env.py", "recorder/static/dealer/main.js"):
        assert f"handlog/{module}" in names


@pytest.mark.slow
def test_handlog_installs_beside_the_registrys_schema_package(wheel: Path,
                                                               tmp_path: Path) -> None:
    """`pip install handlog schema`: both import, each its own."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # handlog's own dependencies are not what this checks: its wheel alone, and the codec and
    # the engine (standard library only) imported from it.
    run(python, "-m", "pip", "install", "-q", "--no-deps", wheel, "schema")
    out = run(python, "-c", "import schema, handlog.schema.codec, handlog.engine.hand; "
              "print(schema.Schema.__module__, handlog.schema.codec.canonical_json({'a': 1}))",
              cwd=tmp_path)
    assert out.split() == ["schema", '{"a":1}']


def test_nothing_imports_a_folder_by_its_bare_name() -> None:
    """Every import of handlog's own code says `handlog.`: from the repository's top a bare
    `engine` or `schema` would still import (the folders are packages), and would load a
    second copy of every module it touches."""
    import ast

    bare = {"engine", "schema", "replay", "recorder", "migrations"}
    found = []
    for folder in ("engine", "schema", "replay", "recorder", "migrations", "tests",
                   "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and not node.level
                         and node.module else [])
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                          if name.split(".")[0] in bare]
    assert found == []
