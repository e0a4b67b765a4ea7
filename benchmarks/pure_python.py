"""Run handlog with the compiled modules' Python sources instead of their compiled builds.

setup.py compiles the engine's hot modules with mypyc when it can; this runs the very same
sources as plain Python, to compare the two (benchmarks/replay_vs_pokerkit.py --pure) or to
check that they give the same answers (tests/test_compiled.py):

    .venv/bin/python benchmarks/pure_python.py phh verify ../shared/data/phh --json

Every argument goes to the `handlog` command line.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules() -> dict[str, Path]:
    """The modules setup.py compiles (its COMPILED list): name -> source file."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    paths: list[str] = next(
        ast.literal_eval(node.value) for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED")
    return {path.removesuffix(".py").replace("/", "."): ROOT / path for path in paths}


class _SourcesFirst(importlib.abc.MetaPathFinder):
    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def prefer_sources() -> None:
    """From now on, import the compiled modules from their .py files (call before importing
    any of them)."""
    sources = compiled_modules()
    loaded = [name for name in sources if name in sys.modules]
    if loaded:
        raise RuntimeError(f"already imported: {', '.join(loaded)}")
    sys.meta_path.insert(0, _SourcesFirst(sources))


def engine_build() -> str:
    """How the engine runs in this process: 'compiled' or 'pure Python'."""
    import handlog.engine.hand

    return "pure Python" if str(handlog.engine.hand.__file__).endswith(".py") else "compiled"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    prefer_sources()
    from handlog.recorder.cli import cli

    cli(sys.argv[1:], prog_name="handlog")
