"""The evaluator: regex features, and evaluation that stays bounded on deep schemas."""

from __future__ import annotations

from mcplint.profiles import evaluate_slot, load_profile, regex_features
from mcplint.profiles.conditions import Condition, holds


def test_regex_features():
    assert regex_features("^(?=a)b$") == ["lookaround"]
    assert regex_features(r"^(a)\1$") == ["backreference", "gbnf_escape"]
    assert regex_features(r"^\bword\b$") == ["word_boundary", "gbnf_escape"]
    assert regex_features(r"^\\b$") == []  # an escaped backslash followed by b is not a word boundary
    assert regex_features(r"^\p{L}+$") == ["unicode_property", "python_re_invalid", "gbnf_escape"]
    assert regex_features("^a{1,500}$") == ["large_repetition"]
    assert regex_features("abc") == ["unanchored"]
    assert regex_features("^a+?$") == ["lazy_quantifier"]


def test_evaluation_is_bounded_and_iterative():
    deep: dict = {"type": "string"}
    for _ in range(5000):
        deep = {"type": "array", "items": deep}
    effects = evaluate_slot(load_profile("openai-strict"), {"type": "object", "properties": {"a": deep}})
    assert any(e.subject == "nesting_depth" for e in effects)


def test_python_re_and_gbnf_features():
    from mcplint.profiles.facts import gbnf_escape, python_re_compiles

    # Python's own re: no \p{..}, no (?<name>..) (it wants (?P<name>..)), no \u{..}
    assert not python_re_compiles(r"^(?<year>\d{4})$")
    assert not python_re_compiles(r"^\u{1F600}$")
    assert python_re_compiles(r"^(?P<year>\d{4})$")
    assert python_re_compiles(r"^(?=a).+$")  # lookaround compiles (another feature reports it)
    # llama.cpp carries only \t \r \n \\ \" \[ \] \- \xHH \uHHHH \UHHHHHHHH, and metacharacters outside a class
    assert gbnf_escape(r"^\d+$") == r"\d"
    assert gbnf_escape(r"^[\w-]+$") == r"\w"
    assert gbnf_escape(r"^a\/b$") == r"\/"
    assert gbnf_escape(r"^[\.]$") == r"\."  # '.' is unescaped outside a class only
    assert gbnf_escape(r"^\.\*\x41\u00e9[\-\]]$") is None
    assert gbnf_escape(r"^\x4$") == r"\x"  # too few hex digits


def test_integer_range_required_type_and_via_conditions():
    from mcplint.profiles.conditions import Condition, holds

    c = Condition(value_integer=True, range_width_max=9999)
    assert holds(c, {"multipleOf": 5, "minimum": 0, "maximum": 100}, "multipleOf", False)
    assert not holds(c, {"multipleOf": 5, "minimum": 0}, "multipleOf", False)  # one-sided
    assert not holds(c, {"multipleOf": 5, "minimum": 0, "maximum": 10000}, "multipleOf", False)  # too wide
    assert not holds(c, {"multipleOf": 0.5, "minimum": 0, "maximum": 10}, "multipleOf", False)
    assert holds(c, {"multipleOf": 5.0, "exclusiveMinimum": 0, "exclusiveMaximum": 10}, "multipleOf", False)
    req = Condition(all_required=True)
    assert holds(req, {"properties": {"a": {}}, "required": ["a"]}, None, False)
    assert not holds(req, {"properties": {"a": {}, "b": {}}, "required": ["a"]}, None, False)
    assert holds(req, {"additionalProperties": {}}, None, False)  # no properties: nothing optional
    assert holds(Condition(type_has=("null",)), {"type": ["string", "null"]}, None, False)
    assert not holds(Condition(type_has=("null",)), {"type": "string"}, None, False)
    assert holds(Condition(via_in=("anyOf",)), {}, None, False, via="anyOf")
    assert not holds(Condition(via_in=("anyOf",)), {}, None, False, via="properties")
    assert not holds(Condition(via_in=("anyOf",)), {}, None, False)  # unknown: does not hold


