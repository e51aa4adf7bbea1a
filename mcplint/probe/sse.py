"""The HTTP+SSE transport of MCP 2024-11-05 (deprecated since 2025-03-26), on ``http.client``.

The client opens an event stream with ``GET`` on the server's URL; the server's first event
is ``endpoint``, whose data is the URI (relative to the stream's) to ``POST`` messages to.
Each POST is answered ``202 Accepted``, and the JSON-RPC responses arrive as ``message``
events on the stream. One stream is one session, so each protocol version gets a stream
of its own, as each gets a process of its own over stdio. Spec: "HTTP with SSE" in
https://modelcontextprotocol.io/specification/2024-11-05/basic/transports, and "Backwards
Compatibility" in the 2025-03-26 transports page (a client tries Streamable HTTP first and,
on a 4xx answer to its POST, opens the old event stream).

The endpoint must have the stream's origin (scheme, host and port): mcplint sends the
configured headers, credentials among them, to no other host. Every read is bounded: in size,
and in time by a watchdog that shuts the socket down at the deadline (a server that trickles
its headers or its answer a byte at a time cannot hold a read past it).
"""

from __future__ import annotations

import http.client
import json
import queue
import socket
import ssl
import threading
import time
from urllib.parse import urljoin, urlsplit

from .connection import RequestTimeout
from .http import open_connection, request_path, split_url
from .wire import Cancelled, ProbeError, Reply, Watchdog, clip, parse_message, put_bounded, read_some, \
    server_request_answer

QUEUE_SIZE = 256


