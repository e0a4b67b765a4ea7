"""The one error the engine raises: a rule violation that names the rule and the legal options."""

from __future__ import annotations

from handlog.engine.words import render_rule


class RuleViolation(Exception):
    """An entry the rules do not allow: which rule, why, and what is allowed instead."""

    def __init__(self, rule: str, message: str, legal: tuple[str, ...] = (),
                 code: str = "", facts: tuple[int, ...] = ()) -> None:
        """`code` and `facts`: what the message says, as facts a reader words itself
        (engine/words.py violation_text), e.g. code "unshown", facts (pot, position)."""
        self.rule = rule
        self.message = message
        self.legal = legal
        self.code = code
        self.facts = facts
        text = f"{message} ({render_rule(rule)})"
        if legal:
            text += f"; allowed: {', '.join(legal)}"
        super().__init__(text)

    def as_dict(self) -> dict[str, object]:
        """The rule's identifier, its words (for people), the message and the options."""
        return {"rule": self.rule, "rule_words": render_rule(self.rule),
                "message": self.message, "legal": list(self.legal)}
