"""What the pages need to work with no network: the service worker (served at /sw.js, so its
scope is the whole site) with the list of the page files it keeps and their digest, and what
the dealer page runs the rules with while offline: Pyodide (the npm package `pyodide`,
installed into web/node_modules by `.ci/run`, served here at /vendor/pyodide/, never from a
CDN) and the engine package's own .py files as one zip (/vendor/engine.zip), the same engine
the server decides with.

Without Pyodide installed (a machine that ran only the README's first command) the files are
missing: /vendor/pyodide/ answers 404, the service worker does not list them, and the dealer
page says that offline entries are queued unchecked."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

import handlog
from handlog import engine

STATIC = Path(__file__).resolve().parent / "static"
PYODIDE = Path(__file__).resolve().parent.parent / "web" / "node_modules" / "pyodide"
# The Pyodide files a page loads to run pure-Python code with the standard library only.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
ENGINE = Path(engine.__file__).resolve().parent
_TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
          ".zip": "application/zip", ".json": "application/json"}


def pyodide_installed() -> bool:
    return all((PYODIDE / name).is_file() for name in PYODIDE_FILES)


def offline_note() -> str:
    """What `handlog serve` says at start about the tablets offline: nothing when they check
    entries on their own (Pyodide installed), else that they only queue them."""
    if pyodide_installed():
        return ""
    return ("tablets offline: entries are queued as tapped and decided by the server when the "
            "network returns, not checked on the tablet (its rules engine needs Pyodide: "
            "npm ci --prefix web); a tablet still records whole hands offline (the betting, "
            "the board, the shows, the push, the next hand) and says it cannot check them")


SCHEMA = ENGINE.parent / "schema"
# Beside the engine: the codec of its events (standard library only), and the tablet's side:
# the server's view code of a table (offline_view.py, engine imports only) and the module the
# page calls (offline_engine.py, as handlog_offline.py).
CODEC_FILES = ("__init__.py", "codec.py", "errors.py")
RECORDER = Path(__file__).resolve().parent
VIEW_FILES = ("__init__.py", "offline_view.py")
TABLET = RECORDER / "offline_engine.py"


@cache
def engine_zip() -> bytes:
    """The engine package's .py files (`handlog/engine/...`), the event codec
    (`handlog/schema/codec.py`, `handlog/schema/errors.py`), the table's view code
    (`handlog/recorder/offline_view.py`) and
    `handlog_offline.py` (recorder/offline_engine.py), in a zip with the same bytes every
    time."""
    files = [("handlog/__init__.py", Path(handlog.__file__))]
    files += [(f"handlog/engine/{p.relative_to(ENGINE).as_posix()}", p)
              for p in sorted(ENGINE.rglob("*.py"))]
    files += [(f"handlog/schema/{name}", SCHEMA / name) for name in CODEC_FILES]
    files += [(f"handlog/recorder/{name}", RECORDER / name) for name in VIEW_FILES]
    files.append(("handlog_offline.py", TABLET))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def page_files() -> list[str]:
    """The URLs the service worker keeps: every page file, the engine zip, Pyodide's files."""
    urls = [f"/static/{p.relative_to(STATIC).as_posix()}" for p in sorted(STATIC.rglob("*"))
            if p.is_file() and p.name != "sw.js"]
    urls.append("/vendor/engine.zip")
    if pyodide_installed():
        urls += [f"/vendor/pyodide/{name}" for name in PYODIDE_FILES]
    return urls


@cache
def _service_worker() -> bytes:
    urls = page_files()
    digest = hashlib.sha256()
    for url in urls:
        if url.startswith("/static/"):
            file = STATIC / url.removeprefix("/static/")
            digest.update(url.encode() + b"\0" + file.read_bytes())
        elif url.startswith("/vendor/pyodide/"):
            digest.update(url.encode())
    digest.update(engine_zip())
    source = (STATIC / "sw.js").read_text()
    source = source.replace("__HANDLOG_BUILD__", digest.hexdigest()[:16])
    source = source.replace("'__HANDLOG_ASSETS__'", json.dumps(json.dumps(urls)))
    return source.encode()


router = APIRouter(include_in_schema=False)
"""The offline tablet's files (not in the OpenAPI document)."""


@router.get("/sw.js")
def service_worker() -> Response:
    return Response(_service_worker(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/vendor/engine.zip")
def engine_package() -> Response:
    return Response(engine_zip(), media_type="application/zip",
                    headers={"Cache-Control": "no-cache"})


@router.get("/vendor/pyodide/{name}")
def pyodide_file(name: str) -> FileResponse:
    if name not in PYODIDE_FILES or not (PYODIDE / name).is_file():
        raise StarletteHTTPException(404, f"{name}: Pyodide is not installed here "
                                          "(npm ci --prefix web)" if name in PYODIDE_FILES
                                     else f"no file {name}")
    return FileResponse(PYODIDE / name, media_type=_TYPES[Path(name).suffix],
                        headers={"Cache-Control": "no-cache"})
