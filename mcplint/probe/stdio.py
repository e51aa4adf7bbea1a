"""The stdio transport: the server is a child process speaking newline-delimited JSON-RPC.

The child runs in its own session (its own process group), so closing it kills every
process it started. Two reader threads drain stdout and stderr so the child never blocks
on a full pipe; both hold bounded buffers (a 50 MB line or an endless stderr cannot
exhaust memory). Shutdown follows the spec: close stdin, wait, SIGTERM, wait, SIGKILL, and
then SIGKILL the whole group in case the server left children behind.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading
import time

from .connection import RequestTimeout
from .wire import Cancelled, ProbeError, Reply, clip, parse_message, put_bounded, server_request_answer

STDERR_LINES = 15  # lines of stderr kept for error messages
NOISE_KEPT = 20  # non-JSON stdout lines kept verbatim (all are counted)
QUEUE_SIZE = 256  # messages read ahead of the one awaited


class StdioConnection:
    transport = "stdio"

    def __init__(self, argv: list[str], env: dict, max_line: int, redact, cancel: threading.Event,
                 cwd: str | None = None):
        self.argv = argv
        self.max_line = max_line
        self.redact = redact
        self.cancel = cancel
        self.noise: list[str] = []
        self.noise_count = 0
        self.late: dict = {}
        self.shutdown: str | None = None
        self.deadline: float | None = None  # (unused: each wait over stdio has its own timeout)
        self._next_id = 0
        self._q: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        self._stderr = collections.deque(maxlen=STDERR_LINES)
        self._stderr_bytes = 0
        self._closed = False
        self._close_lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env, start_new_session=True, bufsize=0,
                                         cwd=cwd)
        except FileNotFoundError:
            raise ProbeError(f"cannot start the server: command not found: {argv[0]}"
                             + (f" (started in {cwd})" if cwd else "")) from None
        except PermissionError:
            raise ProbeError(f"cannot start the server: permission denied: {argv[0]}") from None
        except OSError as e:
            raise ProbeError(f"cannot start the server {argv[0]}: {e.strerror or e}") from None
        self.pgid = self.proc.pid  # start_new_session: the child leads its own group
        self._stdout_thread = threading.Thread(target=self._read_stdout, daemon=True)
        self._stdout_thread.start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_thread.start()

    # -- reader threads ---------------------------------------------------------------
    def _read_stdout(self) -> None:
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    if buf.strip():
                        self._line(bytes(buf))
                    self._put(("eof", None))
                    return
                if b"\n" in chunk:
                    buf += chunk
                    pos = 0
                    while True:
                        nl = buf.find(b"\n", pos)
                        if nl < 0:
                            break
                        self._line(bytes(buf[pos:nl]))
                        pos = nl + 1
                    del buf[:pos]
                else:
                    buf += chunk
                if len(buf) > self.max_line:
                    self._put(("overflow", len(buf)))
                    return  # stop reading: the server blocks, and is killed on close
        except OSError:
            self._put(("eof", None))

    def _line(self, line: bytes) -> None:
        line = line.rstrip(b"\r")
        if not line.strip():
            return
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self._noise(line.decode("utf-8", "replace"))
            return
        obj = parse_message(text)
        if isinstance(obj, dict):
            self._put(("msg", (text, obj)))
        else:
            self._noise(text)

    def _noise(self, text: str) -> None:
        """Counted, and the first few kept (clipped): a flood of log lines costs no memory."""
        self.noise_count += 1
        if len(self.noise) < NOISE_KEPT:
            self.noise.append(clip(self.redact(text)))

    def _put(self, item) -> None:
        """A bounded queue: a server flooding stdout with messages blocks on its pipe instead
        of filling mcplint's memory."""
        put_bounded(self._q, item, lambda: self._closed)

    def _read_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        partial = b""
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                self._stderr_bytes += len(chunk)
                parts = (partial + chunk).split(b"\n")
                partial = parts.pop()[-400:]
                for p in parts[-STDERR_LINES:]:
                    self._stderr.append(p[:400].decode("utf-8", "replace").rstrip("\r"))
        except OSError:
            pass
        if partial.strip():
            self._stderr.append(partial.decode("utf-8", "replace"))

    # -- messages ---------------------------------------------------------------------
    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _send(self, obj: dict) -> None:
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._died(f"sending {obj.get('method', 'a response')}")

    def notify(self, method: str, params: dict | None = None, version: str | None = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg)

    def request(self, method: str, params: dict, timeout: float, version: str | None = None,
                what: str | None = None) -> Reply:
        return self.wait(self.send_request(method, params), method, timeout, what)

    def send_request(self, method: str, params: dict) -> int:
        """Send a request without waiting for its answer (:meth:`poll` or :meth:`wait` gets it)."""
        rid = self.new_id()
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def wait(self, rid, method: str, timeout: float, what: str | None = None) -> Reply:
        reply = self.poll(rid, timeout, what or method)
        if reply is None:
            raise RequestTimeout(f"no response to {what or method} within {timeout:g}s"
                                 + self._noise_hint() + self.stderr_tail())
        return reply

    def poll(self, rid, timeout: float, what: str = "a response") -> Reply | None:
        """The answer to request ``rid`` if it comes within ``timeout`` seconds, else None.
        Answers to other requests read meanwhile are kept in :attr:`late`; every message
        already read is looked at, even with a timeout of 0."""
        if rid in self.late:
            return self.late.pop(rid)
        deadline = time.monotonic() + timeout
        while True:
            if self.cancel.is_set():
                raise Cancelled()
            left = deadline - time.monotonic()
            try:
                kind, payload = self._q.get(timeout=min(left, 0.2)) if left > 0 else self._q.get_nowait()
            except queue.Empty:
                if left <= 0:
                    return None
                continue
            if kind == "overflow":
                self._put_back(kind, payload)  # keep failing on later waits too
                raise ProbeError(f"the server wrote a line of more than {self.max_line} bytes to stdout "
                                 f"while mcplint waited for the answer to {what}" + self.stderr_tail())
            elif kind == "eof":
                self._put_back(kind, payload)
                self._died(f"waiting for the answer to {what}")
            else:
                text, obj = payload
                if "method" in obj:
                    self._server_message(obj)
                    continue
                if obj.get("id") == rid:
                    return Reply(text, obj)
                self.late[obj.get("id")] = Reply(text, obj)

    def _put_back(self, kind, payload) -> None:
        try:
            self._q.put_nowait((kind, payload))
        except queue.Full:
            pass

    def _server_message(self, obj: dict) -> None:
        """A request or notification from the server: answer ping, refuse other requests."""
        answer = server_request_answer(obj)
        if answer is not None:
            self._send(answer)

    def _noise_hint(self) -> str:
        if not self.noise_count:
            return ""
        return f"; meanwhile it wrote {self.noise_count} non-JSON line(s) to stdout, the first: {self.noise[0]!r}"

    def _died(self, doing: str):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            raise ProbeError(f"the server closed stdout while mcplint was {doing}" + self.stderr_tail()) from None
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        raise ProbeError(f"the server {how} while mcplint was {doing}" + self._noise_hint()
                         + self.stderr_tail() + (self._never_served_hint() if code == 0 else "")) from None

    def _never_served_hint(self) -> str:
        """A Python file that defines a server and never runs it (the SDK README's quickstart is
        meant for `mcp dev`/`mcp run`) ends at once, with status 0: its tools can be read without it."""
        args = self.proc.args if isinstance(self.proc.args, (list, tuple)) else []
        script = next((a for a in args if isinstance(a, str) and a.endswith(".py")), None)
        if script is None:
            return ""
        return (f"; a Python file that defines a server but never starts it (no `mcp.run()`) ends like this: "
                f"`mcplint scan {script}` lints the tools it defines without running it")

    def stderr_tail(self) -> str:
        self._stderr_thread.join(timeout=0.2 if self.proc.poll() is not None else 0)
        from ..textsafe import inline  # its control characters shown as escapes, no line of it a CI command

        lines = [inline(self.redact(clip(line, 300))) for line in self._stderr if line.strip()]
        if not lines:
            return "; its stderr was empty" if not self._stderr_bytes else ""
        return "; last lines of its stderr:\n  " + "\n  ".join(lines)

    # -- shutdown ---------------------------------------------------------------------
    def close(self, grace: float = 2.0) -> str:
        """Stop the server the way the spec says; returns how it ended. Thread-safe: a
        second caller waits for the first to finish and gets the same answer."""
        with self._close_lock:
            if self._closed:
                return self.shutdown or "exited"
            return self._close(grace)

    def _close(self, grace: float) -> str:
        self._closed = True
        how = "exited"
        try:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                how = "terminated"
                self._killpg(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    how = "killed"
                    self._killpg(signal.SIGKILL)
                    self.proc.wait(timeout=5)
        finally:
            self.kill()
        self.shutdown = how
        return how

    def kill(self) -> None:
        """SIGKILL the whole process group, and any descendant that left it (every path ends
        here, Ctrl-C included)."""
        self._closed = True
        if self.proc.poll() is None:
            from .reaper import kill_descendants

            kill_descendants(self.proc.pid)
        self._killpg(signal.SIGKILL)
        try:
            self.proc.wait(timeout=5)
        except (subprocess.TimeoutExpired, OSError):
            pass
        for t, f in ((self._stdout_thread, self.proc.stdout), (self._stderr_thread, self.proc.stderr)):
            t.join(timeout=1)
            if t.is_alive():
                continue  # never close an fd a reader still uses
            try:
                f.close()
            except OSError:
                pass

    def _killpg(self, sig) -> None:
        try:
            os.killpg(self.pgid, sig)
        except (ProcessLookupError, PermissionError, OSError):
            pass
