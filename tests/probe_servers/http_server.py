"""A small Streamable HTTP MCP server on the standard library (127.0.0.1 only), sharing the
MCP logic of ``stdio_server.handle``. Extra flags: ``--sse`` (answer as an event stream,
with a priming event, a comment and a notification before the response), ``--auth TOKEN``
(401 without ``Authorization: Bearer TOKEN``), and ``--legacy-sse`` (only the HTTP+SSE
transport of 2024-11-05: a GET opens an event stream whose first event names the endpoint
to POST messages to, the answers come on the stream, a POST to the URL itself is 405;
``--sse-endpoint URL`` names another endpoint, ``--sse-ping`` sends a ping request first), and
``--redirect STATUS`` (a POST to a path without a trailing slash is answered STATUS with
``Location`` the path and a slash, as a Starlette mount answers ``/mcp``; ``--redirect-to URL``
gives another ``Location``).

Run as a script it prints its URL and serves until killed (used by the benchmark).
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import stdio_server  # noqa: E402


def make_server(argv: list[str]) -> ThreadingHTTPServer:
    extra = {"sse": False, "auth": None, "legacy_sse": False, "sse_endpoint": None, "sse_ping": False,
             "redirect": None, "redirect_to": None}
    rest = []
    it = iter(argv)
    for a in it:
        if a == "--sse":
            extra["sse"] = True
        elif a == "--legacy-sse":
            extra["legacy_sse"] = True
        elif a == "--sse-ping":
            extra["sse_ping"] = True
        elif a == "--sse-endpoint":
            extra["sse_endpoint"] = next(it)
        elif a == "--auth":
            extra["auth"] = next(it)
        elif a == "--redirect":
            extra["redirect"] = int(next(it))
        elif a == "--redirect-to":
            extra["redirect_to"] = next(it)
        else:
            rest.append(a)
    opt = stdio_server.options(rest)
    sessions: dict[str, dict] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):  # keep test output quiet
            pass

        def _send(self, status: int, body: bytes = b"", ctype: str = "application/json", headers=()):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_DELETE(self):
            sessions.pop(self.headers.get("Mcp-Session-Id", ""), None)
            self._send(200)

        def do_GET(self):
            if not extra["legacy_sse"]:
                self._send(405)
                return
            import queue

            sid = uuid.uuid4().hex
            events: queue.Queue = queue.Queue()
            sessions[sid] = {"state": {}, "events": events}
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            endpoint = extra["sse_endpoint"] or f"/messages?session_id={sid}"
            try:
                self.wfile.write(f": hello\n\nevent: endpoint\ndata: {endpoint}\n\n".encode())
                if extra["sse_ping"]:
                    ping = {"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}
                    self.wfile.write(f"event: message\ndata: {json.dumps(ping)}\n\n".encode())
                self.wfile.flush()
                while True:
                    try:
                        msg = events.get(timeout=0.5)
                    except queue.Empty:
                        self.wfile.write(b": keep-alive\n\n")  # (fails once the client has gone)
                        self.wfile.flush()
                        continue
                    self.wfile.write(f"event: message\ndata: {json.dumps(msg)}\n\n".encode())
                    self.wfile.flush()
            except OSError:
                pass
            finally:
                sessions.pop(sid, None)

        def _legacy_post(self):
            from urllib.parse import parse_qs, urlsplit

            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            if not urlsplit(self.path).path.startswith("/messages"):
                self._send(405, b"Method Not Allowed", "text/plain")
                return
            sid = (parse_qs(urlsplit(self.path).query).get("session_id") or [""])[0]
            if sid not in sessions:
                self._send(404, b"Could not find session", "text/plain")
                return
            msg = json.loads(body)
            self._send(202, b"Accepted", "text/plain")
            if "method" not in msg:  # a response to our ping
                return
            reply = stdio_server.handle(opt, msg, sessions[sid]["state"])
            if reply is not None and "id" in msg:
                sessions[sid]["events"].put(reply)

        def do_POST(self):
            if extra["redirect"] and not self.path.endswith("/"):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self._send(extra["redirect"], headers=[("Location", extra["redirect_to"] or self.path + "/")])
                return
            if extra["legacy_sse"]:
                self._legacy_post()
                return
            if extra["auth"] and self.headers.get("Authorization") != f"Bearer {extra['auth']}":
                self._send(401, b'{"error": "unauthorized"}')
                return
            msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if opt.hang:
                time.sleep(5)
                return
            if opt.garbage:
                self._send(200, b"<html>Welcome to nginx!</html>", "text/html")
                return
            if "id" not in msg:
                self._send(202)
                return
            meta = (msg.get("params") or {}).get("_meta") or {}
            version = meta.get("io.modelcontextprotocol/protocolVersion")
            sid = self.headers.get("Mcp-Session-Id")
            if version:  # the modern era: stateless, headers must agree with _meta
                if not opt.modern:
                    self._send(400, b"Bad Request: No valid session ID provided", "text/plain")
                    return
                if self.headers.get("MCP-Protocol-Version") != version or \
                        self.headers.get("Mcp-Method") != msg.get("method"):
                    body = stdio_server.error(msg["id"], -32020, "Header mismatch")
                    self._send(400, json.dumps(body).encode())
                    return
                state: dict = {}
            elif msg.get("method") == "initialize":
                sid = uuid.uuid4().hex
                state = sessions[sid] = {}
            elif sid in sessions:
                state = sessions[sid]
            else:
                self._send(400, b"Bad Request: No valid session ID provided", "text/plain")
                return
            reply = stdio_server.handle(opt, msg, state)
            if reply is None:
                self._send(404, json.dumps(stdio_server.error(msg["id"], -32601, "Method not found")).encode())
                return
            headers = [("Mcp-Session-Id", sid)] if msg.get("method") == "initialize" and sid else []
            status = 400 if "error" in reply and reply["error"]["code"] == -32022 else 200
            if extra["sse"] and status == 200:
                note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}
                body = (f"id: 1\ndata:\n\n: keep-alive\n\nevent: message\ndata: {json.dumps(note)}\n\n"
                        f"event: message\ndata: {json.dumps(reply)}\n\n").encode()
                self._send(200, body, "text/event-stream", headers)
            else:
                self._send(status, json.dumps(reply).encode(), headers=headers)

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


def serve_in_thread(argv: list[str]):
    server = make_server(argv)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/mcp"


if __name__ == "__main__":
    srv = make_server(sys.argv[1:])
    print(f"http://127.0.0.1:{srv.server_address[1]}/mcp", flush=True)
    srv.serve_forever()
