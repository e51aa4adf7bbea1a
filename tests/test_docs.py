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


def test_readme_table_counts_the_rules_and_profiles_there_are():
    """The README's "What it checks" table says how many rules each family has, and how many
    decoder profiles ship: the numbers a new reader takes at their word."""
    import re
    from collections import Counter

    from mcplint.profiles.loader import builtin_names

    readme = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| ([A-Z]{3}) \| (\d+) \|", readme, re.M))
    assert {k: int(v) for k, v in table.items()} == dict(Counter(m.id[:3] for m in all_rules()))
    [shipped] = re.findall(r"\((\d+) profiles, every fact sourced\)", readme)
    assert int(shipped) == len(builtin_names())


ROOT = DOC.parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_relative_link_of_the_docs_leads_to_a_file():
    import re

    broken = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"`[^`\n]*`", "", text)  # code spans hold patterns, not links
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            path = target.split("#", 1)[0]
            if path and not re.match(r"[a-z]+:", path) and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_readme_is_a_newcomers_page():
    """At most 300 lines: the reference material lives in docs/ (CONTRIBUTING.md says where)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move reference material to docs/"
