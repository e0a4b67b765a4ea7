"""The pages' test hooks (window.handlogTable, __latencies, __renderMs, the floor's counters...)
ship only behind the test flag (common.js's `testing`, read as H.testing: `?test=1`, or the
localStorage flag the browser tests set). Read in the source: every statement that puts a name
on `window` is guarded by the flag; and in a browser: a page as shipped has none of the names
the source defines, and the flag turns them on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_browser import LAPTOP, STREAM, Site, browser, site  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "recorder" / "static"
# What the pages may use of `window` that is the browser's, not a hook.
BROWSER_API = re.compile(r"window\.(location|matchMedia|addEventListener|scrollTo|"
                         r"isSecureContext|innerWidth|innerHeight)\b")
# A hook: a name of ours put on window, directly, through a cast, or through an alias.
HOOK = re.compile(r"(?:\bwindow\)?|\bhooks|\bw)\.((?:__|handlog)\w+)")
FLAG = "H.testing"


def scripts() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.relative_to(STATIC).parts)


def guarded(lines: list[str], index: int) -> bool:
    """Line `index` names the test flag, or lies in a block whose opening line does."""
    if FLAG in lines[index]:
        return True
    depth = 0
    for line in reversed(lines[:index]):
        depth += line.count("}") - line.count("{")
        if depth < 0:  # this line opens a block around the hit
            if FLAG in line:
                return True
            depth = 0
    return False


def hook_names() -> set[str]:
    return {m.group(1) for p in scripts() for m in HOOK.finditer(p.read_text())}


def test_every_statement_that_touches_window_is_behind_the_test_flag() -> None:
    unguarded = []
    for path in scripts():
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.lstrip().startswith(("//", "*", "/*")):
                continue  # a comment
            code = BROWSER_API.sub("", line)
            if re.search(r"\bwindow\b", code) and not guarded(lines, i):
                unguarded.append(f"{path.relative_to(STATIC)}:{i + 1}: {line.strip()[:80]}")
    assert unguarded == []


def test_the_guard_check_finds_an_unguarded_hook() -> None:
    """The check is live: a hook set outside the flag's block is found, one inside is not."""
    lines = ["if (H.testing) {", "  window.__a = 1;", "}", "window.__b = 2;"]
    assert guarded(lines, 1) and not guarded(lines, 3)
    assert {"__latencies", "__renderMs", "handlogTable", "__floorUpdates",
            "__floorPending", "handlogFloor", "handlogAsOf"} <= hook_names()


PRESENT = "names => names.filter(n => n in window)"


@pytest.mark.browser
def test_no_page_as_shipped_has_a_test_hook(browser: Any, site: Site) -> None:  # noqa: F811
    names = sorted(hook_names())
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    for path, ready in ((f"/dealer/{STREAM}", "[data-pin='join']"),
                        ("/floor", "#director-pin"),
                        (f"/view/{STREAM}", "#ring .seat"),
                        (f"/replayer?table={STREAM}", "body")):
        page.goto(site.base + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("load")
        assert page.evaluate(PRESENT, names) == [], path
    page.goto(f"{site.base}/view/{STREAM}?test=1")  # the flag turns them on
    page.wait_for_selector("#ring .seat")
    assert set(page.evaluate(PRESENT, names)) >= {"handlogTable", "__latencies"}
    page.goto(f"{site.base}/floor?test=1")
    page.wait_for_function("() => 'handlogFloor' in window")
    context.close()
