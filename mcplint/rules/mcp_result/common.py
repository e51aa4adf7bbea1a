"""Helpers the MCP3xx rules share: a tool's examples and the problems :mod:`mcplint.validate`
finds in them (computed once per example and version, for every rule that asks)."""

from __future__ import annotations

from ...model import Pointer

_cache: dict = {}


def tool_examples(tool):
    """(pointer, example) for each example that is an object with an object result."""
    for ptr, ex in tool.examples:
        if isinstance(ex, dict):
            yield Pointer(ptr), ex


def example_label(ptr: Pointer) -> str:
    return f"example {ptr[-1]!r}" if isinstance(ptr[-1], str) else f"example #{ptr[-1]}"


def result_problems(tool, ex: dict, version: str) -> list:
    """validate_result for one example under one version, cached while the example lives."""
    from ...validate import validate_result

    result = ex.get("result")
    if not isinstance(result, dict) or not isinstance(tool.data, dict):
        return []
    key = (id(ex), version)
    hit = _cache.get(key)
    if hit is not None and hit[0] is ex:
        return hit[1]
    problems = validate_result(tool.data, result, version)
    if len(_cache) > 2048:
        _cache.clear()
    _cache[key] = (ex, problems)
    return problems


def input_problems(tool, ex: dict) -> list:
    from ...validate import validate_arguments

    if not isinstance(tool.data, dict) or "inputSchema" not in tool.data or "input" not in ex:
        return []
    key = (id(ex), "input")
    hit = _cache.get(key)
    if hit is not None and hit[0] is ex:
        return hit[1]
    problems = validate_arguments(tool.data, ex["input"])
    _cache[key] = (ex, problems)
    return problems


def coded_problems(tool, ctx, code: str):
    for ptr, ex in tool_examples(tool):
        for p in result_problems(tool, ex, ctx.version):
            if p.code == code:
                yield ptr, ex, p
