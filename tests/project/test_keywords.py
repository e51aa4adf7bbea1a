"""Projection step: keyword by keyword (removed, loosened to an allowed bound, patterns
removed or anchored, extension keywords removed without weakening)."""

from __future__ import annotations

from mcplint import project_schema


def test_unsupported_keywords_are_dropped_with_their_input_pointer():
    s = {"type": "object", "additionalProperties": False, "required": ["n"],
         "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 5}}}
    out, items = project_schema(s, "anthropic-strict")
    assert out["properties"]["n"] == {"type": "integer"}
    assert sorted(i.pointer for i in items if i.kind == "weakened") == [
        ("properties", "n", "maximum"), ("properties", "n", "minimum")]


def test_min_items_is_lowered_to_the_nearest_allowed_value():
    s = {"type": "object", "additionalProperties": False, "required": ["t"],
         "properties": {"t": {"type": "array", "items": {"type": "string"}, "minItems": 3}}}
    out, items = project_schema(s, "anthropic-strict")
    assert out["properties"]["t"]["minItems"] == 1
    (it,) = items
    assert it.kind == "weakened" and "from 3 to 1" in it.message


def test_formats_outside_the_allowlist_are_dropped():
    s = {"type": "object", "additionalProperties": False, "required": ["u", "d"],
         "properties": {"u": {"type": "string", "format": "uri"}, "d": {"type": "string", "format": "date"}}}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["u"] == {"type": "string"} and out["properties"]["d"]["format"] == "date"
    assert [i.pointer for i in items] == [("properties", "u", "format")]


def test_unanchored_pattern_is_anchored_for_full_match_decoders():
    s = {"type": "object", "additionalProperties": False, "properties": {"s": {"type": "string", "pattern": "ab+"}}}
    out, items = project_schema(s, "xgrammar")
    pat = out["properties"]["s"]["pattern"]
    assert pat.startswith("^") and pat.endswith("$")
    from mcplint.ecma import search  # the rewritten pattern, read as ECMA-262 (it is anchored: search = full match)

    assert search(pat, "xxabbby") and not search(pat, "xxa")
    assert [(i.kind, i.subject) for i in items] == [("rewritten", "pattern")]


def test_unknown_extension_keywords_are_removed_without_weakening():
    s = {"type": "object", "properties": {"a": {"type": "string", "x-ui": "wide"}}}
    out, items = project_schema(s, "gemini-openapi")
    assert out["properties"]["a"] == {"type": "string"}
    assert [(i.kind, i.subject) for i in items] == [("removed", "x-ui")]


def test_a_constraint_that_constrains_nothing_is_removed_without_weakening():
    """zod writes propertyNames {"type": "string"} for every record; generators write minLength 0 or
    an unanchored `[a-z_]*`. A target that ignores them loses nothing: removed, not weakened (so the
    projection is exact); a real constraint next to them is still a weakening."""
    s = {"type": "object", "additionalProperties": False, "required": ["vars", "name"],
         "properties": {"vars": {"type": "object", "propertyNames": {"type": "string"},
                                 "additionalProperties": {"type": "string"}},
                        "name": {"type": "string", "minLength": 0, "pattern": "[a-z_]*"}}}
    out, items = project_schema(s, "gemini")
    assert "propertyNames" not in out["properties"]["vars"] and out["properties"]["name"] == {"type": "string"}
    assert sorted((i.kind, i.pointer[-1]) for i in items) == [
        ("removed", "minLength"), ("removed", "pattern"), ("removed", "propertyNames")]
    assert all("no accepted value changes" in i.message for i in items)
    near = {"type": "object", "additionalProperties": False, "required": ["vars", "name"],
            "properties": {"vars": {"type": "object", "propertyNames": {"type": "string", "maxLength": 8}},
                           "name": {"type": "string", "minLength": 1, "pattern": "^[a-z_]*$"}}}
    _, items = project_schema(near, "gemini")
    assert sorted((i.kind, i.pointer[-1]) for i in items) == [
        ("weakened", "minLength"), ("weakened", "pattern"), ("weakened", "propertyNames")]
