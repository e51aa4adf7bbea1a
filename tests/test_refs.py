from mcplint.refs import index, is_local, resolve

SCHEMA = {
    "$id": "https://x.test/in.json", "type": "object",
    "$defs": {"a": {"$anchor": "A", "type": "string"},
              "b": {"$id": "b.json", "$defs": {"c": {"type": "integer"}}},
              "we~ird/key": {"type": "null"}},
    "properties": {
        "p": {"$ref": "#/$defs/a"}, "q": {"$ref": "#A"}, "r": {"$ref": "b.json#/$defs/c"},
        "s": {"$ref": "https://evil.test/x"}, "t": {"$ref": "#/$defs/zz"}, "u": {"$ref": "in.json#/$defs/a"},
        "v": {"$ref": "#/$defs/we~0ird~1key"}, "w": {"$ref": "other.json"},
    },
}


def test_classify_and_resolve():
    idx = index(SCHEMA)
    got = {r.pointer[1]: (is_local(r, idx), (resolve(r, idx, SCHEMA) or (None,))[0]) for r in idx.refs}
    assert got == {
        "p": (True, ("$defs", "a")), "q": (True, ("$defs", "a")), "r": (True, ("$defs", "b", "$defs", "c")),
        "s": (False, None), "t": (True, None), "u": (True, ("$defs", "a")),
        "v": (True, ("$defs", "we~ird/key")), "w": (False, None),
    }


def test_no_id_fragment_refs_are_local():
    s = {"type": "object", "properties": {"p": {"$ref": "#/properties/p"}, "q": {"$ref": "x.json"}}}
    idx = index(s)
    assert [(r.pointer[1], is_local(r, idx)) for r in idx.refs] == [("p", True), ("q", False)]
