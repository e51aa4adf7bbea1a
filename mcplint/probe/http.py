"""The Streamable HTTP transport, on the standard library's ``http.client``.

Each JSON-RPC message is its own POST; the answer is one JSON object or an SSE stream
(read line by line, comments and empty priming events skipped, until the response with
our id arrives). Legacy sessions carry ``Mcp-Session-Id``; 2025-06-18 and later carry
``MCP-Protocol-Version``; 2026-07-28 requests also carry ``Mcp-Method`` / ``Mcp-Name``.
Every read is bounded in size and time: each waits no longer than what is left of the
request's deadline and returns what arrived (a trickled answer cannot hold one read past it),
and a watchdog shuts the socket down at the deadline, which ends a read wherever it blocks
(the status line and headers included). A redirect that keeps the method (307, 308) to the same
origin is followed, as the clients' HTTP stacks follow it (fetch, httpx with the MCP SDKs'
settings), and remembered for the connection's later requests; one to another origin, or one
that turns the POST into a GET (301, 302, 303), is an error naming the URL to probe instead.
"""

from __future__ import annotations

import base64
import http.client
import json
import socket
import threading
import time
from urllib.parse import urljoin, urlsplit

from .connection import RequestTimeout
from .wire import Cancelled, ProbeError, Reply, Watchdog, clip, parse_message, read_some

MODERN = "2026-07-28"


def _header_value(value: str) -> str:
    try:
        value.encode("ascii")
        if value.isprintable():
            return value
    except UnicodeEncodeError:
        pass
    return "=?base64?" + base64.b64encode(value.encode()).decode() + "?="


