"""A partial source map (built for the pointers findings need, skipping every other
container) must give the same spans as the full map, including for missing paths,
duplicate keys, escaped keys, CRLF and a byte-order mark; duplicates are found without
any map."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import mcplint.load as load
from mcplint.model import Document, Source, Span
from mcplint.jsonparse import parse_json, parse_json_indexed
from mcplint.sourcemap import JsonMapper, json_duplicates, json_spans

DATA = Path(__file__).parent / "data"
FILES = sorted((DATA / "corpus").glob("*.json")) + sorted((DATA / "mcp-examples").rglob("*.json"))[:20]


def _check(text: str, extra=()):
    spans, _ = json_spans(text)
    full = Document(Source("f", text, "json"), None, _spans=spans)
    data, dups, landmarks = parse_json_indexed(text)
    assert (data, dups) == parse_json(text)
    assert landmarks  # valid JSON: the upper levels were recorded while parsing ...
    for p, entry in landmarks.items():
        assert spans.offsets[p] == entry, p  # ... exactly where the full map puts them
    for p in spans.offsets:  # a finding's span, made from two offsets: its member's key (or value) to its end
        key_span, value_span = spans.get(p)
        start = key_span or value_span
        assert spans.region(p) == Span(start.line, start.col, value_span.end_line, value_span.end_col), p
    rng = random.Random(7)
    keys = list(spans.offsets)
    sample = rng.sample(keys, min(40, len(keys)))
    every = keys if len(keys) <= 300 else rng.sample(keys, 300)
    ptrs = every + [p + ("missing",) for p in sample] + [p + (99,) for p in sample] + list(extra)
    # scanned from the top, and from the landmarks (which the loader uses only where no key repeats:
    # a scan from a landmark stops at the first mapping of what it looks for)
    for marks in (None, None if dups else landmarks):
        for chunk in (ptrs[:5], ptrs):  # a small wanted set (most skipped) and a large one
            partial = Document(Source("f", text, "json"), None,
                               _mapper=JsonMapper(marks))
            partial.prepare(chunk)
            for p in chunk:
                assert partial.locate(p) == full.locate(p), p
        late = Document(Source("f", text, "json"), None,
                        _mapper=JsonMapper(marks))
        late.prepare(ptrs[:1])
        for p in ptrs[-3:]:  # a pointer the partial map was not built for extends it
            assert late.locate(p) == full.locate(p), p


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_same_spans_as_the_full_map(path):
    _check(path.read_text(encoding="utf-8"))


def test_tricky_text():
    text = ('\ufeff{"a~b/c": [1, {"x": "\\"}"}],\r\n "d": {"k": 1, "k": {"z": [ ]}},\t"\\u00e9": null,'
            ' "n": [[], [[{}]]]}')
    _check(text, extra=[("d", "k", "z"), ("a~b/c", 1, "x"), ("é",), ("n", 1, 0, 0), ("n", "x")])


SHAPES = [  # every document shape, at the depths the landmarks stop at, and scalars where containers go
    '{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}},'
    ' {"name": "b", "inputSchema": {"properties": {"x": {"enum": [1, 2]}}}}], "nextCursor": null}}',
    '[{"name": "a", "inputSchema": {"type": "object", "properties": {"p": {"items": [{}, []]}}}}, 7, []]',
    '{"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}',
    '{"tools": [{"name": "a", "inputSchema": {"$defs": {"d": {"type": "integer"}}}}, "x", [[1, [2]]]]}',
    '  {"protocolVersions": ["2026-07-28"], "tools": {"t": {"inputSchema": {"type": "object"}}}} \r\n',
    '"just a string"', "[]", "{}", "[[[[[[]]]]]]", '{"a": {"b": {"c": {"d": {"e": {}}}}}}',
]


@pytest.mark.parametrize("text", SHAPES)
def test_landmarks_in_every_shape(text):
    _check(text)


@pytest.mark.parametrize("text", ['{"a": 1,}', '{"a": NaN}', '[1, 2', '{"a": "tab\there"}', '{"a"\n 1}',
                                  '\ufeff\ufeff{}', '{"a": 1} x', '{"k": "\\q"}'])
def test_no_landmarks_for_what_json_refuses(text):
    import json

    try:
        expected = parse_json(text)
    except (json.JSONDecodeError, ValueError) as e:
        with pytest.raises(type(e)) as got:
            parse_json_indexed(text)
        assert str(got.value) == str(e)  # json's own message and position
    else:
        assert parse_json_indexed(text) == (*expected, None)


def test_a_wanted_container_is_mapped_without_its_content():
    big = '{"name": "t", "inputSchema": {"enum": [' + ", ".join(str(i) for i in range(50_000)) + "]}}"
    wanted = {("inputSchema", "enum")}
    spans, _ = json_spans(big, False, wanted)
    assert set(spans.offsets) == {(), ("inputSchema",), ("inputSchema", "enum")}
    assert spans.get(("inputSchema", "enum")) == json_spans(big)[0].get(("inputSchema", "enum"))


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
    assert doc._spans is None
    doc.prepare([("name",)])
    assert doc.locate(("name",)).col == 15
    assert time.process_time() - t < 5


def test_a_repeated_key_is_located_where_the_last_one_is():
    from mcplint.load import load_text

    text = '{"tools": [{"name": "a", "title": 1, "inputSchema": {"type": "object"}, "title": "T"}]}'
    doc = load_text(text, "t.json")
    full, _ = json_spans(text)
    doc.prepare([("tools", 0, "title")])
    assert doc.locate(("tools", 0, "title")) == Document(Source("f", text, "json"), None, _spans=full).locate(
        ("tools", 0, "title"))
    assert doc.locate(("tools", 0, "title")).col == text.rindex('"title"') + 1



@pytest.mark.parametrize("text", [FILES[0].read_text(encoding="utf-8"), SHAPES[0], '\ufeff{"a": [1, {"b": 2}]}',
                                  '{\r\n  "a": {"b": [\r\n 1]}, "c": "x"\r\n}'])
def test_a_warmed_region_is_the_one_its_offsets_give(text):
    # warm() makes each region at once from the lines and columns it counted; it must be the one
    # region() builds from the entry's two offsets, for a map warmed in pieces as for one at once
    ptrs = list(json_spans(text)[0].offsets)
    plain = json_spans(text)[0]
    for chunks in ([ptrs], [ptrs[::2], ptrs[1::2]]):
        spans = json_spans(text)[0]
        for chunk in chunks:
            spans.warm(chunk)
        assert set(spans.regions) == set(ptrs)
        for p in ptrs:
            ks, ke, vs, ve = plain.offsets[p]
            assert spans.region(p) == Span(*plain.lines.pos(ks if ks >= 0 else vs), *plain.lines.pos(ve)), p
