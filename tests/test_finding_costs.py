"""What a finding costs after it is made: each shortcut in ``finish.finish``, in
``pysource.fixes.restate_all``, in ``Pointer.__str__`` and in the columns a worker sends
gives exactly what its plain path gives."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from mcplint import engine, finish
from mcplint.collect import collect
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.load import parse, read_source
from mcplint.finish import RuleHit
from mcplint.model import Finding, Fix, Pointer, Span
from mcplint.packing import pack_findings, unpack_findings
from mcplint.pysource import fixes
from mcplint.registry import RawFinding, all_rules

SERVERS = sorted((Path(__file__).parent.parent / "bench" / "servers").glob("*.tools.json"))
SAMPLE = [str(p) for p in SERVERS[::12]]  # 16 real servers, zod-generated ones among them
THREE = Config(profiles=("openai-strict", "anthropic-strict", "gemini"))


def _fields(findings) -> list:
    return [f._fields() for f in findings]


def test_the_sample_has_zod_documents_and_findings_that_share_places():
    assert len(SAMPLE) >= 12
    docs = [parse(read_source(p, 10**8)) for p in SAMPLE]
    assert sum(fixes.detect_generator(d) == "zod" for d in docs) >= 3
    found = lint_paths(SAMPLE, THREE, jobs=1).findings
    assert len({id(f.pointer) for f in found}) < len(found)  # the same place, several findings


def _meta(per_version: bool):
    return next(m for m in all_rules() if m.per_version == per_version and m.scope == "slot")


@pytest.fixture
def coll(tmp_path):
    path = tmp_path / "t.tools.json"
    path.write_text(json.dumps({"tools": [
        {"name": "a", "inputSchema": {"type": "object", "properties": {"0": {"type": "string"}}}},
        {"name": "b", "inputSchema": {"type": "object", "properties": {"x": {"type": "array", "items": [{}]}}}}]}))
    doc = parse(read_source(str(path), 10**6))
    return collect(doc, ("2025-06-18", "2025-11-25"))


def _finished(raw, coll) -> list:
    return finish.finish([RuleHit(*hit) for hit in raw], coll, Config())


def test_findings_equal_but_for_versions_merge_into_the_first(coll):
    meta, tool = _meta(True), coll.tools[0]
    at = tool.pointer / "inputSchema" / "properties" / "0"
    raw = [(meta, RawFinding(Pointer(at), "same words"), ("2025-11-25",), tool, "inputSchema", None),
           (meta, RawFinding(Pointer(at), "other words"), ("2025-11-25",), tool, "inputSchema", None),
           (meta, RawFinding(Pointer(at), "same words"), ("2025-06-18",), tool, "inputSchema", None),
           (meta, RawFinding(Pointer(at), "same words"), ("2025-06-18",), tool, "inputSchema", "gemini")]
    found = _finished(raw, coll)
    assert [(f.message, f.versions, f.profile) for f in found] == [
        ("same words", ("2025-06-18", "2025-11-25"), None), ("other words", ("2025-11-25",), None),
        ("same words", ("2025-06-18",), "gemini")]


def test_two_pointers_with_one_text_merge(coll):
    # ("tools", 0) and ("tools", "0") are two places with the text "/tools/0": the merge keys by
    # the text, as the report shows it
    meta, tool = _meta(False), coll.tools[0]
    raw = [(meta, RawFinding(Pointer(("tools", 0)), "m"), ("2025-11-25",), tool, None, None),
           (meta, RawFinding(Pointer(("tools", "0")), "m"), ("2025-06-18",), tool, None, None),
           (meta, RawFinding(Pointer(("tools", "0")), "n"), ("2025-06-18",), tool, None, None)]
    found = _finished(raw, coll)
    assert [(str(f.pointer), f.message, f.versions) for f in found] == [
        ("/tools/0", "m", ("2025-06-18", "2025-11-25")), ("/tools/0", "n", ("2025-06-18",))]


def test_ties_keep_the_order_the_findings_were_made_in(coll):
    # equal sort keys (one place, rule, severity, profile): the order made, however the places
    # interleave
    meta = _meta(False)
    a, b = coll.tools[0].pointer / "inputSchema", coll.tools[1].pointer / "inputSchema" / "properties" / "x"
    raw = [(meta, RawFinding(Pointer(p), m), ("2025-11-25",), t, "inputSchema", prof)
           for p, m, t, prof in [(b, "z", coll.tools[1], None), (a, "y", coll.tools[0], "gemini"),
                                 (b, "a", coll.tools[1], None), (a, "x", coll.tools[0], "gemini"),
                                 (b, "m", coll.tools[1], "gemini"), (a, "w", coll.tools[0], None)]]
    found = _finished(raw, coll)
    assert [f.message for f in found if f.profile is None and f.tool == "b"] == ["z", "a"]
    assert [f.message for f in found if f.profile == "gemini" and f.tool == "a"] == ["y", "x"]


def _plain_text(p) -> str:
    """RFC 6901, written plainly."""
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in p)


@pytest.mark.parametrize("steps", [(), ("a",), ("a/b", 0), ("~",), ("a~1",), (0, 1, "x"), ("%s",), ("%",),
                                   ("%(x)s", "%d"), ("a", -1, True), tuple(range(40)), ("",), ("", ""),
                                   ("tools", 3, "inputSchema", "properties", "q")])
def test_a_pointer_is_written_as_rfc_6901_says(steps):
    assert str(Pointer(steps)) == _plain_text(steps)


def test_restating_fixes_once_per_fix_is_restating_each_finding(monkeypatch):
    seen = []

    def both(findings, doc):
        out = restate_all(findings, doc)
        plain = [fixes.restate(f, doc) for f in findings]
        assert _fields(out) == _fields(plain)
        seen.append(sum(a.fix is not b.fix for a, b in zip(out, findings)))
        return out

    restate_all = fixes.restate_all
    monkeypatch.setattr(fixes, "restate_all", both)
    lint_paths(SAMPLE, THREE, jobs=1)
    assert sum(seen) > 100  # (fixes were restated)


def test_a_restated_fix_is_one_object_per_words_and_fix():
    path = next(p for p in SAMPLE if fixes.detect_generator(parse(read_source(p, 10**8))) == "zod")
    found = lint_paths([path], THREE, jobs=1).findings
    restated = [f.fix for f in found if f.fix and "[in the generated schema:" in f.fix.title]
    assert restated and len({id(x) for x in restated}) == len({x.title for x in restated})


def test_findings_cross_with_their_places_once_and_as_they_were():
    found = lint_paths(SAMPLE, THREE, jobs=1).findings
    back = unpack_findings(pickle.loads(pickle.dumps(pack_findings(found))))
    assert _fields(back) == _fields(found)
    assert all(type(f.pointer) is Pointer and (f.span is None or type(f.span) is Span) for f in back)
    # findings that shared a place (pointer, span and code location) still do, and no others
    assert _places(back) == _places(found) and len(set(_places(found))) < len(found)


def _places(findings) -> list:
    """Each finding's place, as the number of the first finding there."""
    first: dict = {}
    return [first.setdefault((id(f.pointer), id(f.span), id(f.source)), i) for i, f in enumerate(findings)]