def split_url(url: str):
    """``url`` split (``urlsplit``), or a ProbeError when it is no http(s) URL with a host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProbeError(f"--url must be an http:// or https:// URL, got {url!r}")
    return parts


def request_path(parts) -> str:
    """What goes on the request line for a split URL: its path (``/`` if none) and query."""
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def open_connection(scheme: str, host: str, port: int | None, timeout: float):
    cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    return cls(host, port, timeout=timeout)


class HttpConnection:
    transport = "http"

    def __init__(self, url: str, headers: dict, max_bytes: int, redact, cancel: threading.Event,
                 redirects: list | None = None):
        parts = split_url(url)
        self.url = url
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port
        self.path = request_path(parts)
        self.headers = dict(headers)
        self.max_bytes = max_bytes
        self.redact = redact
        self.cancel = cancel
        self.session_id: str | None = None
        self.statuses: list[int] = []  # of every POST answered (a legacy HTTP+SSE server refuses them all)
        self.noise: list[str] = []
        self.noise_count = 0
        self.late: dict = {}
        self.shutdown: str | None = None
        self._next_id = 0
        self.clock = time.monotonic  # what the read loops check their deadline against
        self.deadline: float | None = None  # the probe's overall deadline (self.clock time): no exchange outlasts it
        self.redirects = redirects if redirects is not None else []  # (from, to, status) of each redirect followed

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- one HTTP exchange --------------------------------------------------------------
    def _open(self, timeout: float):
        return open_connection(self.scheme, self.host, self.port, timeout)

    def _post(self, msg: dict, timeout: float, version: str | None, deadline: float | None = None):
        """Send ``msg``: (connection, response) once the status line and headers are read. The
        connection's ``watchdog`` shuts its socket down at ``deadline`` (``self.clock`` time;
        default ``timeout`` from now); ``sock`` is its socket for the reads that follow."""
        deadline = self._until(timeout) if deadline is None else deadline
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   **self.headers}
        if version:
            headers["MCP-Protocol-Version"] = version
        if version and version >= MODERN:
            headers["Mcp-Method"] = msg.get("method", "")
            name = (msg.get("params") or {}).get("name")
            if msg.get("method") == "tools/call" and isinstance(name, str):
                headers["Mcp-Name"] = _header_value(name)
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        what = msg.get("method", "a response")
        body = json.dumps(msg).encode()
        for _ in range(6):  # the first request and at most five redirects
            conn = self._open(max(0.001, min(timeout, deadline - self.clock())))
            conn.watchdog = None
            try:
                conn.request("POST", self.path, body=body, headers=headers)
                conn.kept_sock = conn.sock  # (the connection hands it to the response, which may drop it)
                conn.watchdog = Watchdog(conn.sock, deadline - self.clock())
                resp = conn.getresponse()
                if conn.watchdog.rang:  # the shutdown ended the headers early: they are not all there
                    raise TimeoutError("headers")
            except (OSError, http.client.HTTPException) as e:  # (socket timeouts and TLS errors are OSErrors)
                self._close(conn)
                if not isinstance(e, (socket.timeout, TimeoutError)) and not (conn.watchdog and conn.watchdog.rang):
                    self._raise_failed(e, what)
                if e.args == ("headers",) or not isinstance(e, (socket.timeout, TimeoutError,
                                                                   http.client.RemoteDisconnected)):
                    raise RequestTimeout(f"no complete HTTP response headers for {what} from {self.url} "
                                         f"within {timeout:g}s") from None
                raise RequestTimeout(f"no HTTP response to {what} from {self.url} within {timeout:g}s") from None
            location = resp.getheader("Location") if resp.status in (301, 302, 303, 307, 308) else None
            if not location:
                return conn, resp
            self._close(conn)
            self._redirect(resp.status, location, what)
        raise ProbeError(f"{self.redact(self.url)} redirected {what} more than five times",
                         expected="the server's MCP endpoint")

    def _until(self, timeout: float) -> float:
        """The deadline of an exchange that may take ``timeout`` seconds: no later than the probe's."""
        deadline = self.clock() + timeout
        return deadline if self.deadline is None else min(deadline, self.deadline)

    def _raise_failed(self, e: BaseException, what: str):
        if isinstance(e, ConnectionRefusedError):
            raise ProbeError(f"cannot connect to {self.url}: connection refused (is the server running?)") from None
        raise ProbeError(f"HTTP request to {self.url} failed while sending {what}: {type(e).__name__}: {e}") from None

    @staticmethod
    def _close(conn) -> None:
        if getattr(conn, "watchdog", None) is not None:
            conn.watchdog.cancel()
        conn.close()

    def _drain(self, conn, resp, limit: int, deadline: float) -> None:
        """Read and drop at most ``limit`` bytes of an answer nobody needs, until ``deadline``."""
        got = 0
        try:
            while got < limit and self.clock() < deadline:
                left = deadline - self.clock()
                chunk = read_some(resp, getattr(conn, "kept_sock", None), limit - got, left, left)
                if not chunk:
                    break
                got += len(chunk)
        except (OSError, http.client.HTTPException):
            pass

    def _redirect(self, status: int, location: str, what: str) -> None:
        """Follow a redirect of a POST: the same origin and the method kept, else a ProbeError."""
        target = urljoin(self.url, location)
        parts = urlsplit(target)
        shown = self.redact(target)
        if status not in (307, 308):
            raise ProbeError(f"{self.redact(self.url)} answered {what} with HTTP {status}, a redirect to {shown} that "
                             "turns the POST into a GET, so no MCP message reaches the server: probe --url "
                             f"{shown} (the MCP endpoint itself), and give clients that URL",
                             expected="the server's MCP endpoint")
        if (parts.scheme, parts.hostname, parts.port) != (self.scheme, self.host, self.port):
            raise ProbeError(f"{self.redact(self.url)} redirects {what} to {shown} (HTTP {status}), another origin: "
                             f"probe --url {shown} if that is the server", expected="the server's MCP endpoint")
        self.redirects.append((self.url, target, status))
        self.url, self.path = target, request_path(parts)

    def notify(self, method: str, params: dict | None = None, version: str | None = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        deadline = self._until(10)
        conn, resp = self._post(msg, 10, version, deadline)
        try:
            self._drain(conn, resp, self.max_bytes, deadline)
        finally:
            self._close(conn)

    def request(self, method: str, params: dict, timeout: float, version: str | None = None,
                what: str | None = None) -> Reply:
        rid = self.new_id()
        what = what or method
        deadline = self._until(timeout)
        conn, resp = self._post({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}, timeout, version,
                                deadline)
        self.statuses.append(resp.status)
        try:
            sid = resp.getheader("Mcp-Session-Id")
            if sid and method == "initialize":
                self.session_id = sid
            if resp.status in (401, 403):
                raise ProbeError(f"{self.url} answered {what} with HTTP {resp.status} {resp.reason}: "
                                 "the server wants credentials (pass them with --header 'Authorization: ...')")
            ctype = (resp.getheader("Content-Type") or "").split(";")[0].strip().lower()
            cut = RequestTimeout(f"no complete HTTP response to {what} from {self.url} within {timeout:g}s")
            if ctype == "text/event-stream" and resp.status == 200:
                try:
                    return self._read_sse(resp, conn.kept_sock, rid, what, deadline, timeout)
                except ProbeError:
                    if conn.watchdog.rang:  # the stream "ended" because the watchdog shut it
                        raise cut from None
                    raise
            body = self._read_body(resp, conn.kept_sock, what, deadline, timeout)
            if conn.watchdog.rang:  # the body "ended" because the watchdog shut the socket
                raise cut
            obj = parse_message(body) if body.strip() else None
            if isinstance(obj, dict) and ("result" in obj or "error" in obj):
                reply = Reply(body, obj)
            else:
                detail = f": {clip(self.redact(body.strip()), 200)!r}" if body.strip() else " with an empty body"
                reply = Reply(body, {"jsonrpc": "2.0", "id": rid, "error": {
                    "code": None, "message": f"HTTP {resp.status} {resp.reason}{detail}"}})
            reply.http_status = resp.status
            return reply
        except (socket.timeout, TimeoutError):
            raise RequestTimeout(f"no complete HTTP response to {what} from {self.url} within {timeout:g}s") from None
        except (OSError, http.client.HTTPException) as e:
            if conn.watchdog is not None and conn.watchdog.rang:
                raise RequestTimeout(f"no complete HTTP response to {what} from {self.url} "
                                     f"within {timeout:g}s") from None
            raise ProbeError(f"the connection to {self.url} broke while reading the answer to {what}: "
                             f"{type(e).__name__}: {e}") from None
        finally:
            self._close(conn)

    def _check(self, deadline: float, what: str, timeout: float) -> None:
        if self.cancel.is_set():
            raise Cancelled()
        if self.clock() > deadline:
            raise RequestTimeout(f"no complete HTTP response to {what} from {self.url} within {timeout:g}s")

    def _read_body(self, resp, sock, what: str, deadline: float, timeout: float) -> str:
        chunks, size = [], 0
        while True:
            self._check(deadline, what, timeout)
            chunk = read_some(resp, sock, 1 << 16, deadline - self.clock(), timeout)
            if not chunk:
                break
            size += len(chunk)
            if size > self.max_bytes:
                raise ProbeError(f"the HTTP response to {what} is over the limit of {self.max_bytes} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProbeError(f"the HTTP response to {what} is not UTF-8") from None

    def _lines(self, resp, sock, what: str, deadline: float, timeout: float):
        """The lines of an event stream as they arrive (the last one without its line break),
        the deadline checked before every read and at most ``max_bytes`` read in all."""
        pending, size, start = bytearray(), 0, 0  # (start: where the search for a line break resumes)
        while True:
            cut = pending.find(b"\n", start)
            if cut >= 0:
                yield bytes(pending[:cut + 1])
                del pending[:cut + 1]
                start = 0
                continue
            start = len(pending)
            self._check(deadline, what, timeout)
            chunk = read_some(resp, sock, 1 << 16, deadline - self.clock(), timeout)
            if not chunk:
                if pending:
                    yield bytes(pending)
                return
            size += len(chunk)
            if size > self.max_bytes:
                raise ProbeError(f"the SSE stream for {what} is over the limit of {self.max_bytes} bytes")
            pending += chunk

    def _read_sse(self, resp, sock, rid, what: str, deadline: float, timeout: float) -> Reply:
        """WHATWG event-stream: ``data`` lines joined by newlines, a blank line dispatches."""
        data: list[str] = []
        for line in self._lines(resp, sock, what, deadline, timeout):
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            if text.startswith(":"):
                continue
            if text:
                field, _, value = text.partition(":")
                if field == "data":
                    data.append(value[1:] if value.startswith(" ") else value)
                continue
            payload = "\n".join(data)
            data = []
            if not payload.strip():
                continue  # an empty (priming) event
            obj = parse_message(payload)
            if not isinstance(obj, dict):
                self.noise_count += 1
                if len(self.noise) < 20:
                    self.noise.append(clip(self.redact(payload)))
                continue
            if "method" in obj:
                continue  # request-scoped notifications; server requests are not served
            if obj.get("id") == rid:
                reply = Reply(payload, obj)
                reply.http_status = resp.status
                return reply
            self.late[obj.get("id")] = Reply(payload, obj)
        raise ProbeError(f"the SSE stream for {what} from {self.url} ended before the response arrived")

    def stderr_tail(self) -> str:
        return ""

    def close(self, grace: float = 2.0) -> str | None:
        if self.session_id:
            headers = {**self.headers, "Mcp-Session-Id": self.session_id}
            try:
                conn = self._open(min(grace, 5))
                conn.request("DELETE", self.path, headers=headers)
                conn.kept_sock = conn.sock
                conn.watchdog = Watchdog(conn.sock, min(grace, 5))
                try:
                    self._drain(conn, conn.getresponse(), 4096, self.clock() + min(grace, 5))
                finally:
                    self._close(conn)
            except (OSError, http.client.HTTPException):
                pass
            self.session_id = None
        return None

    def kill(self) -> None:
        self.close(1.0)
