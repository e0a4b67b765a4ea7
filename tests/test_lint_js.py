"""The pages' JavaScript passes eslint (web/eslint.config.js, flat config), and the dealer page
builds its DOM from text only (tests/test_typecheck_js.py runs TypeScript's checker). eslint
comes from npm into web/node_modules (.ci/run: `npm ci --prefix web`); without it the test
skips, except in CI (HANDLOG_REQUIRE_BROWSER=1), where that is a failure."""

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


def test_the_dealer_page_builds_dom_from_text_only() -> None:
    """Escaping by construction on the dealer page: its modules render with lit-html templates
    (dealer/lit.js) or dom.js's text nodes, and none of them sets innerHTML or builds markup
    with the escaping helper, so a name or a message can never become HTML."""
    modules = sorted(DEALER.glob("*.js"))
    assert len(modules) >= 13
    for module in modules:
        text = module.read_text()
        for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "H.esc(", "cardHtml"):
            assert banned not in text, f"{module.name}: {banned}"
