"""The MCP rule package (mcplint/rules/mcp/): every rule its modules define is registered, under
the family users know it by (``mcp_tool`` for MCP1xx, ``mcp_result`` for MCP3xx), whatever
module it lives in."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil

import mcplint.rules.mcp as package
from mcplint.registry import all_rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(package.__path__))


def _defined_rules(module_name: str) -> set[str]:
    """The rule IDs a module's source passes to ``@rule(...)``."""
    tree = ast.parse(importlib.util.find_spec(f"{package.__name__}.{module_name}").loader.get_source(
        f"{package.__name__}.{module_name}"))
    return {d.args[0].value for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            for d in node.decorator_list
            if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "rule"}


def test_every_rule_of_every_module_is_registered_with_its_family():
    registered = {m.id: m for m in all_rules() if m.func.__module__.startswith(package.__name__ + ".")}
    defined = {}
    for name in MODULES:
        for rid in _defined_rules(name):
            defined[rid] = name
    assert defined and set(defined) == set(registered)
    for rid, name in defined.items():
        meta = registered[rid]
        assert meta.func.__module__ == f"{package.__name__}.{name}"
        assert meta.family == ("mcp_tool" if rid.startswith("MCP1") else "mcp_result"), (rid, meta.family)


def test_rule_modules_declare_their_family_and_the_helpers_module_has_none():
    for name in MODULES:
        module = importlib.import_module(f"{package.__name__}.{name}")
        if _defined_rules(name):
            assert module.FAMILY in ("mcp_tool", "mcp_result"), name
        else:
            assert not hasattr(module, "FAMILY"), name
    assert not hasattr(package, "FAMILY")  # the package holds two families: each module says which
