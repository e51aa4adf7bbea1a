"""A tools/list response read once (mcplint.probe.listing): its message is what json.loads
gives, the capture cut from its offsets is what the parser's landmarks cut, and the capture laid
out from them is what reformatting the whole text gives."""

from __future__ import annotations

import json
import random

import pytest

from mcplint.jsonparse import parse_json
from mcplint.probe.listing import Listed, read_page
from mcplint.errors import InputError
from mcplint.load import load_text
from mcplint.probe.snapshot import reformat, result_layout, snapshot, snapshot_document, snapshot_text
from mcplint.probe.transcript import _slicer, capture_text, page_message

PAGE1 = ('{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"type":"object",'
         '"maximum":1.0e2,"type":"object"}}],"nextCursor":"c1"}}')
PAGE2 = '{"jsonrpc": "2.0", "id": 3, "result": {"tools": [\n  {"name": "b", "inputSchema": {"type": "object"}}\n]}}'
ODD = [
    PAGE1, PAGE2,
    ' \r\n{ "id" : 1 ,\t"result" :{ "tools" : [ ] , "_meta" : { } } } \n',  # empty containers, whitespace
    '{"id":1,"result":{"tools":[{"name":"x"}],"tools":[{"name":"y","a":[],"b":{}}],"n":-0.0}}',  # "tools" twice
    '{"id":1,"result":{"tools":[{"name":"x"}]},"result":{"t\\u006fols":[{"name":"\\u00e9 é"}]}}',  # escaped key
    '{"id":1,"result":{"tools":[{"name":"x"}]},"result":null}',  # the last result is no object
    '{"id":1,"result":{"tools":{"name":"x"},"nextCursor":"2"}}',  # tools is no array
    '{"id":1,"result":{"tools":[1e400, NaN, 12345678901234567890, "a\\"b\\\\"]}}',
    '[{"id":1,"result":{"tools":[]}}]', '"just a string"', '{"id":1,"result":{"tools":[]}} trailing',
    '{"id":1,"result":{"tools":[}}', "", "\ufeff{}", '{"id":1,"result":{"tools":[{"a":1}],}}',
]


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return rng.choice(["1", "-0.5e3", "true", "null", "0", "1E+2"])
    if kind in (1, 2, 3):
        return json.dumps(rng.choice(["q", "é", "a\nb", "", "\u2028", "tools"]), ensure_ascii=rng.random() < 0.5)
    ws = lambda: rng.choice(["", " ", "\n  ", "\t", "\r\n"])  # noqa: E731
    if kind == 4:
        return "[" + ws() + ("," + ws()).join(_random_json(rng, depth + 1) for _ in range(rng.randrange(4))) + ws() + "]"
    keys = [rng.choice(["type", "name", "a", "tools", "nextCursor", "x\\u0079"]) for _ in range(rng.randrange(4))]
    return "{" + ws() + ("," + ws()).join(f'"{k}"{ws()}:{ws()}{_random_json(rng, depth + 1)}' for k in keys) + ws() + "}"


def _random_page(rng: random.Random) -> str:
    tools = "[" + ", ".join(_random_json(rng, 2) for _ in range(rng.randrange(5))) + "]"
    members = [f'"tools": {tools}'] + [f'"{k}": {_random_json(rng, 2)}' for k in
                                       rng.sample(["nextCursor", "_meta", "tools", "x"], rng.randrange(3))]
    rng.shuffle(members)
    return '{"jsonrpc": "2.0", "id": 1, "result": {' + ", ".join(members) + "}}"


PAGES = ODD + [_random_page(random.Random(seed)) for seed in range(150)]


def _loads(text):
    try:
        return "ok", json.loads(text)
    except (ValueError, RecursionError) as e:
        return "error", type(e)


@pytest.mark.parametrize("text", PAGES)
def test_a_page_reads_as_json_loads_reads_it(text):
    try:
        got = "ok", read_page(text)[0]
    except (ValueError, RecursionError) as e:
        got = "error", type(e)
    assert repr(got) == repr(_loads(text))  # (repr: NaN, -0.0 and 1 against 1.0 told apart)


