"""The pages' JavaScript passes TypeScript's checker with no error: every page module starts
with `// @ts-check`, and `tsc -p web/jsconfig.json` (allowJs, noEmit; lit-html's own types for
the templates) checks them all. TypeScript comes from npm into web/node_modules (.ci/run:
`npm ci --prefix web`); without it the test skips, except in CI (HANDLOG_REQUIRE_BROWSER=1),
where that is a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TSC = ROOT / "web" / "node_modules" / ".bin" / "tsc"
STATIC = ROOT / "recorder" / "static"


def require_tsc() -> None:
    if TSC.exists() and shutil.which("node"):
        return
    reason = "typescript is not installed (npm ci --prefix web --no-audit --no-fund)"
    if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def page_modules() -> list[Path]:
    """Every script a page loads (the service worker, a worker's script, is not one)."""
    return sorted(p for p in STATIC.rglob("*.js")
                  if p.name != "sw.js" and "vendor" not in p.relative_to(STATIC).parts)


def test_every_page_module_starts_with_ts_check() -> None:
    modules = page_modules()
    assert len(modules) >= 28
    unchecked = [p.relative_to(STATIC).as_posix() for p in modules
                 if not p.read_text().startswith("// @ts-check\n")]
    assert unchecked == []


def test_the_pages_javascript_type_checks_with_no_error() -> None:
    require_tsc()
    done = subprocess.run([str(TSC), "-p", "web/jsconfig.json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "error" not in done.stdout, done.stdout + done.stderr


def test_tsc_finds_what_it_is_there_for(tmp_path: Path) -> None:
    """The configuration is live: a string where a number is declared, in a module that
    imports lit-html the way the pages do, is an error; the lit-html types resolve."""
    require_tsc()
    probe = tmp_path / "probe.js"
    probe.write_text('// @ts-check\nimport { html } from "lit-html";\n'
                     '/** @type {number} */\nexport const n = html`<b>${1}</b>`.strings.length;\n'
                     '/** @type {number} */\nexport const wrong = "text";\n')
    config = tmp_path / "jsconfig.json"
    config.write_text(json.dumps({"extends": str(ROOT / "web" / "jsconfig.json"),
                                  "include": [str(probe)], "exclude": []}))
    done = subprocess.run([str(TSC), "-p", str(config)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    assert len(errors) == 1 and "probe.js(6," in errors[0] and "TS2322" in errors[0], errors
