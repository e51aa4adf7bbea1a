"""JsonLocator (large JSON files locate findings one pointer at a time) must give the
same spans as the full source map, including for missing paths, duplicate keys, escaped
keys, CRLF and a byte-order mark."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import mcplint.load as load
from mcplint.model import Document, Source
from mcplint.sourcemap import JsonLocator, json_duplicates, json_spans

DATA = Path(__file__).parent / "data"
FILES = sorted((DATA / "corpus").glob("*.json")) + sorted((DATA / "mcp-examples").rglob("*.json"))[:20]


def _check(text: str, extra=()):
    spans, _ = json_spans(text)
    full = Document(Source("f", text, "json"), None, _spans=spans)
    loc = JsonLocator(text)
    rng = random.Random(7)
    sample = rng.sample(list(spans), min(40, len(spans)))
    every = list(spans) if len(spans) <= 300 else rng.sample(list(spans), 300)
    ptrs = every + [p + ("missing",) for p in sample] + [p + (99,) for p in sample] + list(extra)
    for p in ptrs:
        assert loc.locate(p) == full.locate(p), p


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_same_spans_as_the_full_map(path):
    _check(path.read_text(encoding="utf-8"))


def test_tricky_text():
    text = ('\ufeff{"a~b/c": [1, {"x": "\\"}"}],\r\n "d": {"k": 1, "k": {"z": [ ]}},\t"\\u00e9": null,'
            ' "n": [[], [[{}]]]}')
    _check(text, extra=[("d", "k", "z"), ("a~b/c", 1, "x"), ("é",), ("n", 1, 0, 0), ("n", "x")])


def test_large_documents_use_it(monkeypatch):
    text = (DATA / "corpus" / "time.tools.json").read_text(encoding="utf-8")
    monkeypatch.setattr(load, "LOCATOR_THRESHOLD", 0)
    doc = load.load_text(text, "t.json")
    assert doc._locator is not None
    span = doc.locate(("tools", 0, "inputSchema", "properties"))
    assert doc._spans is None  # no full map was built
    spans, _ = json_spans(text)
    assert span == Document(Source("t", text, "json"), None, _spans=spans).locate(
        ("tools", 0, "inputSchema", "properties"))


DUP_CASES = [
    '{"a":1,"a":2}',
    '{"x":[{"k":1,"k":[1,2,{"z":0,"z":1}]},[],{}],"x":{"y":"\\"","y":null}}',
    '\ufeff{\r\n "a~/b": {"q": [ [ ], [ {"w":1, "w":2} ] ], "q": 1}, "e\\u0301": 0, "e\\u0301": 1}',
    '[{"a":1},{"a":1,"b":2,"a":3}]',
    '{"t": [1, "x,]", true, null, -1.5e3, {"d":1,"d":2}], "u": {"v": {}}}',
]


@pytest.mark.parametrize("text", DUP_CASES)
def test_duplicates_without_a_full_map(text):
    assert json_duplicates(text) == json_spans(text)[1]


def test_large_file_with_a_duplicate_key_is_cheap(monkeypatch):
    import time

    big = '{"name": "t", "name": "t", "inputSchema": {"type": "object", "properties": {"c": {"enum": [' + \
          ", ".join(str(i) for i in range(200_000)) + "]}}}}"
    t = time.process_time()
    doc = load.load_text(big, "big.json")
    assert [p for p, _ in doc.duplicate_keys] == [("name",)]
    assert doc._spans is None and doc.locate(("name",)).col == 15
    assert time.process_time() - t < 5
