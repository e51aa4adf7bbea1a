"""Bounded work on hostile input: a regular expression whose nested counted repetitions would
make the ECMA-262 engine allocate gigabytes (and abort the process) is not matched and ends as a
finding. Bounds are asserted on what the code decides and on memory, never on the clock."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import lint_json
from mcplint import ecma
from mcplint.cli import main
from mcplint.profiles.vacuous import vacuous_pattern
from mcplint.validate import INCOMPLETE, validate_instance

# Matches the empty string after 10^8 iterations: regress asks for ~4 GB on "" (5 GB and an
# abort, SIGABRT, with larger counts). Every string matches it, so it looks vacuous.
BOMB = "(?:(?:a?){10000}){10000}"


@pytest.mark.parametrize("pattern", [BOMB, "(?:(?:(?:x?){100}){100}){1000}", "a{99999999999999999999999}",
                                     "((?:a?){2000})(?:b{3}){4,}|(?:(?:c){1000}){1001}"])
def test_nested_counts_past_the_bound_are_not_matched(pattern):
    assert ecma.iterations(pattern) > ecma.MAX_ITERATIONS
    assert "iterations" in ecma.too_complex(pattern)
    with pytest.raises(ecma.PatternTooComplex):
        ecma.search(pattern, "")  # matched here, it would abort the test process
    with pytest.raises(ecma.PatternTooComplex):
        ecma.search_within([(pattern, "aaa")], 1.0)


@pytest.mark.parametrize("pattern,expected", [
    (r"^[a-z]{1,64}(\.[a-z]{1,64}){0,10}$", 640),
    (r"^(?:[A-Za-z0-9+/]{4}){0,1000}$", 4000),
    (r"^\d{4}-\d{2}-\d{2}$", 4),
    (r"^(a+)+$", 1),  # unbounded quantifiers stop at an empty iteration: the text bounds them
    (r"\p{L}{5}[{]{3}\u{1F600}{7}", 7),  # braces of escapes and classes are not quantifiers
    (r"a{,5}\{9}x{2,}", 2),  # not quantifiers (a literal brace), then {2,} counts 2
    (r"(?:(?:a?){1000}){1000}", 1_000_000),
])
def test_ordinary_patterns_stay_under_the_bound(pattern, expected):
    assert ecma.iterations(pattern) == expected
    assert ecma.too_complex(pattern) is None


def test_a_bomb_is_not_vacuous_so_the_weakening_is_reported():
    assert vacuous_pattern("(?:a?){3}")  # matched: every string matches it
    assert not vacuous_pattern(BOMB)  # not matched: doubtful, so not vacuous
    tools = [{"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {"x": {"type": "string", "pattern": BOMB}},
        "required": ["x"], "additionalProperties": False}}]
    found = lint_json(tools, profiles=["gemini"])
    assert [str(f.pointer) for f in found if f.rule == "DEC002"] == ["/0/inputSchema/properties/x/pattern"]


def test_project_reports_the_pattern_weakened(tmp_path):
    f = tmp_path / "t.json"
    f.write_text(json.dumps([{"name": "t", "inputSchema": {
        "type": "object", "properties": {"x": {"type": "string", "pattern": BOMB}}}}]))
    r = CliRunner().invoke(main, ["project", str(f), "--profile", "gemini", "-o", str(tmp_path / "out.json")])
    assert r.exit_code == 1, r.output
    assert "weakened: /0/inputSchema/properties/x/pattern" in r.output


def test_validate_says_the_pattern_was_not_matched():
    problems = validate_instance({"type": "string", "pattern": BOMB}, "aaaa")
    assert [(p.code, p.keyword) for p in problems] == [(INCOMPLETE, "pattern")]
    assert "not matched" in problems[0].message and "100,000,000 iterations" in problems[0].message
    problems = validate_instance({"type": "object", "patternProperties": {BOMB: {"type": "integer"}}}, {"a": "x"})
    assert [(p.code, p.keyword) for p in problems] == [(INCOMPLETE, "patternProperties")]


def test_the_match_helper_runs_under_a_memory_limit():
    code = ("from mcplint import ecma\necma._limit_memory()\n"
            "try:\n    bytearray(ecma.HELPER_MEMORY + (1 << 20))\nexcept MemoryError:\n    print('refused')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if sys.platform.startswith("linux"):
        assert r.stdout.strip() == "refused", r.stdout + r.stderr


# ------------------------------------------------------------------ probe: a server that trickles

class _Trickle:
    """A local HTTP server that answers every POST a byte at a time (``mode``: "body", a JSON
    body of a declared length; "sse", an event stream whose one line never ends; "headers",
    the status line and then headers that never end), and counts the bytes it sent."""

    def __init__(self, mode: str):
        import http.server
        import threading

        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if mode == "headers":
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                else:
                    self.send_response(200)
                    ctype = "text/event-stream" if mode == "sse" else "application/json"
                    self.send_header("Content-Type", ctype)
                    if mode == "body":
                        self.send_header("Content-Length", "100000")
                    self.end_headers()
                    if mode == "sse":
                        self.wfile.write(b"data: ")
                owner.trickle(self.wfile)

            def do_GET(self):  # the legacy HTTP+SSE transport's event stream
                if mode == "headers":  # headers that never end
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                    owner.trickle(self.wfile)
                    return
                self.send_response(200)  # its endpoint, then nothing: the POSTs' answers trickle
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.write(b"event: endpoint\ndata: /mcp\n\n")
                self.wfile.flush()
                owner.stop.wait(30)

        self.sent = 0
        self.stop = threading.Event()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/mcp"

    def trickle(self, out):
        try:
            while not self.stop.wait(0.01) and self.sent < 100000:
                out.write(b"x")
                out.flush()
                self.sent += 1
        except OSError:
            pass

    def close(self):
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


class _FakeClock:
    """A clock that advances one second each time it is read: a read loop that checks its
    deadline runs out of it after a few reads, whatever the machine's speed."""

    def __init__(self):
        self.now, self.reads = 1000.0, 0

    def __call__(self):
        self.reads += 1
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("mode", ["body", "sse"])
def test_a_trickled_answer_cannot_outlast_the_requests_deadline(mode):
    import threading

    from mcplint.probe.http import HttpConnection
    from mcplint.probe.stdio import RequestTimeout

    server = _Trickle(mode)
    try:
        conn = HttpConnection(server.url, {}, 1 << 20, lambda s: s, threading.Event())
        conn.clock = _FakeClock()
        with pytest.raises(RequestTimeout, match="within 8s"):
            conn.request("tools/list", {}, 8.0)
        # eight seconds of the (fake) clock: a handful of reads, each returning what had
        # arrived; reading until a buffer filled (64 KiB) or a line ended would never end
        assert conn.clock.reads <= 12
        assert server.sent < 1000
    finally:
        server.close()