def test_alone_and_ref_cycle_conditions():
    from mcplint.profiles.conditions import Condition, holds, ref_on_cycle

    assert holds(Condition(alone=True), {"$ref": "#/$defs/a"}, "$ref", False)
    assert not holds(Condition(alone=True), {"$ref": "#/$defs/a", "description": "x"}, "$ref", False)
    assert holds(Condition(alone=False), {"$ref": "#/$defs/a", "$comment": "x"}, "$ref", False)
    tree = {"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}},
                      "leaf": {"type": "string"},
                      "a": {"properties": {"b": {"$ref": "#/$defs/b"}}}, "b": {"items": {"$ref": "#/$defs/a"}},
                      "to_leaf": {"properties": {"x": {"$ref": "#/$defs/leaf"}}}}}
    assert ref_on_cycle("#/$defs/node", tree)  # directly
    assert ref_on_cycle("#/$defs/a", tree) and ref_on_cycle("#/$defs/b", tree)  # through another definition
    assert not ref_on_cycle("#/$defs/leaf", tree) and not ref_on_cycle("#/$defs/to_leaf", tree)
    assert not ref_on_cycle("#/$defs/missing", tree)  # dangling: judged by the reference rules
    assert not ref_on_cycle("https://example.com/s.json", tree)  # remote: never resolved
    root = {"type": "object", "properties": {"self": {"$ref": "#"}}}
    assert ref_on_cycle("#", root)
    c = Condition(ref_cycle=True)
    assert holds(c, {"$ref": "#/$defs/node", "description": "x"}, "$ref", False, tree)
    assert not holds(c, {"$ref": "#/$defs/leaf", "description": "x"}, "$ref", False, tree)
    # the slot's facts work the cycles out once; other facts than the slot's are not read
    from mcplint.profiles import SlotFacts

    facts = SlotFacts(tree)
    for ref in ("#/$defs/node", "#/$defs/a", "#/$defs/leaf", "#/$defs/to_leaf", "#/$defs/missing"):
        assert ref_on_cycle(ref, tree, facts) == ref_on_cycle(ref, tree)
    assert facts.on_cycle == {id(tree["$defs"][k]) for k in ("node", "a", "b")}
    assert ref_on_cycle("#", root, facts)  # (facts of another schema: worked out afresh)
    assert holds(c, {"$ref": "#/$defs/node"}, "$ref", False, tree, None, facts)


def test_allof_merges_condition():
    from mcplint.profiles.conditions import allof_merges

    a = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}
    root = {"$defs": {"A": a, "C": {"$ref": "#/$defs/A", "description": "c"}, "L1": {"$ref": "#/$defs/L2"},
                      "L2": {"$ref": "#/$defs/L1"}}}
    ref = [{"$ref": "#/$defs/A"}]
    assert allof_merges({"allOf": ref, "description": "x", "title": "t"}, root)  # annotations win, no conflict
    assert allof_merges({"allOf": ref, "type": "object"}, root)  # the same value
    assert allof_merges({"allOf": ref, "required": ["a", "b"]}, root)  # A as converted requires both
    assert not allof_merges({"allOf": ref, "required": ["a"]}, root)
    assert allof_merges({"allOf": ref, "required": [], "properties": {}}, root)  # empty ones constrain nothing
    assert not allof_merges({"allOf": ref, "properties": {"c": {}}}, root)
    assert not allof_merges({"allOf": ref, "additionalProperties": False}, root)  # closed, no properties of its own
    assert allof_merges({"allOf": [{"$ref": "#/$defs/C"}], "type": "object"}, root)  # a chain of annotated refs
    assert not allof_merges({"allOf": [{"type": "string", "maxLength": 3}], "maxLength": 5}, root)
    assert allof_merges({"allOf": [{"type": "string"}], "minLength": 2}, root)
    # compared as the conversion leaves every level, with the SDK's equality
    ns = {"type": ["string", "null"]}
    assert allof_merges({"allOf": [{"properties": {"a": ns}}], "properties": {"a": {**ns, "default": None}}}, root)
    assert not allof_merges({"allOf": [{"properties": {"a": ns}}], "properties": {"a": {**ns, "default": "x"}}}, root)
    one_of, any_of = {"oneOf": [{"type": "string"}]}, {"anyOf": [{"type": "string"}]}
    assert allof_merges({"allOf": [{"properties": {"u": any_of}}], "properties": {"u": one_of}}, root)
    inner = {"type": "object", "properties": {"x": {"type": "string"}}}
    assert allof_merges({"allOf": [{"items": inner}], "items": {**inner, "required": ["x"]}}, root)
    assert allof_merges({"allOf": [{"items": inner}], "items": {**inner, "required": []}}, root)  # required: every one
    assert not allof_merges({"allOf": [{"items": inner}], "items": {**inner, "properties": {"x": {"type": "integer"}}}},
                            root)
    assert allof_merges({"allOf": [{"maximum": 1}], "maximum": 1.0}, root)
    assert not allof_merges({"allOf": [{"const": 1}], "const": True}, root)
    described = {"properties": {"o": {"$ref": "#/$defs/A", "description": "d"}}}
    assert allof_merges({"allOf": [described], "properties": {"o": {**a, "description": "d"}}}, root)
    # what cannot be judged holds (the reference rules speak for it): dangling, circular, several entries
    assert allof_merges({"allOf": [{"$ref": "#/$defs/none"}], "required": ["z"]}, root)
    assert allof_merges({"allOf": [{"$ref": "#/$defs/L1"}], "required": ["z"]}, root)
    assert allof_merges({"allOf": [{"type": "string"}, {"maxLength": 3}], "maxLength": 5}, root)


