"""The pages' JavaScript passes eslint (web/eslint.config.js, flat config), and every page
builds its DOM from text only (tests/test_typecheck_js.py runs TypeScript's checker). eslint
comes from npm into web/node_modules (.ci/run: `npm ci --prefix web`); without it the test
skips, except in CI (HANDLOG_REQUIRE_BROWSER=1), where that is a failure."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ESLINT = ROOT / "web" / "node_modules" / ".bin" / "eslint"
STATIC = ROOT / "recorder" / "static"


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


def page_modules() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.relative_to(STATIC).parts)


def test_every_page_builds_dom_from_text_only() -> None:
    """Escaping by construction on every page (floor, replayer, as-of, join, the dealer's and
    viewer's table): the modules render with lit-html templates (lit.js) or dom.js's text
    nodes, and none of them sets innerHTML or builds markup with an escaping helper, so a
    name or a message can never become HTML."""
    modules = page_modules()
    assert len(modules) >= 28
    assert {"floor/main.js", "replayer.js", "asof.js", "join.js", "dealer/main.js"} <= {
        p.relative_to(STATIC).as_posix() for p in modules}
    for module in modules:
        text = module.read_text()
        for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "H.esc(", "cardHtml",
                       "Handlog"):
            assert banned not in text, f"{module.relative_to(STATIC)}: {banned}"


def test_no_page_loads_a_classic_script() -> None:
    """Every page is ES modules: its one script tag is `type="module"`, and no page shares a
    global namespace object with another (common.js is imported, not loaded beside)."""
    pages = sorted(STATIC.glob("*.html"))
    assert len(pages) >= 5
    for page in pages:
        tags = re.findall(r"<script\b[^>]*>", page.read_text())
        assert tags and all('type="module"' in tag for tag in tags), (page.name, tags)
