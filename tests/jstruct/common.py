"""The JSON Structure binding's examples the tests share (binding §4, §5.2, §7)."""

from __future__ import annotations

CORE = "https://json-structure.org/meta/core/v0/#"
EXTENDED = "https://json-structure.org/meta/extended/v0/#"

# Binding §4: the example inputSchema, verbatim.
CONVERT_TEMP = {
    "$schema": "https://json-structure.org/meta/extended/v0/#",
    "$id": "https://tools.example.com/schemas/convert-temp-input",
    "$uses": ["JSONStructureValidation"],
    "name": "ConvertTemperatureInput",
    "type": "object",
    "properties": {"celsius": {"type": "double", "minimum": -273.15}},
    "required": ["celsius"],
}


def _tool(name, **slots):
    return dict({"name": name, "description": "x"}, **slots)


# Binding §5.2
ZERO_ARG = {"$schema": CORE, "$id": "https://t.example/refresh", "name": "RefreshInput", "type": "object",
            "properties": {"null": {"type": "null"}}, "additionalProperties": False}


# Binding §7
COUNT = {"$schema": CORE, "$id": "https://t.example/c", "name": "CountInput", "type": "object",
         "properties": {"count": {"type": "int64"}, "price": {"type": "decimal"}}}
