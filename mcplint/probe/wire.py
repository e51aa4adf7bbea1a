"""What both transports share: the error a failed probe raises, one reply as it came off
the wire, and the redaction that keeps secrets out of everything mcplint prints."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ..clientconfig import SECRET_NAME
from ..errors import McplintError

CLIENT_INFO = {"name": "mcplint", "version": "probe"}


class ProbeError(McplintError):
    """The server could not be probed (exit code 2). The message says what happened."""

    kind = "probe error"


def put_bounded(q, item, closed) -> None:
    """Put ``item`` on the bounded queue ``q``, waiting while it is full, until ``closed()``:
    a server that floods a reader blocks on its pipe or socket instead of filling memory."""
    import queue

    while not closed():
        try:
            q.put(item, timeout=0.2)
            return
        except queue.Full:
            continue


class Watchdog:
    """Shuts ``sock`` down when ``seconds`` have passed (unless cancelled first): every read
    blocked on it then returns at once, so a server that trickles its answer (a byte at a time,
    each within the socket's timeout) cannot hold a read past its deadline. ``rang`` says
    whether it did; a context manager that cancels it on leaving."""

    def __init__(self, sock, seconds: float):
        import threading

        self.sock, self.rang = sock, False
        self.timer = threading.Timer(max(0.0, seconds), self._ring)
        self.timer.daemon = True
        if sock is not None:
            self.timer.start()

    def _ring(self) -> None:
        import socket

        self.rang = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def cancel(self) -> None:
        self.timer.cancel()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


def read_some(resp, sock, n: int, left: float, per_read: float) -> bytes:
    """At most ``n`` bytes of the HTTP response ``resp`` with at most one read of its socket
    (``read1``: what arrived, not ``n`` bytes), waiting no longer than ``left`` seconds (and
    ``per_read``): a trickled answer returns a little at a time, so the caller's loop sees its
    deadline between reads. b"" at the end of the body."""
    if sock is not None:
        try:
            sock.settimeout(max(0.001, min(left, per_read)))
        except OSError:
            pass
    return resp.read1(n)


def server_request_answer(obj: dict) -> dict | None:
    """What mcplint answers a message the server sends it: ping gets an empty result, any
    other request -32601; a notification (no ``id``) gets nothing (None)."""
    if "id" not in obj:
        return None
    if obj.get("method") == "ping":
        return {"jsonrpc": "2.0", "id": obj["id"], "result": {}}
    return {"jsonrpc": "2.0", "id": obj["id"],
            "error": {"code": -32601, "message": "mcplint probe does not serve client requests"}}


class Cancelled(Exception):
    """Raised inside a worker when the probe is being torn down."""


@dataclass
class Reply:
    """One JSON-RPC response: the exact text received and what it parses to."""

    raw: str
    message: dict
    http_status: int | None = None

    @property
    def ok(self) -> bool:
        return "result" in self.message and isinstance(self.message.get("result"), dict)

    @property
    def result(self) -> Any:
        return self.message.get("result")

    @property
    def error(self) -> dict | None:
        err = self.message.get("error")
        if err is None and "result" not in self.message:
            return {"code": None, "message": "response has neither result nor error"}
        if err is not None and not isinstance(err, dict):
            return {"code": None, "message": f"malformed error member: {err!r}"}
        return err

    def describe_error(self) -> str:
        """``error CODE: 'message'``; an answer that was no JSON-RPC error (an HTTP status, a
        malformed response) has no code and is said as it is: ``answered 'HTTP 400 ...'``."""
        err = self.error or {}
        if err.get("code") is None:
            return f"answered {err.get('message')!r}"
        return f"error {err.get('code')!r}: {err.get('message')!r}"


class Redactor:
    """Replaces secret values (from ``--env``, ``--header`` and secret-looking environment
    variables) with ``***`` in any text mcplint shows."""

    def __init__(self, extra: list[str] = ()):
        values = {v for k, v in os.environ.items() if SECRET_NAME.search(k) and len(v) >= 6}
        values |= {v for v in extra if v and len(v) >= 3}
        self.values = sorted(values, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for v in self.values:
            if v in text:
                text = text.replace(v, "***")
        return text


def clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_message(text: str) -> Any:
    """Parse one wire message; ``None`` when it is not JSON, or not a JSON-RPC message that
    can be matched: an object whose ``id``, if any, is an object, an array or a boolean (MCP
    ids are strings or integers; JSON-RPC allows null in an error response). Such a line
    counts as stdout noise, like any other line that is not a message."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(obj, dict) and isinstance(obj.get("id"), (dict, list, bool)):
        return None
    return obj


def modern_meta(version: str, extensions: dict | None = None) -> dict:
    caps: dict = {}
    if extensions:
        caps["extensions"] = extensions
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": dict(CLIENT_INFO),
    }


def initialize_params(version: str) -> dict:
    return {"protocolVersion": version, "capabilities": {}, "clientInfo": dict(CLIENT_INFO)}
