"""SCH104 and SCH105 beyond the fixture table: the patches that turn the OpenAPI and draft-3 habits
into JSON Schema."""

from __future__ import annotations

from conftest import lint_json

def test_required_boolean_patch_moves_the_name_to_the_parent():
    tool = {"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "required": True}},
                                         "required": ["z"]}}
    [f] = lint_json(tool, select=["SCH105"])
    assert list(f.fix.patch) == [{"op": "remove", "path": "/inputSchema/properties/q/required"},
                                 {"op": "add", "path": "/inputSchema/required/-", "value": "q"}]


def test_nullable_patch_widens_the_type():
    tool = {"name": "a", "inputSchema": {"type": "object", "properties": {"c": {"type": "string", "nullable": True}}}}
    [f] = lint_json(tool, select=["SCH104"])
    assert list(f.fix.patch) == [{"op": "replace", "path": "/inputSchema/properties/c/type", "value": ["string", "null"]},
                                 {"op": "remove", "path": "/inputSchema/properties/c/nullable"}]