def test_accepts_null_and_null_as_absent():
    from mcplint.profiles.conditions import Condition, accepts_null, holds

    for node in ({"type": "null"}, {"type": ["integer", "null"]}, {"anyOf": [{"type": "string"}, {"type": "null"}]},
                 {"oneOf": [{"type": ["null"]}]}, {"enum": ["a", None]}, {"const": None}):
        assert accepts_null(node), node
    for node in ({"type": "string"}, {"type": "string", "nullable": True}, {"anyOf": [{"type": "string"}]},
                 {"enum": ["a"]}, {"const": "x"}, {}):
        assert not accepts_null(node), node
    absent = Condition(null_as_absent=True)
    assert holds(absent, {"type": ["string", "null"]}, None, False)
    assert holds(absent, {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}, None, False)
    assert not holds(absent, {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "x"}, None, False)
    assert not holds(absent, {"type": "string"}, None, False)


def test_a_construct_about_one_property_is_decided_at_that_property():
    from mcplint.profiles import evaluate_slot, load_profile

    agents = load_profile("openai-agents")
    schema = {"type": "object", "additionalProperties": False, "required": [],
              "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "string"}}}
    got = [(e.subject, e.pointer) for e in evaluate_slot(agents, schema) if e.subject == "optional-property"]
    assert got == [("optional-property", ("properties", "b"))]


def test_shapes():
    from mcplint.profiles.shapes import items_on_non_array, ref_annotation_siblings, unknown_types

    assert ref_annotation_siblings({"$ref": "#/$defs/a", "description": "x"}) == ["description"]
    assert ref_annotation_siblings({"$ref": "#/$defs/a"}) == []
    assert ref_annotation_siblings({"$ref": "#/$defs/a", "$comment": "x"}) == []
    assert unknown_types({"type": "custom"}) == ["custom"]
    assert unknown_types({"type": ["string", "float"]}) == ["float"]
    assert unknown_types({"type": "string"}) == [] and unknown_types({}) == []
    assert items_on_non_array({"anyOf": [], "items": {}}, set())
    assert items_on_non_array({"type": ["array", "null"], "items": {}}, {"array", "null"})
    assert not items_on_non_array({"type": "array", "items": {}}, {"array"})


def test_findings_under_a_rejected_construct_are_reported():
    """A format OpenAI strict refuses, inside a oneOf it refuses too: both in one pass."""
    schema = {"type": "object", "additionalProperties": False, "required": ["a"], "properties": {
        "a": {"oneOf": [{"type": "string", "format": "uri"}, {"type": "integer"}]}}}
    subjects = {(e.subject, e.pointer) for e in evaluate_slot(load_profile("openai-strict"), schema)}
    assert ("oneOf", ("properties", "a", "oneOf")) in subjects
    assert ("format", ("properties", "a", "oneOf", 0, "format")) in subjects
    # under an applicator the target ignores (drop), the contents constrain nothing: not reported
    dropped = {e.pointer for e in evaluate_slot(load_profile("xgrammar"), {"type": "object", "properties": {
        "a": {"not": {"type": "string", "uniqueItems": True}}}})}
    assert ("properties", "a", "not") in dropped
    assert ("properties", "a", "not", "uniqueItems") not in dropped


def test_sibling_schema_holds_only_for_a_schema_object_beside_it():
    c = Condition.from_dict({"sibling_schema": ["additionalProperties", "unevaluatedProperties"]})
    assert holds(c, {"propertyNames": {}, "additionalProperties": {"type": "integer"}}, "propertyNames", False)
    assert holds(c, {"propertyNames": {}, "unevaluatedProperties": {}}, "propertyNames", False)
    assert not holds(c, {"propertyNames": {}, "additionalProperties": True}, "propertyNames", False)
    assert not holds(c, {"propertyNames": {}, "additionalProperties": False}, "propertyNames", False)
    assert not holds(c, {"propertyNames": {}}, "propertyNames", False)
    assert Condition.from_dict(c.as_dict()) == c and "additionalProperties: a schema object" in c.describe()


def _effects(profile: str, schema) -> set:
    return {(e.subject, e.pointer, e.rule.action) for e in evaluate_slot(load_profile(profile), schema)}


def test_xgrammar_property_names_facts_run_locally():
    """propertyNames beside an additionalProperties schema: xgrammar enforces it (no effect),
    vLLM's explicit xgrammar backend refuses it in its pre-check; beside additionalProperties: false
    (no properties) xgrammar drops the closing; a boolean propertyNames fails to compile."""
    record = {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "integer"}}
    assert _effects("xgrammar", record) == set()
    assert ("propertyNames", ("propertyNames",), "reject") in _effects("vllm-xgrammar", record)
    closed = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": False}
    assert _effects("xgrammar", closed) == {("additionalProperties", ("additionalProperties",), "drop")}
    named = {**closed, "properties": {"a": {"type": "integer"}}}  # the near miss: properties keep it closed
    assert _effects("xgrammar", named) == set()
    assert _effects("xgrammar", {"type": "object", "propertyNames": True}) == \
        {("propertyNames", ("propertyNames",), "reject")}