def test_trickled_headers_are_cut_at_the_deadline_by_the_watchdog():
    import threading

    from mcplint.probe.http import HttpConnection
    from mcplint.probe.stdio import RequestTimeout

    server = _Trickle("headers")
    try:
        conn = HttpConnection(server.url, {}, 1 << 20, lambda s: s, threading.Event())
        seen = []
        real_post = conn._post

        def post(*args):
            got = real_post(*args)
            seen.append(got[0])
            return got

        conn._post = post
        # each byte arrives well within the socket's timeout: only the watchdog ends the wait
        with pytest.raises(RequestTimeout, match="headers"):
            conn.request("tools/list", {}, 0.3)
        assert not seen  # the headers were never complete
        assert server.sent < 100000
    finally:
        server.close()


def test_the_legacy_event_streams_trickled_headers_are_cut_too():
    import threading

    from mcplint.probe.sse import SseConnection
    from mcplint.probe.wire import ProbeError

    server = _Trickle("headers")
    try:
        with pytest.raises(ProbeError, match="within 0.3s to the GET"):
            SseConnection(server.url, {}, 1 << 20, lambda s: s, threading.Event(), connect_timeout=0.3)
        assert server.sent < 100000
    finally:
        server.close()


# ------------------------------------------------------------------ project: bounded work

def _fan(n: int) -> dict:
    """A 200-byte schema whose every property refers back to the root: a target that needs
    references inlined unrolls it into thousands of nodes (6^3 paths, each rewritten)."""
    return {"type": "object", "properties": {f"p{k}": {"$ref": "#"} for k in range(n)}}


def test_a_projection_past_its_work_bound_leaves_the_tool_out_and_says_so():
    from mcplint.config import Bounds
    from mcplint.project import project_schema
    from mcplint.project.projector import WORK_PER_SUBSCHEMA
    from mcplint.project.tree import budget

    small = Bounds(max_subschemas=100)
    with budget(None) as spent:
        projected, items = project_schema(_fan(6), "openai-agents-js", bounds=small)
    assert projected is None
    [item] = [i for i in items if i.kind == "left-out"]
    assert item.subject == "work" and "10,000 units of work" in item.message
    limit = small.max_subschemas * WORK_PER_SUBSCHEMA
    assert limit < spent.used < 2 * limit  # it stopped at its bound (one copy past it at most)


