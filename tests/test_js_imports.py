"""No import circle among the pages' ES modules (recorder/static/**/*.js): read from their
`import ... from "..."` and `export ... from "..."` statements, each module can be read from
its imports down. A module low in the dealer page reaches the page's redraw through
dealer/hooks.js instead of importing render.js back."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "recorder" / "static"
# `import x from "./a.js"`, `import "./a.js"`, `export { x } from "./a.js"` (across lines).
FROM = re.compile(r"^\s*(?:import|export)\b[^;]*?[\s}*]from\s*[\"']([^\"']+)[\"']"
                  r"|^\s*import\s*[\"']([^\"']+)[\"']", re.MULTILINE | re.DOTALL)


def modules(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.js") if "vendor" not in p.relative_to(root).parts)


def imports(module: Path) -> list[Path]:
    """The modules `module` imports statically (relative specifiers only: the vendored
    lit-html is a leaf)."""
    found = []
    for match in FROM.finditer(module.read_text()):
        spec = match.group(1) or match.group(2)
        if spec.startswith("."):
            found.append((module.parent / spec).resolve())
    return found


def circles(root: Path) -> list[list[str]]:
    """Every import circle among the modules under `root`, each as the names along it."""
    graph = {m.resolve(): imports(m) for m in modules(root)}
    found: list[list[str]] = []
    state: dict[Path, str] = {}  # "open" while on the path, "done" after

    def visit(node: Path, path: list[Path]) -> None:
        state[node] = "open"
        for target in graph.get(node, []):
            if state.get(target) == "open":
                loop = path[path.index(target):] + [target]
                found.append([p.relative_to(root.resolve()).as_posix() for p in loop])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])
    return found


def test_the_page_modules_import_one_another_with_no_circle() -> None:
    assert len(modules(STATIC)) >= 20
    assert circles(STATIC) == []


def test_the_import_reader_sees_every_form() -> None:
    """Named, namespace, bare and re-export imports, over several lines, are all read."""
    text = ('import { a,\n  b } from "./a.js";\nimport * as H from "../common.js";\n'
            'import "./side.js";\nexport { c } from "./c.js";\nconst x = "import from";\n')
    specs = [m.group(1) or m.group(2) for m in FROM.finditer(text)]
    assert specs == ["./a.js", "../common.js", "./side.js", "./c.js"]


def test_a_probe_circle_is_found(tmp_path: Path) -> None:
    """The check is live: a.js -> b.js -> c.js -> a.js is reported, a leaf import is not."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.js").write_text('import { b } from "./sub/b.js";\nimport "./leaf.js";\n')
    (tmp_path / "sub" / "b.js").write_text('import { c } from "../c.js";\n')
    (tmp_path / "c.js").write_text('import { a } from "./a.js";\nexport const c = 1;\n')
    (tmp_path / "leaf.js").write_text("export const leaf = 1;\n")
    assert circles(tmp_path) == [["a.js", "sub/b.js", "c.js", "a.js"]]
