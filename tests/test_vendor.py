"""lit-html, which the dealer page renders with, ships inside the package: npm's built module
(`lit-html/lit-html.js`) and its licence vendored unchanged in recorder/static/vendor/lit-html/,
served by handlog and kept by the service worker, so the pages work after `pip install -e .`
on a machine without npm. The copy is byte for byte the npm package's, at the version
web/package.json pins (checked against web/node_modules, which `.ci/run` installs; the check
skips without it, except in CI, HANDLOG_REQUIRE_BROWSER=1, where that is a failure)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from web_support import Client, make_app, make_recorder, open_table

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "recorder" / "static" / "vendor" / "lit-html"
NPM = ROOT / "web" / "node_modules" / "lit-html"
FILES = ("lit-html.js", "LICENSE")


def test_the_vendored_lit_html_is_the_npm_package_file_unchanged() -> None:
    if not (NPM / "package.json").is_file():
        reason = "web/node_modules/lit-html is not installed (npm ci --prefix web)"
        if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
            pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    pinned = json.loads((ROOT / "web" / "package.json").read_text())["dependencies"]["lit-html"]
    assert json.loads((NPM / "package.json").read_text())["version"] == pinned
    assert sorted(p.name for p in VENDORED.iterdir()) == sorted(FILES)
    for name in FILES:
        assert (VENDORED / name).read_bytes() == (NPM / name).read_bytes(), (
            f"{name} differs from web/node_modules/lit-html/{name}: copy it again "
            f"(cp web/node_modules/lit-html/{name} recorder/static/vendor/lit-html/)")


def test_lit_html_is_served_and_kept_for_offline_without_npm(tmp_path: Path) -> None:
    """Served from the package (no web/node_modules needed) and in the service worker's list."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    app, auth = make_app(recorder)
    with Client(app, auth) as c:
        answer = c.http.get("/static/vendor/lit-html/lit-html.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.content == (VENDORED / "lit-html.js").read_bytes()
        worker = c.http.get("/sw.js").text
        start = worker.index("JSON.parse(") + len("JSON.parse(")
        assets = json.loads(json.loads(worker[start:worker.index(");", start)]))
        assert "/static/vendor/lit-html/lit-html.js" in assets
    recorder.store.close()
