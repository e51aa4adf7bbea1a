"""A family has one name (see :mod:`mcplint.rules`): its package, its table of cases and its folder
of tests share it, and the package alone says how the reports publish it (``FAMILY``)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import yaml

import mcplint.rules as rules
from mcplint.registry import all_rules

TESTS = Path(__file__).resolve().parent.parent
PUBLISHED = {"safety": "schema_safety", "registry": "server_json"}  # part of the report formats


def _package_of(module: str) -> str:
    return module.removeprefix(rules.__name__ + ".").split(".")[0]


def test_every_rule_lives_in_a_family_and_is_published_under_its_name():
    metas = all_rules()
    assert {_package_of(m.func.__module__) for m in metas} == set(rules.FAMILIES)
    for m in metas:
        package = _package_of(m.func.__module__)
        assert m.family == PUBLISHED.get(package, package), (m.id, m.family)


def test_only_a_family_package_declares_its_family():
    for name in rules.FAMILIES:
        family = importlib.import_module(f"{rules.__name__}.{name}")
        assert getattr(family, "FAMILY", name) == PUBLISHED.get(name, name), name
        for sub in pkgutil.iter_modules(getattr(family, "__path__", [])):
            qualified = f"{family.__name__}.{sub.name}"
            source = importlib.util.find_spec(qualified).loader.get_source(qualified)
            assigned = {t.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assign)
                        for t in node.targets if isinstance(t, ast.Name)}
            assert "FAMILY" not in assigned, qualified


def test_each_family_has_its_table_of_cases_and_test_folders_are_families():
    by_id = {m.id: _package_of(m.func.__module__) for m in all_rules()}
    tables = {p.stem for p in (TESTS / "cases").glob("*.yaml")}
    assert tables == set(rules.FAMILIES)
    for name in tables:
        cases = yaml.safe_load((TESTS / "cases" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert {by_id[c["rule"]] for c in cases} == {name}, name
    folders = {p.name for p in (TESTS / "rules").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= set(rules.FAMILIES), folders - set(rules.FAMILIES)
