"""docs/rules.md names real tests and real parameters, so it cannot go stale silently."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from handlog.engine.profiles import parameter_names

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
REFERENCE = re.compile(r"\b(tests/[\w/]+\.py)::(\w+)")
PENDING = re.compile(r"\b(tests/[\w/]+\.py) \(pending\)")


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


@cache
def defined_tests(path: str) -> frozenset[str]:
    """Names of the test functions a test file defines (module level or in a class)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test")
    )


def test_every_referenced_test_exists() -> None:
    """Each `tests/file.py::test_name` in docs/rules.md names an existing file and function."""
    references = REFERENCE.findall(doc_text())
    assert len(references) > 100, "the rules page should cite its tests"
    missing = []
    for path, name in sorted(set(references)):
        if not (ROOT / path).is_file():
            missing.append(f"{path} (no such file)")
        elif name not in defined_tests(path):
            missing.append(f"{path}::{name}")
    assert not missing, "docs/rules.md cites tests that do not exist: " + ", ".join(missing)


def test_pending_references_are_to_files_not_yet_written() -> None:
    """A '(pending)' test file must not exist yet; once it does, the page must name its tests."""
    written = sorted({path for path in PENDING.findall(doc_text()) if (ROOT / path).is_file()})
    assert not written, (
        f"{', '.join(written)} now exists: replace the '(pending)' references in docs/rules.md "
        "with the names of its tests"
    )


def test_every_golden_rule_test_is_on_the_page() -> None:
    """Every golden test of tests/test_rules_seeds.py is cited somewhere on the rules page."""
    cited = {name for path, name in REFERENCE.findall(doc_text())
             if path == "tests/test_rules_seeds.py"}
    uncited = sorted(defined_tests("tests/test_rules_seeds.py") - cited)
    assert not uncited, "not cited in docs/rules.md: " + ", ".join(uncited)


def test_every_profile_parameter_is_on_the_page() -> None:
    """Each parameter of engine/profiles.py is mentioned (in backquotes) on the rules page."""
    text = doc_text()
    absent = [name for name in parameter_names() if f"`{name}`" not in text]
    assert not absent, "parameters missing from docs/rules.md: " + ", ".join(absent)


def test_every_seed_document_has_its_section() -> None:
    """The page has a section for each of the four seed documents and one for the TDA."""
    text = doc_text()
    for document in ("bse-tournament-rules.txt", "octobermuck-rules.txt",
                     "event-chairperson-rules.txt", "league-self-dealt-rules.txt"):
        assert f"(`{document}`" in text, document
    assert "## The TDA 2024 rules the engine meets most" in text