def _same_value(value, text: str) -> None:
    """``value`` (unless None: not known) is what parsing ``text`` as a file gives."""
    try:
        parsed, repeats = parse_json(text)
    except ValueError:  # (NaN)
        parsed, repeats = None, True
    if value is not None:
        assert not repeats and repr(value) == repr(parsed)


def _cut_by_parsing(text: str) -> str | None:
    """The single page's result, cut where parsing the page (the landmarks; else a map of it)
    puts it (None where the map has no JSON to read: NaN)."""
    try:
        return _slicer(text)(("result",)) + "\n"
    except KeyError:
        return None


@pytest.mark.parametrize("text", PAGES)
def test_one_page_cut_and_laid_out_as_the_whole_text_is(text):
    t = {"pages": [{"raw": text}]}
    expected = _cut_by_parsing(text) if page_message(t["pages"][0]) is not None else None
    got = capture_text(t)
    if expected is not None and got != '{"tools": []}\n':
        assert got == expected
    laid, value = result_layout(t, 3, {})
    assert laid == reformat(got.strip(), 3)
    _same_value(value, laid)


def test_pages_joined_and_laid_out_as_the_whole_text_is():
    rng = random.Random(7)
    for _ in range(40):
        pages = [{"raw": _random_page(rng)} for _ in range(rng.randrange(2, 5))]
        t = {"pages": pages}
        text = capture_text(t)
        done: dict = {}
        laid, value = result_layout(t, 3, done)
        assert laid == reformat(text.strip(), 3)
        _same_value(value, laid)
        assert result_layout(t, 3, done) == (laid, value)  # (laid out again from what is done)
        good = [json.loads(p["raw"])["result"] for p in pages if isinstance(json.loads(p["raw"])["result"].get("tools"), list)]
        if len(good) > 1:
            assert json.loads(text)["tools"] == [tool for r in good for tool in r["tools"]]


def test_a_page_given_as_its_message_is_laid_out_from_its_text():
    t = {"pages": [{"message": json.loads(PAGE1)}, {"raw": PAGE2}]}
    assert result_layout(t, 3, {})[0] == reformat(capture_text(t).strip(), 3)


def test_a_tool_listed_alike_is_laid_out_once():
    t1 = {"pages": [{"raw": PAGE2}]}
    t2 = {"pages": [{"raw": PAGE2.replace('"id": 3', '"id": 4')}]}
    done: dict = {}
    result_layout(t1, 3, done)
    (tool,) = done
    done[tool] = ("LAID OUT", done[tool][1])
    assert "LAID OUT" in result_layout(t2, 3, done)[0]
    text = snapshot_text({"2025-06-18": t1, "2025-11-25": {"pages": [{"raw": PAGE1}]}}, "server")
    assert json.loads(text)["captures"][0]["result"] == json.loads(PAGE2)["result"]


