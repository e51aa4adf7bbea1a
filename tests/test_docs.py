"""docs/rules.md is generated from the registry: it must match what the code says now."""

from __future__ import annotations

from pathlib import Path

from mcplint.docs import rules_markdown
from mcplint.registry import all_rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_rules_reference_is_up_to_date():
    assert DOC.read_text(encoding="utf-8") == rules_markdown(), \
        "docs/rules.md is stale: regenerate it with `mcplint rules --format markdown > docs/rules.md`"


def test_every_rule_has_an_anchor():
    text = DOC.read_text(encoding="utf-8")
    for m in all_rules():
        assert f'<a id="{m.id.lower()}"></a>' in text
