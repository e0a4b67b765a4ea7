"""The pages' JavaScript passes eslint (web/eslint.config.js, flat config) and every dealer
module is type-checked in the editor (`// @ts-check` on its first line). eslint comes from npm
into web/node_modules (.ci/run: `npm ci --prefix web`); without it the test skips, except in CI
(HANDLOG_REQUIRE_BROWSER=1), where that is a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ESLINT = ROOT / "web" / "node_modules" / ".bin" / "eslint"
DEALER = ROOT / "recorder" / "static" / "dealer"


def require_eslint() -> None:
    if ESLINT.exists() and shutil.which("node"):
        return
    reason = "eslint is not installed (npm ci --prefix web --no-audit --no-fund)"
    if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def test_the_pages_javascript_passes_eslint() -> None:
    require_eslint()
    done = subprocess.run([str(ESLINT), "--config", "web/eslint.config.js", "--max-warnings", "0",
                           "recorder/static", "web/eslint.config.js"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_eslint_finds_what_it_is_there_for() -> None:
    """The configuration is live: an undefined name in a dealer module is an error."""
    require_eslint()
    bad = "// @ts-check\nexport function f() {\n  return notDefinedAnywhere;\n}\n"
    done = subprocess.run([str(ESLINT), "--config", "web/eslint.config.js", "--stdin",
                           "--stdin-filename", "recorder/static/dealer/probe.js"],
                          input=bad, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "no-undef" in done.stdout, done.stdout + done.stderr


def test_every_dealer_module_is_type_checked() -> None:
    modules = sorted(DEALER.glob("*.js"))
    assert len(modules) >= 8
    for module in modules:
        assert module.read_text().startswith("// @ts-check\n"), module.name


def test_the_outbox_sign_in_and_wiring_build_dom_from_text_only() -> None:
    """Escaping by construction where it is done (dealer/dom.js: text nodes and attributes,
    never markup from strings): these modules never set innerHTML."""
    for name in ("main.js", "api.js", "outbox.js", "signin.js", "engine.js", "store.js",
                 "dom.js"):
        assert "innerHTML" not in (DEALER / name).read_text(), name