def test_findings_of_other_shapes_cross_as_they_are():
    same = Pointer(("tools", 0))
    found = [Finding("X1", "x", 3, "m", "o", same, Span(1, 2, 3, 4)),
             Finding("X1", "x", 3, "m", "o", same, Span(5, 6, 7, 8)),  # one pointer, two spans: two places
             Finding("X2", "y", 1, "n", "o", same, None, fix=Fix("do it", ({"op": "remove", "path": "/a"},)))]
    back = unpack_findings(pickle.loads(pickle.dumps(pack_findings(found))))
    assert _fields(back) == _fields(found) and back[1].span == Span(5, 6, 7, 8)
    odd = [Finding("X1", "x", 3, "m", "o", ("tools", 0), (1, 2, 3, 4))]  # not a Pointer, not a Span
    back = unpack_findings(pickle.loads(pickle.dumps(pack_findings(odd))))
    assert _fields(back) == _fields(odd) and type(back[0].pointer) is tuple and type(back[0].span) is tuple
    assert unpack_findings(pack_findings([])) == []


@pytest.mark.slow
def test_findings_a_worker_packs_are_the_findings_made(tmp_path):
    capture = tmp_path / "capture.json"
    capture.write_text(json.dumps({"mcplintCapture": 1, "server": "s", "captures": [
        {"protocolVersions": ["2025-03-26"], "result": {"tools": [
            {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}]}, "transcripts": {}},
        {"protocolVersions": ["2025-06-18"], "result": {"tools": [
            {"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"format": "uri"}}}}]},
         "transcripts": {}}]}))
    py = str(Path(__file__).parent / "pyservers" / "lowlevel_server.py")
    paths = [*SAMPLE, str(capture), py]
    runs = [(THREE, paths), (Config(), paths)]
    for config, these in runs:
        sent = engine._lint_chunk(these, config)
        plain = [engine._lint_file(p, config) for p in these]
        assert [o.used for o in sent] == [o.used for o in plain]  # the same suppress entries used
        for back, found in zip([unpack_findings(o.findings) for o in sent], [o.findings for o in plain]):
            assert _fields(back) == _fields(found)
            assert _places(back) == _places(found)  # findings that shared a place still do, and no others
        assert sum(len(o.findings) for o in plain) > len(these)
        if len(runs) == 2:  # then with some of these findings suppressed, over half the files
            some = [f for o in plain[::2] for f in o.findings]  # (of the files linted again: some 8 of them)
            some = some[::max(1, len(some) // 8)]
            runs.append((Config(profiles=THREE.profiles, suppress=tuple(
                {"rule": f.rule, "pointer": str(f.pointer)} for f in some)), paths[::2]))
    assert len(runs[2][0].suppress) > 3 and sum(map(len, (o.used for o in sent))) > 3  # (some were suppressed)
