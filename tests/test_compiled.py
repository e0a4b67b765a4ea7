"""The engine compiled by mypyc (setup.py) and its Python sources are the same engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import handlog.engine.hand
import handlog.replay.phh_verify

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "phh"
SHARED_PHH = ROOT.parent / "shared" / "data" / "phh"


def _verdicts(*command: str) -> dict[str, Any]:
    done = subprocess.run([*command, "phh", "verify", *_paths(), "--json"], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    report.pop("seconds")
    return report


def _paths() -> list[str]:
    # The fixtures (good, bad and malformed files) and, when the shared data is there, its
    # 10,000 real hands.
    return [str(FIXTURES)] + ([str(SHARED_PHH)] if SHARED_PHH.is_dir() else [])


def test_compiled_and_python_sources_give_the_same_verdicts() -> None:
    """`handlog phh verify` gives the same report, hand by hand, run from the installed build and
    from the Python sources of the compiled modules (benchmarks/pure_python.py)."""
    installed = _verdicts(sys.executable, "-m", "handlog.recorder.cli")
    sources = _verdicts(sys.executable, str(ROOT / "benchmarks" / "pure_python.py"))
    assert installed["hands"] >= 20
    assert installed == sources


def test_the_engine_is_compiled_where_ci_asks_for_it() -> None:
    """CI (HANDLOG_REQUIRE_COMPILED=1) installs on a machine with a C compiler: the replay's hot
    modules must then run compiled, or the speed the benchmark measures is not what ships."""
    if not os.environ.get("HANDLOG_REQUIRE_COMPILED"):
        pytest.skip("HANDLOG_REQUIRE_COMPILED is not set (CI sets it)")
    for module in (handlog.engine.hand, handlog.replay.phh_verify):
        assert not str(module.__file__).endswith(".py"), (
            f"{module.__name__} runs from {module.__file__}: setup.py did not compile it")
