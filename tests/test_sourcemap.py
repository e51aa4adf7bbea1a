"""line:column on real text: tabs, CRLF, escaped keys, ~ and / in keys, non-ASCII, YAML."""

from __future__ import annotations

import pytest

from mcplint.load import load_text
from mcplint.model import Pointer


def at(doc, *parts):
    span = doc.locate(Pointer(parts))
    return (span.line, span.col)


def test_tabs_and_crlf():
    text = '{\r\n\t"name": "t",\r\n\t"inputSchema": {\r\n\t\t"type": "object"\r\n\t}\r\n}'
    doc = load_text(text)
    assert at(doc, "name") == (2, 2)
    assert at(doc, "inputSchema", "type") == (4, 3)


def test_escaped_and_special_keys():
    text = '{"a\\u0062": 1,\n "x~y": {"p/q": [10, {"é": true}]}}'
    doc = load_text(text)
    assert doc.data["ab"] == 1
    assert at(doc, "ab") == (1, 2)
    assert at(doc, "x~y", "p/q", 1, "é") == (2, 23)
    assert str(Pointer(("x~y", "p/q", 1, "é"))) == "/x~0y/p~1q/1/é"


def test_non_ascii_columns_count_code_points():
    doc = load_text('{"d": "日本語", "k": 1}')
    assert at(doc, "k") == (1, 14)


def test_missing_pointer_falls_back_to_nearest_ancestor():
    doc = load_text('{"tools": [\n  {"name": "a"}\n]}')
    assert at(doc, "tools", 0, "inputSchema") == (2, 3)


def test_string_containing_braces_and_quotes():
    doc = load_text('{"a": "{[\\"]}", "b": 2}')
    assert at(doc, "b") == (1, 17)


def test_bom_is_accepted():
    doc = load_text('\ufeff{"a": 1}')
    assert doc.data == {"a": 1}
    assert at(doc, "a") == (1, 2)


def test_duplicates_json():
    doc = load_text('{"a": 1,\n "a": 2}')
    assert doc.data == {"a": 2}
    [(ptr, first)] = doc.duplicate_keys
    assert ptr == ("a",) and first.line == 1
    assert at(doc, "a") == (2, 2)


def test_yaml_spans_and_scalars():
    text = "tools:\n  - name: t\n    inputSchema:\n      type: object\n      created: 2024-01-01\n"
    doc = load_text(text, "x.yaml", "yaml")
    assert doc.data["tools"][0]["inputSchema"]["created"] == "2024-01-01"
    assert at(doc, "tools", 0, "inputSchema", "type") == (4, 7)


def test_yaml_alias_bomb_is_bounded():
    import pytest

    from mcplint.errors import InputError
    from mcplint.load import parse
    from mcplint.model import Source

    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 10) + "]")
    with pytest.raises(InputError, match="too large"):
        parse(Source("bomb.yaml", "\n".join(lines), "yaml"), max_nodes=100_000)


def test_offset_to_line_and_column_in_both_modes():
    """Lines converts the first offsets by counting from the nearest converted one, then
    switches to a table of line starts: both must agree with a plain count, in any order."""
    import random

    from mcplint.linecol import Lines

    text = '{\r\n\t"a": "é\\u00e9",\n\n  "b": [1,\n2]}\n' * 50
    rnd = random.Random(3)
    offsets = [rnd.randrange(len(text) + 1) for _ in range(3 * Lines.CHECKPOINTS)] + [0, len(text)]

    def naive(off):
        return text.count("\n", 0, off) + 1, off - (text.rfind("\n", 0, off) + 1) + 1

    lines = Lines(text)
    for i, off in enumerate(offsets):
        assert lines.pos(off) == naive(off), (i, off)
    assert lines.starts is not None  # the table took over after the checkpoints
    small = Lines(text)
    for off in sorted(offsets[:10], reverse=True):
        assert small.pos(off) == naive(off)
    assert small.starts is None
    for batch in (sorted(set(offsets[:40])), sorted(set(offsets))):  # warmed in one pass, then asked
        warmed = Lines(text)
        assert warmed.warm(batch) == {off: naive(off) for off in batch}
        assert bool(warmed.known) == (len(batch) < Lines.CHECKPOINTS)  # a big batch is its caller's to keep
        assert all(warmed.pos(off) == naive(off) for off in batch)
        others = [rnd.randrange(len(text) + 1) for _ in range(50)]
        assert [warmed.pos(off) for off in others] == [naive(off) for off in others]


@pytest.mark.parametrize("text", ['\ufeff \r\n {"tools": []}\n\n', '[1, 2]', '\t"x"  ', '{"a": {"b": [1, {"c": 2}]}}'])
def test_root_alone_is_mapped_without_a_scan(text):
    from mcplint.sourcemap import json_spans

    full = json_spans(text, False)[0]
    root_only = json_spans(text, False, {()})[0]
    assert root_only.get(()) == full.get(()) is not None
    assert len(root_only) == 1


# ---------------------------------------------------------------- a leading byte-order mark
# Offsets index the text as read (the BOM included), so a slice of it is the value; columns count
# from the character after the BOM, as editors show line 1 (the BOM is not a visible column).

BOM_JSON = '{"tools": [{"name": "a", "inputSchema": {"type": "object"}}],\r\n\t"x": {"k": [1, {"deep": true}]}}'


