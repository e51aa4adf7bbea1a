"""Helpers the MCP rule modules share (``mcp_tool`` here, ``mcp_result`` too): protocol version
names, JSON type naming, a Tool's object members."""

from __future__ import annotations

from ...versions import VERSIONS

V2024, V2025_03, V2025_06, V2025_11, V2026 = VERSIONS

_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
               int: "a number", float: "a number"}


def kind(value) -> str:
    """How a message names the JSON type of ``value``: "an object", "a string", ..."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def is_tool(tool) -> bool:
    """Whether the tool is a JSON object (a Tool at all)."""
    return isinstance(tool.data, dict)


def object_member(tool, key: str):
    """The tool's member ``key`` when it is a JSON object (annotations, _meta), else None."""
    if is_tool(tool) and isinstance(tool.data.get(key), dict):
        return tool.data[key]
    return None
