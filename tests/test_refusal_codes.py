"""A refusal names its rule in one form: a rule identifier a document stands behind (`tda-16`,
the ids engine/words.py RULES knows) or a short code in the same kebab form (`chip-count`),
and either renders to words a person reads (words.render_rule). The sources are scanned for
the rules given as string literals to RuleViolation, to a replay Finding and to an HTTP refusal."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import PROFILES, TDA_RULES
from handlog.engine.words import REFUSAL_TOPICS, RULES, render_rule

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "replay", "recorder")
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Where a call takes its rule: (position, keyword). `finding` is replay/fold.py's helper
# (version, event, rule, ...); `refusal` is recorder/routes/answers.py's (status, rule, ...).
RULE_ARGUMENT: dict[str, tuple[int, str]] = {
    "RuleViolation": (0, "rule"), "Finding": (3, "rule"), "finding": (2, "rule"),
    "Violation": (2, "rule"), "refusal": (1, "rule"),
}


def literal_rules(source: str) -> Iterator[tuple[int, str]]:
    """(line, rule) for every rule given as a string literal in `source`."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name not in RULE_ARGUMENT:
            continue
        position, keyword = RULE_ARGUMENT[name]
        given = [k.value for k in node.keywords if k.arg == keyword]
        argument = node.args[position] if len(node.args) > position else \
            (given[0] if given else None)
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            yield node.lineno, argument.value


def problem(rule: str) -> str:
    """Why `rule` is not in the one form ("" when it is); several are joined by ", "."""
    if ", " in rule:
        return "; ".join(filter(None, (problem(part) for part in rule.split(", "))))
    if not KEBAB.fullmatch(rule):
        return "not lowercase kebab"
    if rule.split("-")[0] in PROFILES:
        return "" if rule in RULES else "a document's rule words.RULES does not know"
    return "" if rule in REFUSAL_TOPICS or rule in RULES else \
        "a code words.REFUSAL_TOPICS has no words for"


def test_every_literal_rule_is_an_id_or_a_code_with_words() -> None:
    """Every rule a refusal or a finding names in the sources is a known id or code."""
    found = [(f"{path.relative_to(ROOT)}:{line}", rule)
             for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))
             for line, rule in literal_rules(path.read_text(encoding="utf-8"))]
    assert len(found) > 200  # the scan finds the refusals (so this checks something)
    assert [(where, rule, problem(rule)) for where, rule in found if problem(rule)] == []


@pytest.mark.parametrize("call", [
    'RuleViolation("TDA 16", "show the cards")',
    'RuleViolation(rule="chip count", message="x")',
    'RuleViolation("tda-999", "no such rule")',
    'RuleViolation("stale_version", "x")',
    'Finding("s", 1, "hand_started", "stacks carry over", "x")',
    'refusal(409, "Stale Version", "x")',
])
def test_a_rule_in_another_form_is_found(call: str) -> None:
    """The scan catches words, an unknown document id, an underscore and capitals."""
    [(_, rule)] = list(literal_rules(call))
    assert problem(rule)


@pytest.mark.parametrize("rule", sorted(REFUSAL_TOPICS))
def test_every_code_renders_to_words(rule: str) -> None:
    """A code's words are what a refusal shows (`rule_words`)."""
    words = RuleViolation(rule, "refused").as_dict()["rule_words"]
    assert words == render_rule(rule) == REFUSAL_TOPICS[rule] and words.strip()


def test_a_rule_renders_to_its_citation() -> None:
    """A refusal under a document's rule shows the citation, not the id."""
    assert RuleViolation("tda-16", "show the cards").as_dict()["rule_words"] == "TDA 16"
    assert str(RuleViolation("chip-count", "no count")) == "no count (chip count)"


def test_every_rule_a_profile_cites_has_words() -> None:
    """The rules refusals take from a profile (Profile.rule) are ids words.RULES knows."""
    cited = set(TDA_RULES.values()) | {rule for profile in PROFILES.values()
                                        for rule in profile.rule_ids.values()}
    assert len(cited) > 10 and sorted(cited - set(RULES)) == []