@pytest.mark.parametrize("fmt,text,places", [
    ("json", BOM_JSON, {("tools", 0, "inputSchema"): (1, 26), ("x", "k", 1, "deep"): (2, 18), ("x",): (2, 2)}),
    ("yaml", "tools: [{name: a, inputSchema: {type: object}}]\nx:\n  k: [1, {deep: true}]\n",
     {("tools", 0, "inputSchema"): (1, 19), ("x", "k", 1, "deep"): (3, 11), ("x",): (2, 1)}),
])
def test_bom_columns_are_those_of_the_text_without_it(fmt, text, places):
    for ptr, want in places.items():
        assert at(load_text(text, f"t.{fmt}", fmt), *ptr) == want
        assert at(load_text("\ufeff" + text, f"t.{fmt}", fmt), *ptr) == want, ptr


def test_bom_offsets_index_the_text_as_read():
    from mcplint.jsonparse import parse_json_indexed
    from mcplint.sourcemap import json_duplicates, json_spans

    text = "\ufeff" + BOM_JSON
    full = json_spans(text)[0]
    assert text[slice(*full.offsets[("tools", 0, "inputSchema")][2:])] == '{"type": "object"}'
    assert text[slice(*full.offsets[("x",)][:2])] == '"x"'
    _, _, marks = parse_json_indexed(text)  # the landmarks parsing records: the same offsets
    assert all(marks[p] == full.offsets[p] for p in marks)
    partial = json_spans(text, False, {("x", "k", 1, "deep")}, marks)[0]
    assert partial.get(("x", "k", 1, "deep")) == full.get(("x", "k", 1, "deep"))
    [(ptr, first)] = json_duplicates('\ufeff{"a": 1, "a": 2}')
    assert ptr == ("a",) and (first.line, first.col) == (1, 2)
    assert json_spans('\ufeff  "s"', False, {()})[0].get(())[1].col == 3  # only the root wanted


def test_bom_columns_agree_on_every_path_of_the_line_table():
    """Lines converts offsets by a batch pass, by checkpoints, and past CHECKPOINTS by a table of
    line starts: each counts line 1 from after the BOM."""
    from mcplint.linecol import Lines

    text = "\ufeff" + "ab\tc" * 100 + "\n" + "xyz" * 100 + "\n"
    def naive(o):
        line = text.count("\n", 0, o) + 1
        start = text.rfind("\n", 0, o) + 1
        return line, o - start + 1 - (1 if line == 1 else 0)
    offsets = range(1, len(text))
    warmed = Lines(text)
    batch = warmed.warm(list(offsets))
    lazy = Lines(text)
    assert [warmed.pos(o) for o in offsets] == [lazy.pos(o) for o in offsets] == [naive(o) for o in offsets]
    assert [batch[o] for o in offsets] == [naive(o) for o in offsets]
    assert lazy.starts is not None  # the table of line starts was built and used
    assert Lines(text).pos(1) == (1, 1) and Lines(text[1:]).pos(0) == (1, 1)


@pytest.mark.parametrize("fmt,text", [("json", '{"tools": [{"name": "a", "inputSchema": {"type": "object"}'),
                                      ("json", '{"a": NaN}'), ("json", '{"a": 1 "b": 2}'),
                                      ("yaml", "tools: [{name: a, : }")])
def test_bom_errors_are_placed_as_without_it(fmt, text):
    from mcplint.errors import InputError

    where = []
    for t in (text, "\ufeff" + text):
        with pytest.raises(InputError) as e:
            load_text(t, f"t.{fmt}", fmt)
        where.append((e.value.line, e.value.col))
    assert where[0] == where[1] and where[0][0] == 1


def _many_tools(n: int) -> str:
    import json

    return json.dumps({"tools": [{"name": f"t{i}", "description": "d", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}}}} for i in range(n)]},
        separators=(",", ":"))


def test_many_places_are_mapped_by_one_scan_per_landmark_planned_on_its_own(monkeypatch):
    """100,000 findings' places: each tool's scan is planned just before it runs, from the landmark
    above it (planning every pointer at once held twice the map it made)."""
    import tracemalloc

    from mcplint import sourcemap
    from mcplint.jsonparse import parse_json_indexed
    from mcplint.sourcemap import json_spans

    text = _many_tools(300)
    _, _, marks = parse_json_indexed(text)
    wanted = {("tools", i, "inputSchema", "properties", k) for i in range(300) for k in ("id", "n")}
    full = json_spans(text, False)[0]
    tracemalloc.start()
    try:
        part = json_spans(text, False, set(wanted), marks)[0]
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(part.offsets[p] == full.offsets[p] for p in wanted)
    assert peak < 1.5 * held, (peak, held)  # (2.1 times when every pointer was planned at once)
    scans: list = []
    real = sourcemap._scan

    def counting(text, pos, prefix, *rest):
        scans.append((prefix, len(rest[2])))  # (where it starts, how many containers it reads)
        return real(text, pos, prefix, *rest)

    monkeypatch.setattr(sourcemap, "_scan", counting)
    json_spans(text, False, set(wanted), marks)
    assert sorted(prefix for prefix, _ in scans) == [("tools", i) for i in range(300)]
    assert {containers for _, containers in scans} == {3}  # the tool, its inputSchema, its properties