def _transcript(raws: list, names=()) -> dict:
    return {"transport": "stdio", "handshake": {"method": "initialize", "message": {"jsonrpc": "2.0", "id": 1,
            "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}}}},
            "pages": [{"raw": r} for r in raws], "cursorLoop": None, "pageLimit": None, "stdoutNoise": [],
            "stdoutNoiseCount": 0, "otherVersions": {"2024-11-05": list(names)}, "calls": [], "shutdown": "exited",
            "clientExtensions": [], "pairedPass": None}


def _captures(rng: random.Random) -> dict:
    """{version: transcript}: pages of random results, some versions alike, some paged."""
    pages = [_random_page(rng) for _ in range(3)]
    out = {}
    for v in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")[:rng.randrange(1, 5)]:
        out[v] = _transcript(rng.sample(pages, rng.randrange(1, 3)), [f"t{rng.randrange(3)}", "é"])
    return out


def _same_document(transcripts: dict, **extra) -> bool:
    """The capture document made from what the pages parsed to is the one parsing its text
    makes (data, landmarks, duplicate keys, places, input error); whether it was so made."""
    text, known = snapshot(transcripts, "python server.py", {"2026-07-28": "no"}, **extra)
    assert text == snapshot_text(transcripts, "python server.py", {"2026-07-28": "no"}, **extra)
    try:
        plain = load_text(text, "cap.json", "json")
    except InputError as e:
        with pytest.raises(InputError) as made:
            snapshot_document(text, known, "cap.json")
        assert str(made.value) == str(e)
        return False
    doc = snapshot_document(text, known, "cap.json")
    assert repr(doc.data) == repr(plain.data) and doc.duplicate_keys == plain.duplicate_keys
    assert (doc._mapper.landmarks if doc._mapper else None) == (plain._mapper.landmarks if plain._mapper else None)
    pointers = [(), ("captures", 0, "result", "tools", 0, "name"), ("captures", 0, "transcripts"), ("unsupported",),
                ("captures", len(doc.data["captures"]) - 1, "result", "nextCursor"), ("server",)]
    doc.prepare(pointers)
    plain.prepare(pointers)
    assert [doc.locate(p) for p in pointers] == [plain.locate(p) for p in pointers]
    return known is not None


def test_the_capture_document_is_the_one_its_text_parses_to():
    rng = random.Random(11)
    made = [_same_document(_captures(rng), **({"disabled_tools": ["a"]} if i % 3 else {})) for i in range(60)]
    assert 20 < sum(made) < 60  # both ways taken
    nan = _transcript([PAGE2])
    nan["handshake"]["message"]["result"]["n"] = float("nan")  # (a transcript JSON does not allow)
    assert not _same_document({"2025-06-18": nan})
    assert not _same_document({"2025-06-18": _transcript([PAGE1])})  # a repeated key: DOC001 reads the file
    assert not _same_document({"2025-06-18": _transcript([PAGE2.replace('"b"', '"\\ud800"')])})  # lone surrogate
    assert _same_document({"2025-06-18": _transcript([PAGE2.replace('"b"', '"\\ud83d\\ude00 \\u00e9"')])})
    assert _same_document({"2025-06-18": _transcript([PAGE2.replace('"b"', '"\U0001F600"')])})


def test_a_tool_listed_alike_at_the_same_index_is_one_value():
    listed = Listed()
    one = '{"id": 1, "result": {"tools": [{"name": "a", "x": 1, "x": 2}, {"name": "b"}, 1, {"name": "c"}]}}'
    two = '{"id": 2, "result": {"tools": [{"name": "a", "x": 1, "x": 2}, {"name": "B"}, 12, {"name": "c"}]}}'
    (m1, cut1), (m2, cut2) = read_page(one, listed), read_page(two, listed)
    assert repr((m1, m2)) == repr((json.loads(one), json.loads(two)))
    assert not cut1.plain and cut2 is None  # (12 is not 1: that page read in full, by json.loads)
    three = two.replace("12", "2")
    m3, cut3 = read_page(three, listed)
    assert repr(m3) == repr(json.loads(three))
    t1, t3 = m1["result"]["tools"], m3["result"]["tools"]  # (the page read in full left what it follows as it was)
    assert t3[0] is t1[0] and t3[3] is t1[3] and t3[1] is not t1[1]
    assert not cut3.plain  # (its first tool repeats a key, though that tool was not parsed again)
    m4, cut4 = read_page(three.replace('"x": 2', '"y": 2'), listed)
    assert cut4.plain and m4["result"]["tools"][1] is t3[1]


def test_versions_listing_a_tool_alike_share_its_value():
    def page(rid, first):
        tools = [{"name": first}] + [{"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(3)]
        return json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}})

    transcripts = {"2025-06-18": _transcript([page(2, "a")]), "2025-11-25": _transcript([page(3, "b")])}
    text, known = snapshot(transcripts, "server")
    doc = snapshot_document(text, known, "cap.json")
    one, two = (c["result"]["tools"] for c in doc.data["captures"])
    assert one[1] is two[1] and one[3] is two[3] and one[0] != two[0]  # (made from the pages, not from the text)
    assert repr(doc.data) == repr(load_text(text, "cap.json", "json").data)
