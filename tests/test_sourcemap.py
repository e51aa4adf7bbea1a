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
        warmed.warm(batch)
        assert warmed.known and all(warmed.pos(off) == naive(off) for off in batch)
        others = [rnd.randrange(len(text) + 1) for _ in range(50)]
        assert [warmed.pos(off) for off in others] == [naive(off) for off in others]


@pytest.mark.parametrize("text", ['\ufeff \r\n {"tools": []}\n\n', '[1, 2]', '\t"x"  ', '{"a": {"b": [1, {"c": 2}]}}'])
def test_root_alone_is_mapped_without_a_scan(text):
    from mcplint.sourcemap import json_spans

    full = json_spans(text, False)[0]
    root_only = json_spans(text, False, {()})[0]
    assert root_only.get(()) == full.get(()) is not None
    assert len(root_only) == 1
