"""Build step: compile the engine's hot modules to C with mypyc (part of mypy), when possible.

The modules stay ordinary, type-checked Python; mypyc turns them into extension modules that
replay hands about 1.5-2x faster. Compiling needs a C compiler and the Python headers: where
either is missing, or HANDLOG_PURE_PYTHON=1 is set, handlog installs as pure Python and behaves
the same (only slower). Everything else lives in pyproject.toml.

An editable install (`pip install -e .`) puts the compiled modules next to their sources, where
Python prefers them: after editing a compiled module, install again (tests/conftest.py stops the
test run with that advice when a compiled module no longer matches its source).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
# The modules a replay spends its time in: the engine's hand (engine/hand*.py, with cards and
# the evaluator), the PHH reader and replayer. Nothing may monkeypatch them: mypyc binds the calls
# between them when it compiles. (tests/conftest.py and benchmarks/pure_python.py read this.)
# The paths go through handlog/ (its links to the top-level folders), so mypyc names the
# modules handlog.engine.hand, ... as they are imported.
COMPILED = [
    "handlog/engine/cards.py", "handlog/engine/evaluator.py", "handlog/engine/hand.py",
    "handlog/engine/hand_apply.py", "handlog/engine/hand_decide.py", "handlog/engine/hand_memo.py",
    "handlog/engine/hand_pots.py", "handlog/engine/hand_start.py", "handlog/engine/hand_state.py",
    "handlog/replay/phh.py", "handlog/replay/phh_verify.py",
]
MANIFEST = ROOT / "engine" / "_compiled.json"  # the sources' digests, for the staleness check


def can_compile() -> str | None:
    """None when mypyc can build here, else why not."""
    if os.environ.get("HANDLOG_PURE_PYTHON"):
        return "HANDLOG_PURE_PYTHON is set"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "the Python headers (Python.h) are not installed"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not importable in the build environment"
    return None


def extensions() -> list[object]:
    if len(sys.argv) > 1 and sys.argv[1] in ("egg_info", "dist_info", "sdist"):
        return []  # metadata only: pip asks for it before the build; compiling waits for that
    MANIFEST.unlink(missing_ok=True)
    reason = can_compile()
    if reason is not None:
        print(f"handlog: installing the engine as pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    digests = {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED}
    MANIFEST.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=extensions())