def test_a_document_past_its_work_bound_leaves_the_rest_out_with_located_items():
    from mcplint.config import Bounds
    from mcplint.load import load_text
    from mcplint.project import project_document
    from mcplint.project.projector import DOCUMENT_WORK_PER_SUBSCHEMA, WORK_PER_SUBSCHEMA
    from mcplint.project.tree import budget

    small = Bounds(max_subschemas=400)
    tools = [{"name": f"t{i}", "inputSchema": _fan(3)} for i in range(40)]
    doc = load_text(json.dumps(tools), "t.json", "json")
    with budget(None) as spent:
        res = project_document(doc, "openai-agents-js", bounds=small)
    statuses = [o.status for o in res.tools]
    assert statuses[0] != "left-out" and statuses[-1] == "left-out"
    cut = [i for i in res.items if i.subject == "work"]
    assert cut and all(i.kind == "left-out" and "not projected" in i.message for i in cut)
    assert cut[-1].pointer == (39,) and cut[-1].tool == "t39"
    doc_limit = small.max_subschemas * DOCUMENT_WORK_PER_SUBSCHEMA
    assert spent.used <= doc_limit + 2 * small.max_subschemas * WORK_PER_SUBSCHEMA


def test_real_servers_schemas_stay_far_inside_the_work_bound():
    import glob
    import os

    from mcplint.load import load_text
    from mcplint.project import project_document

    for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "data", "corpus", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = load_text(f.read(), path, "json")
        for profile in ("openai-agents-js", "gemini-openapi"):
            res = project_document(doc, profile)
            assert not [i for i in res.items if i.subject == "work"], path


# ------------------------------------------------------------------ large inputs

def _alias_bomb(width: int, levels: int) -> str:
    lines = ["name: bomb", "inputSchema: {type: object}", "x0: &x0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_yaml_aliases_repeating_past_the_cap_are_a_located_error_before_anything_is_built():
    import tracemalloc

    from mcplint.errors import InputError
    from mcplint.load import load_text
    from mcplint.yamlmap import MAX_ALIAS_VALUES

    text = _alias_bomb(10, 6)  # 393 bytes, a million values once expanded
    assert len(text) < 400
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as e:
            load_text(text, "bomb.yaml", "yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"repeat more than {MAX_ALIAS_VALUES:,} values" in str(e.value)
    assert (e.value.line, e.value.col) == (7, 5)  # the value where the repetition passed the cap
    assert peak < 5 * 2**20  # refused on the composed nodes: the million values were never built


def test_yaml_anchors_shared_within_the_cap_still_load():
    from mcplint.load import load_text

    shared = "defs: &s {type: object, properties: {" + ", ".join(f"p{i}: {{type: string}}" for i in range(40)) + "}}\n"
    tools = "tools:\n" + "".join(f"  - {{name: t{i}, inputSchema: *s}}\n" for i in range(500))
    doc = load_text(shared + tools, "t.yaml", "yaml")
    assert len(doc.data["tools"]) == 500 and len(doc.data["tools"][499]["inputSchema"]["properties"]) == 40


def test_a_large_yaml_file_is_read_without_the_cycle_collector():
    import gc

    from mcplint.yamlmap import parse_yaml

    text = "tools:\n" + "".join(f"  - name: tool_{i}\n    inputSchema:\n      type: object\n      properties:\n"
                                f"        id: {{type: string}}\n" for i in range(3000))
    passes = []

    def count(phase, info):  # a pass started from inside the parse (not another thread's, or at exit)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_name != "_parse_yaml":
            frame = frame.f_back
        if phase == "start" and frame is not None:
            passes.append(info["generation"])

    gc.callbacks.append(count)
    try:
        data, spans, _ = parse_yaml(text, 2_000_000)
    finally:
        gc.callbacks.remove(count)
    assert len(data["tools"]) == 3000 and spans[("tools", 2999, "name")][1].line == 1 + 5 * 2999 + 1
    assert passes == []  # some 60,000 objects made and kept: no collector pass was spent on them
    assert gc.isenabled()


def test_a_notification_is_cut_at_the_probes_overall_deadline():
    import threading

    from mcplint.probe.http import HttpConnection

    server = _Trickle("body")
    try:
        conn = HttpConnection(server.url, {}, 1 << 20, lambda s: s, threading.Event())
        conn.clock = _FakeClock()
        conn.deadline = conn.clock.now + 4  # the overall deadline, four (fake) seconds away (the notification allows 10)
        conn.notify("notifications/initialized")  # its answer trickles: dropped at the deadline
        assert conn.clock.reads <= 9  # (without the overall deadline: 17, the ten seconds of its own)
        assert server.sent < 1000
    finally:
        server.close()


def test_a_trickled_answer_to_a_legacy_post_is_cut_at_the_overall_deadline():
    import threading
    import time

    from mcplint.probe.sse import SseConnection
    from mcplint.probe.stdio import RequestTimeout

    server = _Trickle("body")
    conn = None
    try:
        conn = SseConnection(server.url, {}, 1 << 20, lambda s: s, threading.Event(), connect_timeout=10)
        conn.deadline = time.monotonic() + 0.4  # the probe's overall deadline, before the POST's own (10 s)
        with pytest.raises(RequestTimeout, match="POST of notifications/initialized"):
            conn.notify("notifications/initialized")
        assert server.sent < 100000  # cut off, not read to its end
    finally:
        if conn is not None:
            conn.close(0.5)
        server.close()
