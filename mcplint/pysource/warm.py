"""Warm interpreters: the helper program kept running as a fork server (``_child_serve.py``) in
each server interpreter a run uses, so that the SDK is imported once per process of mcplint and
every further Python file costs only its own import (each in a fork of its own, as isolated from
the others as a fresh interpreter would be).

Used on Linux only (``fork`` is not safe on macOS with system frameworks, and Windows has none);
``MCPLINT_PYTHON_FORK=0`` turns it off. A file whose directory holds a module of the name of one
the server preloads (``mcp``, ``fastmcp``, ``pydantic``), which a fresh interpreter would import
in its place, is run the plain way. So is every file when the fork server cannot start, or stops.
The measured gain is in docs/performance.md.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time

# what the fork server imports before it forks (whichever of them the interpreter has)
PRELOAD = ("mcp.types", "mcp.server.lowlevel", "mcp.server.mcpserver", "mcp.server.fastmcp", "fastmcp", "pydantic")
_SHADOWS = frozenset(name.split(".")[0] for name in PRELOAD)  # a module of the file's own by one of these names
_SERVERS: dict = {}  # (python, environment) -> _ForkServer, or None where one could not start; oldest first
_KEPT = 2  # fork servers kept running at once (each holds an imported SDK: 60-100 MB)
_LOCK = threading.Lock()


def _forgotten_in_a_child() -> None:
    """A process forked from this one (a worker of ``scan``) starts its own fork servers: the ones
    it inherits answer on pipes this process reads too."""
    global _SERVERS, _LOCK
    _SERVERS, _LOCK = {}, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forgotten_in_a_child)


def usable(path: str) -> bool:
    """Whether ``path`` may be listed in a fork of a warm interpreter."""
    if not sys.platform.startswith("linux") or os.environ.get("MCPLINT_PYTHON_FORK", "1") == "0":
        return False
    directory = os.path.dirname(os.path.abspath(path))
    roots = [directory]
    while os.path.isfile(os.path.join(directory, "__init__.py")):  # (the package root goes on sys.path)
        directory = os.path.dirname(directory)
        roots.append(directory)
    return not any(os.path.exists(os.path.join(d, name)) or os.path.exists(os.path.join(d, name + ".py"))
                   for d in roots for name in _SHADOWS)


class Unavailable(Exception):
    """No warm interpreter for this run (it could not start, or stopped): run the plain way."""


def run(python: str, program: str, argv: list, timeout: float) -> tuple[int | None, bool, str]:
    """``main(argv)`` of the helper program in a fork of the warm interpreter ``python``: (its exit
    status, whether it was stopped at the deadline, what it printed: stdout then stderr)."""
    key = (python, tuple(sorted(os.environ.items())))  # (what the SDK read at its import depends on both)
    with _LOCK:
        server = _SERVERS.pop(key, False)
        if server is False:
            server = _ForkServer.start(python, program, timeout)
            running = [k for k, v in _SERVERS.items() if v is not None]
            for old in running[:max(0, len(running) - _KEPT + 1)]:  # the least recently used make way
                _SERVERS.pop(old).close()
        _SERVERS[key] = server  # (now the most recently used)
        if server is None:
            raise Unavailable()
        try:
            return server.request(argv, timeout)
        except Unavailable:
            _SERVERS[key] = None
            server.close()
            raise


class _ForkServer:
    def __init__(self, proc):
        self.proc = proc
        self.buffer = b""

    @classmethod
    def start(cls, python: str, program: str, timeout: float):
        try:
            proc = subprocess.Popen([python, "-c", program, "--serve", ",".join(PRELOAD)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=os.getcwd())
        except OSError:
            return None  # (the plain way says why the interpreter cannot run)
        server = cls(proc)
        try:
            ready = json.loads(server._line(time.monotonic() + timeout)).get("ready")
        except (Unavailable, ValueError, AttributeError):
            ready = False
        if not ready:
            server.close()
            return None
        return server

    def request(self, argv: list, timeout: float) -> tuple[int | None, bool, str]:
        import tempfile

        files = []
        try:
            for suffix in (".out", ".err"):
                fd, name = tempfile.mkstemp(prefix="mcplint-py-", suffix=suffix)
                os.close(fd)
                files.append(name)
            line = json.dumps({"argv": argv, "out": files[0], "err": files[1], "deadline": timeout + 5,
                               "cwd": os.getcwd()}) + "\n"
            try:
                self.proc.stdin.write(line.encode())
                self.proc.stdin.flush()
            except OSError:
                raise Unavailable() from None
            answer = json.loads(self._line(time.monotonic() + timeout + 15))
            from .contain import tail

            output = ""
            for name in files:  # (only their ends: a module may print without end)
                with open(name, "rb") as fh:
                    output += tail(fh)
            return answer.get("status"), bool(answer.get("timeout")), output
        finally:
            for name in files:
                try:
                    os.unlink(name)
                except OSError:
                    pass

    def _line(self, deadline: float) -> str:
        """The next line the fork server writes, by ``deadline`` (else it is stopped: Unavailable)."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise Unavailable()
            chunk = os.read(fd, 65536)
            if not chunk:
                raise Unavailable()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
