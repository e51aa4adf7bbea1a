"""The HTTP+SSE transport of 2024-11-05: a server that refuses the Streamable HTTP POST but
opens an event stream on GET is probed over it (every legacy version, one stream each), said
so, and its capture scans back to the same findings; what cannot work is a clear error."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from mcplint.cli import main

LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


def probe(*args):
    return CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", *args], catch_exceptions=False)


def test_legacy_sse_server_is_probed_over_its_transport(http_server, tmp_path):  # noqa: F811
    url = http_server("--legacy-sse", "--only-in", "2025-03-26", "--sse-ping").replace("/mcp", "/sse")
    snap = tmp_path / "snap.json"
    r = probe("--format", "json", "--save", str(snap), "--url", url)
    assert r.exit_code == 0, r.output
    assert "speaks the HTTP+SSE transport of 2024-11-05" in r.stderr and "Streamable HTTP" in r.stderr
    assert "2026-07-28 (not over the HTTP+SSE transport" in r.stderr
    found = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["protocol_version"]) for f in found] == [("PRB102", "2025-03-26")]
    doc = json.loads(snap.read_text())
    transcripts = {v: t for c in doc["captures"] for v, t in c["transcripts"].items()}
    assert sorted(transcripts) == LEGACY and {t["transport"] for t in transcripts.values()} == {"sse"}
    s = CliRunner().invoke(main, ["scan", "--no-config", "--select", "PRB", "--format", "json", str(snap)])
    assert json.loads(s.stdout)["findings"] == found


def test_legacy_sse_what_cannot_work_is_a_clear_error(http_server):  # noqa: F811
    url = http_server("--legacy-sse").replace("/mcp", "/sse")
    r = probe("--protocol-version", "2026-07-28", "--url", url)
    assert r.exit_code == 2
    assert "speaks only the HTTP+SSE transport of 2024-11-05, which 2026-07-28 does not define" in r.stderr
    assert "--protocol-version 2025-11-25" in r.stderr and "Traceback" not in r.output

    elsewhere = http_server("--legacy-sse", "--sse-endpoint", "http://other.example:9/messages")
    r = probe("--url", elsewhere, "--timeout", "3")
    assert r.exit_code == 2 and "not on" in r.stderr and "origin" in r.stderr and "other.example" in r.stderr


@pytest.fixture
def refuses_everything():
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def _no(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = _no

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


def test_a_url_that_refuses_everything_says_so(refuses_everything):
    r = probe("--url", refuses_everything)
    assert r.exit_code == 2
    assert "every POST to it was refused (HTTP 4xx), and it is no HTTP+SSE server" in r.stderr
    assert "HTTP 405" in r.stderr and "is --url the server's MCP endpoint?" in r.stderr


def test_client_configs_name_the_sse_transport(http_server, tmp_path):  # noqa: F811
    sse = http_server("--legacy-sse").replace("/mcp", "/sse")
    streamable = http_server()
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"old": {"type": "sse", "url": sse},
                                              "new": {"type": "http", "url": streamable}}}))
    r = CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", "--format", "json", "--from", str(cfg)])
    got = {s["name"]: s for s in json.loads(r.stdout)["summary"]["servers"]}
    assert r.exit_code == 0, r.output
    assert got["old"]["status"] == "probed" and got["old"]["transport"] == "sse"
    assert got["new"]["status"] == "probed" and got["new"]["transport"] == "http"
    assert "old: " in r.stderr and "speaks the HTTP+SSE transport" in r.stderr

    (tmp_path / ".gemini").mkdir()
    gem = tmp_path / ".gemini" / "settings.json"
    gem.write_text(json.dumps({"mcpServers": {"g": {"url": sse}}}))  # Gemini CLI: url is an SSE endpoint
    r = CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", "--format", "json", "--from", str(gem)])
    got = {s["name"]: s for s in json.loads(r.stdout)["summary"]["servers"]}
    assert r.exit_code == 0 and got["g"]["transport"] == "sse" and got["g"]["status"] == "probed"
