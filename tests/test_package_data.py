"""A wheel (`pip install .`, not only the editable install) carries every page asset: the
dealer modules, the vendored libraries and the service worker live in folders under
recorder/static, and setuptools' package-data takes only the files its patterns match."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_static_file_is_in_the_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["handlog.recorder"]
    package = ROOT / "recorder"
    shipped = {path for pattern in patterns for path in package.glob(pattern) if path.is_file()}
    assets = {path for path in (package / "static").rglob("*") if path.is_file()}
    assert any(p.parent.name == "dealer" for p in assets)  # the folders the patterns must reach
    missing = sorted(str(p.relative_to(package)) for p in assets - shipped)
    assert not missing, f"not in [tool.setuptools.package-data] handlog.recorder: {missing}"
