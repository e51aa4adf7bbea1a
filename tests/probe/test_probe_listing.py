"""A tools/list response read once (mcplint.probe.listing): its message is what json.loads
gives, the capture cut from its offsets is what the parser's landmarks cut, and the capture laid
out from them is what reformatting the whole text gives."""

from __future__ import annotations

import json
import random

import pytest

from mcplint.probe.listing import read_page
from mcplint.probe.snapshot import _dump, reformat, result_layout, snapshot_text
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
    assert result_layout(t, 3, {}) == reformat(got.strip(), 3)


def test_pages_joined_and_laid_out_as_the_whole_text_is():
    rng = random.Random(7)
    for _ in range(40):
        pages = [{"raw": _random_page(rng)} for _ in range(rng.randrange(2, 5))]
        t = {"pages": pages}
        text = capture_text(t)
        done: dict = {}
        assert result_layout(t, 3, done) == reformat(text.strip(), 3)
        assert result_layout(t, 3, done) == reformat(text.strip(), 3)  # (laid out again from what is done)
        good = [json.loads(p["raw"])["result"] for p in pages if isinstance(json.loads(p["raw"])["result"].get("tools"), list)]
        if len(good) > 1:
            assert json.loads(text)["tools"] == [tool for r in good for tool in r["tools"]]


def test_a_page_given_as_its_message_is_laid_out_from_its_text():
    t = {"pages": [{"message": json.loads(PAGE1)}, {"raw": PAGE2}]}
    assert result_layout(t, 3, {}) == reformat(capture_text(t).strip(), 3)


def test_a_tool_listed_alike_is_laid_out_once():
    t1 = {"pages": [{"raw": PAGE2}]}
    t2 = {"pages": [{"raw": PAGE2.replace('"id": 3', '"id": 4')}]}
    done: dict = {}
    result_layout(t1, 3, done)
    (tool,) = done
    done[tool] = "LAID OUT"
    assert "LAID OUT" in result_layout(t2, 3, done)
    text = snapshot_text({"2025-06-18": t1, "2025-11-25": {"pages": [{"raw": PAGE1}]}}, "server")
    assert json.loads(text)["captures"][0]["result"] == json.loads(PAGE2)["result"]


def _random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind < 6:
        return rng.choice(["a", "é\u2028\x00\"\\/", "", 0, -1, 1.5, -0.0, float("nan"), float("inf"), True, False, None,
                           10 ** 30, "\ud800"])
    if kind == 6:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 7:
        return [rng.choice(["t_1", "ü", "\n"]) for _ in range(rng.randrange(4))]  # a list of names
    keys = [rng.choice(["a", "b", "ä", 1, 2.5, True, None]) if rng.random() < 0.2 else rng.choice("abcd")
            for _ in range(rng.randrange(4))]
    return {k: _random_value(rng, depth + 1) for k in keys} if rng.random() < 0.9 else tuple(keys)


def test_transcripts_are_written_as_json_dumps_writes_them():
    rng = random.Random(3)
    for indent in (0, 1, 3):
        for _ in range(300):
            value = _random_value(rng)
            assert _dump(value, indent) == json.dumps(value, indent=2, ensure_ascii=False).replace(
                "\n", "\n" + "  " * indent)