class SseConnection:
    transport = "sse"

    def __init__(self, url: str, headers: dict, max_bytes: int, redact, cancel: threading.Event,
                 connect_timeout: float = 30.0):
        parts = split_url(url)
        self.url, self.headers, self.max_bytes, self.redact, self.cancel = url, dict(headers), max_bytes, redact, cancel
        self.origin = (parts.scheme, parts.hostname, parts.port)
        self.noise: list[str] = []
        self.noise_count = 0
        self.late: dict = {}
        self.shutdown: str | None = None
        self.endpoint: str | None = None
        self._next_id = 0
        self._q: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        self._closed = False
        self._endpoint_ready = threading.Event()
        self._endpoint_error: str | None = None
        self.deadline: float | None = None  # the probe's overall deadline (time.monotonic): no POST outlasts it
        self._stream = open_connection(parts.scheme, parts.hostname, parts.port, connect_timeout)
        try:
            self._stream.request("GET", request_path(parts), headers={"Accept": "text/event-stream", **self.headers})
            self._sock = self._stream.sock  # (kept: the connection hands it to the response)
            with Watchdog(self._sock, connect_timeout) as dog:
                try:
                    resp = self._stream.getresponse()
                    if dog.rang:  # the shutdown ended the headers early: they are not all there
                        raise TimeoutError()
                except (OSError, http.client.HTTPException):
                    if dog.rang:
                        raise TimeoutError() from None
                    raise
        except (socket.timeout, TimeoutError):
            self._stream.close()
            raise ProbeError(f"no answer from {url} within {connect_timeout:g}s to the GET that opens the "
                             "HTTP+SSE event stream") from None
        except ConnectionRefusedError:
            self._stream.close()
            raise ProbeError(f"cannot connect to {url}: connection refused (is the server running?)") from None
        except (OSError, http.client.HTTPException, ssl.SSLError) as e:
            self._stream.close()
            raise ProbeError(f"the GET that opens the HTTP+SSE event stream at {url} failed: "
                             f"{type(e).__name__}: {e}") from None
        ctype = (resp.getheader("Content-Type") or "").split(";")[0].strip().lower()
        if resp.status != 200 or ctype != "text/event-stream":
            self._stream.close()
            raise ProbeError(f"{url} answered the GET that opens an HTTP+SSE event stream with HTTP {resp.status} "
                             f"{resp.reason} ({ctype or 'no Content-Type'}), not an event stream")
        self._resp = resp
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- the event stream (reader thread) ---------------------------------------------------
    def _read(self) -> None:
        try:
            self._sock.settimeout(None)  # the stream may stay quiet as long as it likes (waits are bounded above)
        except OSError:
            pass
        event, data, size = "", [], 0
        try:
            while not self._closed:
                line = self._resp.readline(self.max_bytes + 1)
                if not line:
                    break
                size += len(line)
                if size > self.max_bytes:
                    self._put(("overflow", None))
                    return
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                if text.startswith(":"):
                    continue
                if text:
                    name, _, value = text.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "event":
                        event = value
                    elif name == "data":
                        data.append(value)
                    continue
                self._dispatch(event or "message", "\n".join(data))
                event, data, size = "", [], 0
        except (OSError, http.client.HTTPException, ValueError, AttributeError):  # (closed under it)
            pass
        try:
            self._resp.close()
        except (OSError, AttributeError):
            pass
        if not self._endpoint_ready.is_set():
            self._endpoint_error = "the event stream ended before its endpoint event"
            self._endpoint_ready.set()
        self._put(("eof", None))

    def _dispatch(self, event: str, payload: str) -> None:
        if event == "endpoint":
            target = urljoin(self.url, payload.strip())
            parts = urlsplit(target)
            if (parts.scheme, parts.hostname, parts.port) != self.origin:
                self._endpoint_error = (f"its endpoint event names {clip(self.redact(target), 200)!r}, not on "
                                        f"{self.url}'s origin (mcplint sends the server's headers to no other host)")
            elif self.endpoint is None:
                self.endpoint = target
            self._endpoint_ready.set()
            return
        if not payload.strip():
            return
        obj = parse_message(payload)
        if isinstance(obj, dict):
            self._put(("msg", (payload, obj)))
        else:
            self.noise_count += 1
            if len(self.noise) < 20:
                self.noise.append(clip(self.redact(payload)))

    def _put(self, item) -> None:
        put_bounded(self._q, item, lambda: self._closed)

    # -- messages ---------------------------------------------------------------------------
    def wait_endpoint(self, timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while not self._endpoint_ready.wait(timeout=0.2):
            if self.cancel.is_set():
                raise Cancelled()
            if time.monotonic() > deadline:
                raise RequestTimeout(f"{self.url} sent no endpoint event on its HTTP+SSE stream within {timeout:g}s "
                                     f"(mcplint waited for it to send {what})")
        if self.endpoint is None:
            raise ProbeError(f"{self.url} (HTTP+SSE transport): {self._endpoint_error}")
        return self.endpoint

    def _post(self, msg: dict, timeout: float, what: str) -> None:
        if self.deadline is not None:
            timeout = max(0.001, min(timeout, self.deadline - time.monotonic()))
        endpoint = urlsplit(self.wait_endpoint(timeout, what))
        conn = open_connection(endpoint.scheme, endpoint.hostname, endpoint.port, timeout)
        dog = None
        try:
            conn.request("POST", request_path(endpoint), body=json.dumps(msg).encode(),
                         headers={"Content-Type": "application/json", **self.headers})
            sock, deadline = conn.sock, time.monotonic() + timeout
            dog = Watchdog(sock, timeout)
            resp = conn.getresponse()
            body, limit = b"", min(self.max_bytes, 1 << 16)
            while len(body) < limit:  # the answer (202 and little else) as it arrives, within the deadline
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError()
                chunk = read_some(resp, sock, limit - len(body), left, timeout)
                if not chunk:
                    break
                body += chunk
            if dog.rang:  # the answer "ended" because the watchdog shut the socket
                raise TimeoutError()
        except (OSError, http.client.HTTPException) as e:  # (socket timeouts and TLS errors are OSErrors)
            timed_out = isinstance(e, (socket.timeout, TimeoutError)) or (dog is not None and dog.rang)
            if timed_out:
                raise RequestTimeout(f"no HTTP response to the POST of {what} to {self.redact(self.endpoint)} "
                                     f"within {timeout:g}s") from None
            raise ProbeError(f"the POST of {what} to {self.redact(self.endpoint)} failed: "
                             f"{type(e).__name__}: {e}") from None
        finally:
            if dog is not None:
                dog.cancel()
            conn.close()
        if resp.status in (401, 403):
            raise ProbeError(f"{self.url} answered {what} with HTTP {resp.status} {resp.reason}: the server wants "
                             "credentials (pass them with --header 'Authorization: ...')")
        if not 200 <= resp.status < 300:
            text = body.decode("utf-8", "replace").strip()
            raise ProbeError(f"the POST of {what} to {self.redact(self.endpoint)} was answered HTTP {resp.status} "
                             f"{resp.reason}" + (f": {clip(self.redact(text), 200)!r}" if text else ""))

    def notify(self, method: str, params: dict | None = None, version: str | None = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._post(msg, 10, method)

    def request(self, method: str, params: dict, timeout: float, version: str | None = None,
                what: str | None = None) -> Reply:
        rid = self.new_id()
        what = what or method
        deadline = time.monotonic() + timeout
        self._post({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}, timeout, what)
        if rid in self.late:
            return self.late.pop(rid)
        while True:
            if self.cancel.is_set():
                raise Cancelled()
            left = deadline - time.monotonic()
            if left <= 0:
                raise RequestTimeout(f"no response to {what} on the HTTP+SSE stream of {self.url} within "
                                     f"{timeout:g}s")
            try:
                kind, payload = self._q.get(timeout=min(left, 0.2))
            except queue.Empty:
                continue
            if kind == "overflow":
                raise ProbeError(f"the HTTP+SSE stream of {self.url} sent an event of more than {self.max_bytes} "
                                 f"bytes while mcplint waited for the answer to {what}")
            if kind == "eof":
                self._put(("eof", None))
                raise ProbeError(f"{self.url} closed its HTTP+SSE stream while mcplint waited for the answer "
                                 f"to {what}")
            text, obj = payload
            if "method" in obj:
                answer = server_request_answer(obj)  # a request from the server: ping answered, others refused
                if answer is not None:
                    self._post(answer, max(left, 1), "a response")
                continue
            if obj.get("id") == rid:
                return Reply(text, obj)
            self.late[obj.get("id")] = Reply(text, obj)

    def stderr_tail(self) -> str:
        return ""

    def close(self, grace: float = 2.0) -> str | None:
        """Closing the stream ends the session."""
        if not self._closed:
            self._closed = True
            try:
                self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader
            except OSError:
                pass
            self._stream.close()  # (the reader closes the response once it is woken)
        return None

    def kill(self) -> None:
        self.close()


def sse_endpoint(url: str, headers: dict, max_bytes: int, redact, timeout: float,
                 cancel: threading.Event | None = None) -> tuple[str | None, str]:
    """(the endpoint an HTTP+SSE server names on a fresh stream at ``url``, "") or (None, why
    not): the URL then serves no such stream, and is not a legacy SSE server. ``cancel``
    ends the wait (raising Cancelled)."""
    cancel = cancel or threading.Event()
    try:
        conn = SseConnection(url, headers, max_bytes, redact, cancel, connect_timeout=timeout)
    except ProbeError as e:
        return None, e.message
    try:
        return conn.wait_endpoint(timeout, "its first message"), ""
    except ProbeError as e:
        return None, e.message
    finally:
        conn.close()
