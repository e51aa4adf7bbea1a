"""``mcplint probe`` plays both clients of the JSON Structure MCP binding (binding §4, §4.1):
real servers (tests/probe_servers/stdio_server.py with ``--binding``, also over HTTP) that
serve one tool's inputSchema as JSON Structure to a client advertising
``org.json-structure/schema-binding`` and as a JSON Schema projection to the others, well
or badly. Nothing on the wire is mocked."""

from __future__ import annotations

import json

from .common import findings, probe, rules

MODERN = ("--protocol-version", "2026-07-28")


def cap(i: int, ptr: str) -> str:
    """A pointer into the ``i``-th capture of the capture document (mcplint.capture): the
    captures are the distinct results, oldest version first, then the bound listing."""
    return f"/captures/{i}/result{ptr}"


def listings(log) -> list[str]:
    """The tools/list requests the server saw, each with the extensions the client advertised."""
    return [line for line in log.read_text().splitlines() if line.startswith("tools/list")]


def test_conforming_server_is_listed_twice_and_passes(tag, tmp_path):
    log = tmp_path / "requests.log"
    r = probe("--format", "json", server=["--modern", "--binding", "negotiate", "--log-requests", str(log),
                                          "--tag", tag])
    assert r.exit_code == 0, r.output
    assert findings(r) == []
    assert "2026-07-28: tools/list also captured as a client advertising org.json-structure/schema-binding\n" \
        in r.stderr
    # legacy revisions have no extensions capability: one listing each; 2026-07-28: one per client
    assert sorted(listings(log)) == ["tools/list -"] * 5 + ["tools/list org.json-structure/schema-binding"]
    # the JSON Structure listing is a capture of its own (legacy group, 2026-07-28, 2026-07-28 bound);
    # the server's 3 tools are counted once
    summary = json.loads(r.stdout)["summary"]
    assert [s["tools"] for s in summary.pop("servers")] == [3]  # one server, no file (nothing saved)
    assert summary == {"files": 0, "tools": 3, "errors": 0, "warnings": 0, "infos": 0}


def test_bound_listing_is_linted_by_every_family(tag):
    """What only the advertising client gets is a capture of its own, linted by every rule family."""
    r = probe("--format", "json", *MODERN, select="MCP125,PRB117",
              server=["--modern", "--binding", "negotiate", "--binding-only-tool", "--tag", tag])
    assert sorted((f["rule"], f["pointer"]) for f in findings(r)) == [
        ("MCP125", cap(1, "/tools/3/inputSchema")), ("PRB117", cap(1, "/tools/3/name"))]
    assert any("'units' is listed to a client that advertised" in f["message"] for f in findings(r))


def test_plain_server_costs_no_extra_round_trip(tag, tmp_path):
    log = tmp_path / "requests.log"
    r = probe("--format", "json", *MODERN, server=["--modern", "--log-requests", str(log), "--tag", tag])
    assert r.exit_code == 0 and findings(r) == []
    assert listings(log) == ["tools/list -"]
    assert "also captured" not in r.stderr
    log.unlink()
    r = probe("--format", "json", *MODERN, "--schema-binding", "always",
              server=["--modern", "--log-requests", str(log), "--tag", tag])
    assert listings(log) == ["tools/list -", "tools/list org.json-structure/schema-binding"]
    assert "(the same result)" in r.stderr and json.loads(r.stdout)["summary"]["tools"] == 2


def test_jstruct_sent_to_every_client(tag):
    r = probe("--format", "json", server=["--modern", "--binding", "everyone", "--tag", tag])
    assert r.exit_code == 1
    got = sorted((f["rule"], f["pointer"], f["protocol_version"]) for f in findings(r))
    assert got == [  # (one problem in both captures: one finding, naming every version)
        ("PRB109", cap(0, "/tools/2/inputSchema/$schema"), "2024-11-05,2025-03-26,2025-06-18,2025-11-25,2026-07-28"),
    ]  # the server advertises the extension: no PRB114; both clients got the same: no bound document
    assert "(the same result)" in r.stderr


