"""The real-world breakages behind the profiles' facts, each rebuilt as a tool document (see
tests/test_breakages.py, which checks each against its profile)."""

from __future__ import annotations

from pathlib import Path

PROFILES = Path(__file__).parent / "data" / "profiles"


def tool(schema, name="t", **extra):
    return {"name": name, "inputSchema": schema, **extra}


def obj(props, required=None, **extra):
    out = {"type": "object", "properties": props, "additionalProperties": False,
           "required": list(props) if required is None else required}
    out.update(extra)
    return out


def many_tools(n):
    return {"tools": [tool(obj({}), name=f"t{i}") for i in range(n)]}


# (number, profile, document, rule, pointer, needle in the message)
CASES = [
    (1, "openai-strict", tool(obj({"url": {"type": "string", "format": "uri"}}), name="git_git_remote"),
     "DEC001", "/inputSchema/properties/url/format", "'uri' is not a valid format."),
    (2, "openai-strict", tool(obj({"operations": {"type": "array", "items": {
        "type": "object", "properties": {}, "additionalProperties": True}}})),
     "DEC001", "/inputSchema/properties/operations/items/additionalProperties",
     "In context=('properties', 'operations', 'items'), 'additionalProperties' is required to be supplied and to be false."),
    (3, "openai-strict", tool(obj({"tool_input": {"type": "object", "properties": {}}})),
     "DEC001", "/inputSchema/properties/tool_input",
     "'additionalProperties' is required to be supplied and to be false."),
    (4, "openai-strict", tool(obj({"questions": {"type": "array", "items": obj(
        {"text": {"type": "string"}, "multiple": {"type": "boolean"}}, required=["text"])}}), name="question"),
     "DEC001", "/inputSchema/properties/questions/items/properties/multiple",
     "In context=('properties', 'questions', 'items'), 'required' is required to be supplied and to be an array "
     "including every key in properties. Missing 'multiple'."),
    (5, "openai-strict", tool(obj({"data": {"allOf": [obj({"a": {"type": "string"}})]}})),
     "DEC001", "/inputSchema/properties/data/allOf", "In context=('properties', 'data'), 'allOf' is not permitted."),
    (6, "openai-strict", tool({"oneOf": [obj({"a": {"type": "string"}}), obj({"b": {"type": "string"}})]}),
     "DEC001", "/inputSchema/oneOf",
     "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."),
    (7, "openai-strict", tool(obj({"schema": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"},
                                              "properties": {}, "additionalProperties": False}})),
     "DEC001", "/inputSchema/properties/schema/propertyNames", "'propertyNames' is not permitted."),
    (8, "openai-strict", tool({"type": "object"}, name="mcpserver__list_clusters"),
     "DEC001", "/inputSchema", "In context=(), object schema missing properties."),
    (9, "openai-strict", tool({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                               "additionalProperties": "object"}),
     "DEC001", "/inputSchema/additionalProperties", "is not of type 'object', 'boolean'."),
    (10, "openai-strict", tool({"properties": {}, "additionalProperties": False}, name="json"),
     "DEC001", "/inputSchema", "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'."),
    (11, "openai-strict", many_tools(158),
     "DEC009", "/tools", "Expected an array with maximum length 128, but got an array with length 158 instead."),
    (12, "openai-strict", {"tools": [tool(obj({}), description="d" * 1103)]},
     "DEC008", "/tools/0/description",
     "Expected a string with maximum length 1024, but got a string with length 1103 instead."),
    (13, str(PROFILES / "openai-2024.yaml"), tool(obj({"placeholder": {"type": "string", "default": "x"}})),
     "DEC001", "/inputSchema/properties/placeholder/default", "'default' is not permitted."),
    (13, "openai-strict", tool(obj({"block": {"anyOf": [obj({"kind": {"const": "a"}, "x": {"type": "string"}}),
                                                         obj({"kind": {"const": "b"}, "y": {"type": "string"}})]}})),
     "DEC001", "/inputSchema/properties/block/anyOf", "Objects provided via 'anyOf' must not share identical first keys."),
    (14, str(PROFILES / "openai-o3-depth5.yaml"),
     tool(obj({"a": obj({"b": obj({"c": obj({"d": obj({"e": obj({"f": {"type": "string"}})})})})})}),
          name="structured_data"),
     "DEC006", "/inputSchema/properties/a/properties/b/properties/c/properties/d/properties/e",
     "6 levels of nesting exceeds limit of 5."),
    (15, "anthropic-api", tool({"anyOf": [obj({"a": {"type": "string"}}), obj({"b": {"type": "string"}})]}),
     "DEC001", "/inputSchema/anyOf", "input_schema does not support oneOf, allOf, or anyOf at the top level"),
    (15, "anthropic-strict", tool({"type": "object", "oneOf": [obj({"a": {"type": "string"}})]}),
     "DEC001", "/inputSchema/oneOf", "input_schema does not support oneOf, allOf, or anyOf at the top level"),
    (16, "anthropic-api", tool({"type": "object", "properties": {"a": {"type": "strng"}}}),
     "DEC001", "/inputSchema/properties/a/type",
     "JSON schema is invalid. It must match JSON Schema draft 2020-12"),
    (17, "anthropic-strict", tool(obj({"n": {"type": "integer", "minimum": 1, "maximum": 9}})),
     "DEC001", "/inputSchema/properties/n/minimum", "For 'integer' type, property 'minimum' is not supported"),
    (18, "anthropic-strict", tool(obj({"xs": {"type": "array", "items": {"type": "string"}, "maxItems": 3}})),
     "DEC001", "/inputSchema/properties/xs/maxItems", "For 'array' type, property 'maxItems' is not supported"),
    (18, "anthropic-strict", tool(obj({"xs": {"type": "array", "items": {"type": "string"}, "minItems": 2}})),
     "DEC001", "/inputSchema/properties/xs/minItems",
     "For 'array' type, 'minItems' values other than 0 or 1 are not supported"),
    (19, "anthropic-strict", many_tools(21),
     "DEC009", "/tools", "The compiled grammar is too large"),
    (19, "anthropic-strict", {"tools": [tool(obj({f"p{i}": {"type": "string"} for i in range(25)}, required=[]))]},
     "DEC009", "/tools", "Schemas contains too many optional parameters (25)"),
    (20, "anthropic-api", tool(obj({}), name="mcp__" + "x" * 130),
     "DEC007", "/name", "String should have at most 128 characters"),
    (21, "gemini-openapi", tool({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                                 "properties": {"a": {"type": "string"}}}),
     "DEC001", "/inputSchema/$schema", 'Unknown name "$schema"'),
    (22, "gemini-openapi", tool({"type": "object", "properties": {"v": {"anyOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "a"}}}]}}}),
     "DEC001", "/inputSchema/properties/v/anyOf/0/properties/kind/const", 'Unknown name "const"'),
    (22, "gemini-openapi", tool({"type": "object", "properties": {}, "additionalProperties": False}),
     "DEC001", "/inputSchema/additionalProperties", 'Unknown name "additionalProperties"'),
    (23, "gemini-openapi", tool({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}),
     "DEC001", "/inputSchema/properties/a/type", "Proto field is not repeating, cannot start list."),
    (24, "gemini-openapi", tool({"type": "object", "properties": {"flag": {"type": "boolean", "enum": [True, False]}}}),
     "DEC001", "/inputSchema/properties/flag/enum", "(TYPE_STRING)"),
    (25, "gemini-openapi", tool({"type": "object", "properties": {"v": {"anyOf": [{"description": "any"},
                                                                               {"type": "string"}]}}}),
     "DEC001", "/inputSchema/properties/v/anyOf/0",
     '(type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""'),
    (26, "gemini-openapi", tool({"type": "object", "properties": {"rows": {"type": "array", "items": {
        "type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}}}}),
     "DEC001", "/inputSchema/properties/rows/items/additionalProperties", 'Unknown name "additionalProperties"'),
    (27, "gemini", tool({"type": "object", "properties": {}}, name="3d-print"),
     "DEC007", "/name", "Invalid function name. Must start with a letter or an underscore."),
    (27, "gemini", tool({"type": "object", "properties": {}}, name="a" * 129),
     "DEC007", "/name", "Invalid function name. Must start with a letter or an underscore."),
    (28, str(PROFILES / "gemini-cli-2025.yaml"), tool({"type": "object", "properties": {"thought": {"description": "the thought"}}},
                            name="process_thought"),
     "DEC003", "/inputSchema/properties/thought",
     "because it has missing types in its parameter schema"),
    (29, "vscode-copilot", tool({"type": "object", "properties": {"result": {"type": "array"}}},
                                name="mcp_reme_add_tool_call_result"),
     "DEC003", "/inputSchema/properties/result",
     "Failed to validate tool mcp_reme_add_tool_call_result: Error: tool parameters array type must have items"),
    (30, "gemini-openapi", tool({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}),
     "DEC001", "/inputSchema/additionalProperties", "AttributeError: 'bool' object has no attribute 'items'"),
    (31, "openai-agents", tool(obj({"options": {"type": "object"}})),
     "DEC002", "/inputSchema/properties/options",
     "Error converting MCP schema to strict mode: JSON schema contains an object that permits undeclared properties"),
    (32, str(PROFILES / "moonshot-kimi.yaml"),
     tool({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": False,
           "required": ["a"], "properties": {"a": {"anyOf": [{"not": {}}, {"type": "string"}]}}}),
     "DEC001", "/inputSchema/$schema", "400 invalid parameter value"),
    (32, str(PROFILES / "moonshot-kimi.yaml"),
     tool({"type": "object", "additionalProperties": {}, "required": ["a"],
           "properties": {"a": {"anyOf": [{"not": {}}, {"type": "string"}]}}}),
     "DEC001", "/inputSchema/properties/a/anyOf/0/not", "400 invalid parameter value"),
]
