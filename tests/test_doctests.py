"""The worked cases in the docstrings of the rules (and of the log's mathematics) hold.

The examples are read from the .py sources and run in the namespace of the module as it is
imported, so they run the same whether setup.py compiled the module with mypyc (whose functions
doctest's own finder does not see) or not."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "schema")

# The rule functions a reader looks up, each with a worked case: these must keep one.
RULE_EXAMPLES = {
    "handlog.engine.hand_decide": {"legal_actions", "_raise_bounds", "reopening"},
    "handlog.engine.hand_pots": {"pots", "_split"},
    "handlog.engine.hand_push": {"_silent"},
    "handlog.schema.tlog": {"handlog.schema.tlog"},
}


def docstring_tests(path: Path) -> list[doctest.DocTest]:
    """The doctests of every docstring in one source file (module, classes, functions)."""
    name = "handlog." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
    module = importlib.import_module(name)
    parser = doctest.DocTestParser()
    tree = ast.parse(path.read_text())
    found = []
    for node in [tree, *ast.walk(tree)]:
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            continue
        text = ast.get_docstring(node, clean=False)
        if not text or ">>>" not in text:
            continue
        where = name if isinstance(node, ast.Module) else node.name
        lineno = node.body[0].lineno - 1 if node.body else 0
        found.append(parser.get_doctest(text, dict(vars(module)), where, str(path), lineno))
    return found


SOURCES = sorted(path for package in PACKAGES for path in (ROOT / package).glob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_docstring_examples_hold(path: Path) -> None:
    """Every `>>>` example in the module's docstrings gives what it says."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in docstring_tests(path):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("module", sorted(RULE_EXAMPLES))
def test_the_rules_a_reader_looks_up_show_a_worked_case(module: str) -> None:
    """Legal actions, raise bounds, reopening, pots, odd chips and the one-chip rule each have
    an example in their docstring (and so does the log's mathematics)."""
    path = ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")
    shown = {test.name for test in docstring_tests(path) if test.examples}
    assert RULE_EXAMPLES[module] <= shown