def test_fallback_that_rejects_what_the_jstruct_schema_accepts(tag):
    r = probe("--format", "json", *MODERN, server=["--modern", "--binding", "negotiate", "--fallback", "strict",
                                                   "--tag", tag])
    assert r.exit_code == 1
    (f,) = findings(r)
    assert (f["rule"], f["pointer"], f["tool"]) == \
        ("PRB116", cap(0, "/tools/2/inputSchema/properties/request_id"), "convert")
    assert "is not of type 'integer'" in f["message"] and '"request_id": "' in f["message"]


def test_server_that_does_not_advertise_the_extension(tag, tmp_path):
    # JSON Structure to everyone, extension not advertised: both the client's and the server's side are wrong
    r = probe("--format", "json", *MODERN, server=["--modern", "--binding", "everyone", "--binding-unadvertised",
                                                   "--tag", tag])
    assert sorted((f["rule"], f["pointer"]) for f in findings(r)) == [
        ("PRB109", cap(0, "/tools/2/inputSchema/$schema")), ("PRB114", cap(0, "/tools/2/inputSchema/$schema"))]
    # Negotiating without advertising shows nothing to a plain client, so by default the probe
    # does not ask twice (a plain server costs one listing); --schema-binding always does.
    log = tmp_path / "requests.log"
    flags = ["--modern", "--binding", "negotiate", "--binding-unadvertised", "--log-requests", str(log), "--tag", tag]
    r = probe("--format", "json", *MODERN, server=flags)
    assert findings(r) == [] and listings(log) == ["tools/list -"]
    r = probe("--format", "json", *MODERN, "--schema-binding", "always", server=flags)
    assert [(f["rule"], f["pointer"]) for f in findings(r)] == [("PRB114", cap(1, "/tools/2/inputSchema/$schema"))]


def test_over_streamable_http(http_server):  # noqa: F811
    url = http_server("--modern", "--legacy", "", "--binding", "negotiate", "--fallback", "strict", "--sse")
    r = probe("--format", "json", url=url)
    assert r.exit_code == 1, r.output
    assert [(f["rule"], f["pointer"]) for f in findings(r)] == [
        ("PRB116", cap(0, "/tools/2/inputSchema/properties/request_id"))]
    assert "also captured as a client advertising" in r.stderr
    assert rules(probe("--format", "json", url=http_server("--modern", "--legacy", "", "--binding", "negotiate"))) \
        == set()


def test_fallback_check_is_bounded_on_hostile_schemas():
    """A server's JSON Structure schema can ask for 10**9 characters or items, or nest
    hundreds deep: PRB116 stays fast and quiet instead of exhausting memory or the stack."""
    import time

    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.probe.transcript import example_document

    vs = "https://json-structure.org/meta/validation/v0/#"
    huge = {"$schema": vs, "$id": "https://t.example/h", "name": "H", "type": "object", "required": ["s", "a"],
            "properties": {"s": {"type": "string", "minLength": 10**9},
                           "a": {"type": "array", "items": {"type": "string"}, "minItems": 10**9}}}
    deep: dict = {"type": "string"}
    for _ in range(200):
        deep = {"type": "object", "properties": {"x": deep}, "required": ["x"]}
    deep.update({"$schema": vs, "$id": "https://t.example/d", "name": "D"})

    def page(tools):
        return [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}}]

    transcript = {"clientExtensions": [], "pages": page([{"name": "h", "inputSchema": {"type": "object"}},
                                                        {"name": "d", "inputSchema": {"type": "object"}}]),
                  "pairedPass": {"clientExtensions": ["org.json-structure/schema-binding"],
                                 "pages": page([{"name": "h", "inputSchema": huge}, {"name": "d", "inputSchema": deep}])}}
    doc = example_document(json.dumps(transcript), ["2026-07-28"])
    t0 = time.process_time()  # CPU time: a busy machine does not fail this
    _, found = lint_document(doc, Config().with_overrides(select=("PRB116",), protocol_versions=("2026-07-28",)))
    assert time.process_time() - t0 < 5
    assert found == []
