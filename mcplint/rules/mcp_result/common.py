"""Helpers the MCP3xx rules share: a tool's examples and the problems :mod:`mcplint.validate`
finds in them (computed once per example and version, for every rule of the tool that asks)."""

from __future__ import annotations

from ...model import Pointer

PROBLEMS_KEY = "mcp.example-problems"  # ctx.memo.target: {(id(example), version or "input"): (example, problems)}


def tool_examples(tool):
    """(pointer, example) for each example that is an object with an object result."""
    for ptr, ex in tool.examples:
        if isinstance(ex, dict):
            yield Pointer(ptr), ex


def example_label(ptr: Pointer) -> str:
    return f"example {ptr[-1]!r}" if isinstance(ptr[-1], str) else f"example #{ptr[-1]}"


def _kept(ctx) -> dict:
    kept = ctx.memo.target.get(PROBLEMS_KEY)
    if kept is None:
        kept = ctx.memo.target[PROBLEMS_KEY] = {}
    return kept


def result_problems(tool, ex: dict, version: str, ctx) -> list:
    """validate_result for one example under one version, worked out once for the tool's rules."""
    from ...validate import validate_result

    result = ex.get("result")
    if not isinstance(result, dict) or not isinstance(tool.data, dict):
        return []
    kept = _kept(ctx)
    key = (id(ex), version)
    hit = kept.get(key)
    if hit is not None and hit[0] is ex:
        return hit[1]
    problems = validate_result(tool.data, result, version)
    kept[key] = (ex, problems)
    return problems


def input_problems(tool, ex: dict, ctx) -> list:
    """validate_arguments for one example's input, worked out once for the tool's rules."""
    from ...validate import validate_arguments

    if not isinstance(tool.data, dict) or "inputSchema" not in tool.data or "input" not in ex:
        return []
    kept = _kept(ctx)
    key = (id(ex), "input")
    hit = kept.get(key)
    if hit is not None and hit[0] is ex:
        return hit[1]
    problems = validate_arguments(tool.data, ex["input"])
    kept[key] = (ex, problems)
    return problems


def coded_problems(tool, ctx, code: str):
    for ptr, ex in tool_examples(tool):
        for p in result_problems(tool, ex, ctx.version, ctx):
            if p.code == code:
                yield ptr, ex, p
