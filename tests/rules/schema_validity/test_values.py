"""SCH109 beyond the fixture table: values nested too deep for recursion, and references outside
the slot that are never retrieved while values are checked."""

from __future__ import annotations

from conftest import lint_json
from mcplint import metaschema
from mcplint.config import Config
from mcplint.engine import lint_document
from mcplint.model import Document, Source

def _doc(data):
    return Document(Source("deep.json", "", "json"), data)


def test_deep_data_values_do_not_crash():
    deep: list = []
    node = deep
    for _ in range(5_000):
        node.append([])
        node = node[0]
    tool = {"name": "d", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "string", "default": deep}, "b": {"type": "array", "enum": [deep, "x"], "default": deep}}}}
    _, findings = lint_document(_doc(tool), Config(select=("SCH",)))
    assert {(f.rule, str(f.pointer)) for f in findings} >= {("SCH109", "/inputSchema/properties/a/default"),
                                                            ("SCH109", "/inputSchema/properties/b/enum/1")}


def test_pipeline_never_retrieves_while_checking_values(monkeypatch):
    import socket

    def trap(*a, **k):
        raise AssertionError(f"network access attempted: {a!r}")

    for obj, name in ((socket.socket, "connect"), (socket.socket, "connect_ex"), (socket, "create_connection"),
                      (socket, "getaddrinfo")):
        monkeypatch.setattr(obj, name, trap)
    for dialect in ("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"):
        tool = {"name": "r", "inputSchema": {
            "$schema": dialect, "$id": "https://evil.test/in.json", "type": "object",
            "definitions": {"n": {"type": "integer"}},
            "properties": {
                "a": {"$ref": "https://evil.test/a.json", "default": 1},
                "b": {"allOf": [{"$ref": "#/definitions/n"}, {"$ref": "b.json"}], "default": "x"},
                "c": {"$ref": "#/definitions/n", "default": "not a number"},
            }}}
        for eng in metaschema.ENGINES:
            monkeypatch.setattr(metaschema, "_engine", eng)
            findings = lint_json(tool, select=["SCH"])
            assert [(f.rule, str(f.pointer)) for f in findings] == [("SCH109", "/inputSchema/properties/c/default")]
