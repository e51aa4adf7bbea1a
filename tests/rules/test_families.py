"""A family has one name (see :mod:`mcplint.rules`): its package, its table of cases, its folder
of tests and the family the reports publish (``mcplint rules``, SARIF) are the same name."""

from __future__ import annotations

from pathlib import Path

import yaml

import mcplint.rules as rules
from mcplint.registry import all_rules

TESTS = Path(__file__).resolve().parent.parent


def _package_of(module: str) -> str:
    return module.removeprefix(rules.__name__ + ".").split(".")[0]


def test_every_rule_lives_in_a_family_and_is_published_under_its_name():
    metas = all_rules()
    assert {_package_of(m.func.__module__) for m in metas} == set(rules.FAMILIES)
    for m in metas:
        assert m.family == _package_of(m.func.__module__), (m.id, m.family)


def test_the_published_family_names_stay_as_users_tools_read_them():
    # part of the report formats (SARIF properties.family and tags, `mcplint rules --format json`)
    def published(prefix):
        return {m.family for m in all_rules() if m.id.startswith(prefix)}

    assert published("SEC") == {"schema_safety"} and published("REG") == {"server_json"}
    assert published("MCP1") == {"mcp_tool"} and published("MCP3") == {"mcp_result"}


def test_each_family_has_its_table_of_cases_and_test_folders_are_families():
    by_id = {m.id: _package_of(m.func.__module__) for m in all_rules()}
    tables = {p.stem for p in (TESTS / "cases").glob("*.yaml")}
    assert tables == set(rules.FAMILIES)
    for name in tables:
        cases = yaml.safe_load((TESTS / "cases" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert {by_id[c["rule"]] for c in cases} == {name}, name
    folders = {p.name for p in (TESTS / "rules").iterdir() if p.is_dir() and any(p.glob("*.py"))}  # not a stale cache
    assert folders <= set(rules.FAMILIES), folders - set(rules.FAMILIES)
