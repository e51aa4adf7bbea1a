"""Hypothesis strategies for tool input schemas: every keyword the profiles talk about,
nested, with and without the closures strict modes require."""

from __future__ import annotations

from hypothesis import strategies as st

FORMATS = ["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri",
           "uri-reference", "byte"]
NAMES = st.sampled_from(["a", "b", "c", "d"])


def _opt(d: dict, **kw) -> st.SearchStrategy:
    """d plus any subset of the keyword strategies in kw."""
    return st.fixed_dictionaries(d, optional=kw)


strings = _opt({"type": st.just("string")}, minLength=st.integers(0, 3), maxLength=st.integers(3, 9),
               pattern=st.sampled_from(["^[a-z]+$", "[0-9]{3}", "^(?=a)[a-z]+$", "^ab$"]),
               format=st.sampled_from(FORMATS), enum=st.just(["x", "y"]), default=st.just("x"),
               nullable=st.just(True))
integers = _opt({"type": st.sampled_from(["integer", "number", ["integer", "null"]])},
                minimum=st.integers(0, 3), maximum=st.integers(5, 9), exclusiveMinimum=st.integers(-3, 0),
                exclusiveMaximum=st.integers(10, 12), multipleOf=st.sampled_from([1, 5]),
                default=st.just(5))
scalars = st.one_of(strings, integers, st.just({"type": "boolean"}), st.just({"const": "k"}),
                    st.just({"enum": [1, "a", None]}), st.just({"type": ["string", "null"]}))


def _array(children):
    return _opt({"type": st.just("array"), "items": children}, minItems=st.integers(0, 3),
                maxItems=st.integers(3, 5), uniqueItems=st.just(True), contains=st.just({"const": 1}))


def _object(children):
    props = st.dictionaries(NAMES, children, min_size=1, max_size=3)

    @st.composite
    def build(draw):
        p = draw(props)
        node = {"type": "object", "properties": p}
        req = draw(st.lists(st.sampled_from(sorted(p)), unique=True))
        if req:
            node["required"] = req
        ap = draw(st.sampled_from(["absent", False, False, True, "schema"]))
        if ap == "schema":
            node["additionalProperties"] = {"type": "string"}
        elif ap != "absent":
            node["additionalProperties"] = ap
        extra = {"minProperties": 1, "maxProperties": 3, "propertyNames": {"pattern": "^[a-z]+$"},
                 "patternProperties": {"^x_": {"type": "integer"}}, "dependentRequired": {"a": ["b"]}}
        for kw in draw(st.lists(st.sampled_from(sorted(extra)), unique=True, max_size=2)):
            node[kw] = extra[kw]
        return node

    return build()


def _combinator(children):
    return st.one_of(
        st.builds(lambda a, b: {"anyOf": [a, b]}, children, children),
        st.builds(lambda a, b: {"oneOf": [a, b]}, children, children),
        st.builds(lambda a, b: {"allOf": [a, b]}, children, children),
        st.builds(lambda a: {**a, "not": {"const": 0}}, children),
    )


subschemas = st.recursive(scalars, lambda c: st.one_of(_array(c), _object(c), _combinator(c)), max_leaves=6)


@st.composite
def tool_schemas(draw):
    """A root object schema, as an MCP tool's inputSchema."""
    props = draw(st.dictionaries(NAMES, subschemas, min_size=1, max_size=3))
    root = {"type": "object", "properties": props}
    if draw(st.booleans()):
        root["required"] = sorted(props)
    if draw(st.booleans()):
        root["additionalProperties"] = False
    if draw(st.booleans()):
        root["$defs"] = {"n": {"type": "integer", "minimum": 1}}
        root["properties"]["r"] = {"$ref": "#/$defs/n"}
    return root


def generated_tool_schemas(n: int) -> list:
    """``n`` schemas of :func:`tool_schemas`, the same every run (derandomized)."""
    from hypothesis import HealthCheck, given, settings

    drawn: list = []

    @settings(max_examples=n, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(tool_schemas())
    def draw(schema):
        drawn.append(schema)

    draw()
    return drawn
