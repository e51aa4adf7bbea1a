"""One server's probe: connect, capture, and the capture document (linted by :mod:`mcplint.pipeline`)."""

from __future__ import annotations

import os
import shlex
import threading
import time
from dataclasses import dataclass, replace

from ..capture import capture_collections, probe_origin
from ..config import Config
from ..errors import InputError
from ..model import Document, Severity
from ..versions import VERSIONS
from .session import Prober
from .snapshot import snapshot, snapshot_document
from .transcript import SCHEMA_BINDING, binding_transcript, capture_text, forget_pages, has_result
from .wire import Cancelled, ProbeError, Redactor


class ServerProbe:
    """One server's probe in two steps: :meth:`capture` talks to the server (it may run in a
    worker thread, several servers at once: ``probe --from``), :meth:`captured` makes what was
    captured a capture document (on the main thread, within :meth:`time_limit`, where
    ``--overall-timeout`` can interrupt it and its linting: :func:`mcplint.pipeline.lint_probe`).
    :meth:`cancel` stops a capture from any thread. Reaping orphans is the caller's: a
    :class:`~mcplint.probe.reaper.ServerReaper` around the captures."""

    def __init__(self, *, command: list[str], url: str | None, headers: dict, env: dict, versions,
                 config: Config, timeout: float = 30.0, startup_timeout: float = 30.0,
                 overall_timeout: float = 300.0, call: bool = False, call_all: bool = False,
                 save: str | None = None, progress=None, grace: float = 2.0, schema_binding: str = "auto",
                 source_dir: str | None = None, name: str | None = None, cwd: str | None = None,
                 transport: str = "auto", switched_off=None, secrets=()):
        # secrets: values a client configuration took from the environment (its URL, command, cwd...)
        self.redact = redact = Redactor(list(env.values()) + list(headers.values()) + list(secrets))
        self.url, self.config, self.save, self.name, self.source_dir = url, config, save, name, source_dir
        # served tool names -> those the client's configuration switches off (not linted), and its words for it
        self.switched_off = switched_off
        self.overall_timeout = overall_timeout
        self.headers, self.transport, self.sse = headers, transport, transport == "sse"
        self.notes: list[str] = []
        self.script = next((a for a in command if a.endswith(".py")), None)  # a Python server's file, if named
        self.max_bytes = max_bytes = config.bounds.max_file_bytes
        self.redirects: list = []  # (from, to, status) of each redirect an HTTP connection followed
        if url:
            from .http import HttpConnection

            self.label = redact(url)

            def connect(cancel):
                if self.sse:
                    from .sse import SseConnection

                    return SseConnection(url, headers, max_bytes, redact, cancel, connect_timeout=startup_timeout)
                return HttpConnection(url, headers, max_bytes, redact, cancel, self.redirects)
        else:
            from .stdio import StdioConnection

            self.label = redact(shlex.join(command))
            child_env = {**os.environ, **env}

            def connect(cancel):
                return StdioConnection(command, child_env, max_bytes, redact, cancel, cwd=cwd)

        self._prober_args = dict(connect=connect, versions=tuple(versions), timeout=timeout,
                                 startup_timeout=startup_timeout, overall_timeout=overall_timeout, call=call,
                                 call_all=call_all, progress=progress, grace=grace, schema_binding=schema_binding)
        self.prober: Prober | None = None
        self.transcripts: dict | None = None
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()
        if self.prober is not None:
            self.prober.cancel.set()

    def capture(self) -> None:
        """Talk to the server (its overall timeout starts now); a ProbeError says why not."""
        started = time.monotonic()
        told = self.sse  # the configuration says so ("type": "sse"), or the server shows it below
        try:
            if self.sse:
                self._capture_sse(self._prober_args["overall_timeout"])
            else:
                self._capture(self._prober_args)
        except ProbeError as e:
            e.origin = e.origin or self.label
            left = self._prober_args["overall_timeout"] - (time.monotonic() - started)
            if self.sse or not (self.url and self.transport == "auto" and left > 0 and self._posts_refused()):
                raise
            from .sse import sse_endpoint

            endpoint, why = sse_endpoint(self.url, self.headers, self.max_bytes, self.redact,
                                         min(left, self._prober_args["startup_timeout"]), self._cancelled)
            if endpoint is None:
                e.message += (f"; every POST to it was refused (HTTP 4xx), and it is no HTTP+SSE server "
                              f"of 2024-11-05 either: {why}; is --url the server's MCP endpoint?")
                e.args = (e.message,)
                raise
            self.sse = True
            try:
                self._capture_sse(left)
            except ProbeError as e2:
                e2.origin = e2.origin or self.label
                raise
        if self.redirects:
            _, to, status = self.redirects[-1]
            self.notes.append(
                f"{self.label} redirects to {self.redact(to)} (HTTP {status}): followed, as the MCP SDKs' HTTP "
                "clients follow a redirect that keeps the method and the origin; give clients that URL to spare "
                "every request the extra round trip")
        if self.sse:
            how = ("as its configuration says" if told else
                   "it refused the Streamable HTTP POST and named a message endpoint on a GET event stream")
            self.notes.append(
                f"{self.label} speaks the HTTP+SSE transport of 2024-11-05, deprecated since 2025-03-26 ({how}): "
                "probed over it. Clients that speak only Streamable HTTP cannot connect to it (in a client "
                "configuration, \"type\": \"sse\" names this transport); serve Streamable HTTP too to reach "
                "every client")

    def _capture(self, args: dict) -> None:
        if self._cancelled.is_set():
            raise Cancelled()
        args = dict(args)
        self.prober = Prober(args.pop("connect"), args.pop("versions"), **args)
        if self._cancelled.is_set():  # (cancelled while the prober was being made)
            self.prober.cancel.set()
        self.transcripts = self.prober.run()

    def _posts_refused(self) -> bool:
        """Every POST to the URL was refused with a 4xx status: the sign of a server that
        speaks only the older HTTP+SSE transport (2025-03-26 transports, backwards compatibility)."""
        statuses = [s for c in (self.prober.conns if self.prober else ()) for s in getattr(c, "statuses", ())]
        return bool(statuses) and all(400 <= s < 500 for s in statuses)

    def _capture_sse(self, overall: float) -> None:
        """The legacy HTTP+SSE transport: its versions only (2026-07-28 is Streamable HTTP only)."""
        from .session import MODERN

        versions = tuple(v for v in self._prober_args["versions"] if v not in MODERN)
        dropped = [v for v in self._prober_args["versions"] if v in MODERN]
        if not versions:
            raise ProbeError(f"{self.label} speaks only the HTTP+SSE transport of 2024-11-05, which "
                             f"{', '.join(dropped)} does not define (its HTTP transport is Streamable HTTP); probe it "
                             "under an earlier revision (--protocol-version 2025-11-25), or move the server to "
                             "Streamable HTTP", origin=self.label)
        self._capture({**self._prober_args, "versions": versions, "overall_timeout": overall})
        for v in dropped:
            self.prober.unsupported[v] = "not over the HTTP+SSE transport, which this revision does not define"

    def time_limit(self) -> _until:
        """What is left of ``--overall-timeout`` once the server is captured, as a context manager
        that raises a ProbeError when it runs out: it bounds building and linting the capture too."""
        return _until(self.prober.deadline, self.overall_timeout, self.label)

    def captured(self) -> Captured:
        """The capture document of what :meth:`capture` got, with the notes about it (call it
        within :meth:`time_limit`)."""
        prober, transcripts, redact, label, save = self.prober, self.transcripts, self.redact, self.label, self.save
        name, config, source_dir = self.name, self.config, self.source_dir
        notes = list(self.notes)
        listed = sorted(v for v, t in transcripts.items() if has_result(t))
        failed = sorted(v for v in transcripts if v not in listed)
        notes += [f"{label}: tools/list captured under {', '.join(listed)}"] if listed else []
        if failed:
            notes.append(f"{label}: no tools/list result under {', '.join(failed)} (what the server answered is "
                         "reported as PRB106)")
        if prober.unsupported:
            notes.append("not supported by the server: " + "; ".join(
                f"{v} ({redact(why)})" for v, why in sorted(prober.unsupported.items())))
        for v in VERSIONS:
            bt = binding_transcript(transcripts[v]) if v in transcripts else None
            if bt is not None:
                notes.append(f"{v}: tools/list also captured as a client advertising {SCHEMA_BINDING}"
                             + ("" if capture_text(bt) != capture_text(transcripts[v]) else " (the same result)"))
        # The capture document (what --save writes) is what is linted, with or without --save:
        # a scan of the saved file gives these findings (mcplint.capture).
        unsupported = {v: redact(w) for v, w in prober.unsupported.items()}
        text, known = snapshot(transcripts, label, unsupported, server_name=name or config.server_name)
        origin = save if (save and listed) else probe_origin(name or label)
        doc = snapshot_document(text, known, origin)
        if self.switched_off is not None:
            served = [t.get("name") for c in doc.data["captures"] if isinstance(c.get("result"), dict)
                      for t in c["result"]["tools"] if isinstance(t, dict) and isinstance(t.get("name"), str)]
            off, words = self.switched_off(served)
            if off:  # kept in the capture, so a scan of it leaves them out too
                text, known = snapshot(transcripts, label, unsupported, server_name=name or config.server_name,
                                       disabled_tools=off)
                doc = snapshot_document(text, known, origin)
                left = [n for n in dict.fromkeys(off) if n in served]
                notes.append(f"{len(left)} tool{'' if len(left) == 1 else 's'} switched off in the configuration "
                             f"({words}) not linted" + (f": {', '.join(left)}" if left else ""))
        forget_pages()
        colls = capture_collections(doc, ())
        if source_dir:  # best-effort places in the server's code, by where each tool's name is registered
            from ..pysource.sites import sites_code_map

            tools = [t for c in colls for t in c.tools]
            code, placed = sites_code_map(tools, source_dir, doc.code)
            doc = replace(doc, code=code)
            colls = capture_collections(doc, ())  # (their tools hold the document with its code map)
            notes.append(f"--source-dir: {placed} of {len(tools)} tools placed where their name is "
                         f"registered in {source_dir} (best effort)")
        return Captured(doc, text, colls, notes, save if listed else None, self.script, bool(source_dir),
                        sorted(transcripts))


@dataclass
class Captured:
    """One server's capture: the document ``--save`` writes and ``mcplint scan`` reads back
    (:mod:`mcplint.capture`), its collections (one per distinct ``tools/list`` result), and the
    notes about how it was captured. :meth:`finish` adds the notes that depend on the findings,
    and writes the file."""

    doc: Document
    text: str
    collections: list
    notes: list[str]
    save: str | None  # where to write it (None: not asked, or the server listed nothing)
    script: str | None  # a Python server's file, if the command names one
    placed: bool  # --source-dir placed the tools in the server's code already
    versions: list[str]  # every version probed

    @property
    def origin(self) -> str:
        return self.doc.source.origin

    def finish(self, worst: Severity | None, asked: str | None) -> list[str]:
        """The notes, with where the findings could be put on the code (when ``worst``, the worst
        finding's severity, is a warning or worse) and what became of ``--save`` (``asked``),
        once the capture is written."""
        notes = list(self.notes)
        hint = source_hint(self.doc, self.script) if worst is not None and worst >= Severity.WARNING \
            and not self.placed else None
        if hint:
            notes.append(hint)
        if asked and not self.save:
            notes.append(f"nothing saved to {asked}: the server sent no tools/list result")
        elif self.save:
            try:
                from ..atomicio import write_atomic

                write_atomic(self.save, self.text)
            except OSError as e:
                raise InputError(f"cannot write the capture: {e.strerror or e}", origin=self.save) from None
            n = len(self.collections)
            notes.append(f"saved the capture ({n} tools/list result{'s' if n != 1 else ''}, "
                         f"{', '.join(self.versions)}) to {self.save}; `mcplint scan {self.save}` lints it again")
        return notes


class _Overtime(BaseException):  # not an Exception: no handler on the way may swallow it
    pass


class _until:
    """Context manager: raise a ProbeError if the block is still running at ``deadline``
    (``time.monotonic()``). A real-time timer interrupts the main thread wherever it is, so
    a capture that takes long to lint still ends on time; where there is no such timer
    (Windows, or another thread) the deadline is checked when the block ends."""

    def __init__(self, deadline: float, overall: float, origin: str):
        self.deadline, self.overall, self.origin = deadline, overall, origin
        self.timer = self.active = False

    def _error(self) -> ProbeError:
        return ProbeError(f"the probe ran over its overall timeout of {self.overall:g}s (--overall-timeout) "
                          "while linting what the server listed", origin=self.origin)

    def __enter__(self):
        import signal
        import threading
        import time

        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self._error()
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            def ring(signum, frame):
                if self.active:  # (outside the block, the check in __exit__ decides)
                    raise _Overtime()

            self.old = signal.signal(signal.SIGALRM, ring)
            self.timer = True
            signal.setitimer(signal.ITIMER_REAL, left)
            self.active = True
        return self

    def __exit__(self, kind, exc, tb):
        import signal
        import time

        self.active = False
        if self.timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
        if kind is _Overtime or (kind is None and time.monotonic() > self.deadline):
            raise self._error() from None
        return False


def source_hint(doc, script: str | None = None) -> str | None:
    """Where the findings of a captured server can be put on the code that wrote them, when the
    schemas show what wrote them: zod (the TypeScript SDK) or the Python SDK's type hints."""
    from ..pysource.fixes import looks_python_sdk
    from ..pysource.zod import looks_zod

    if looks_zod(doc):
        return ("the schemas look written by zod (the TypeScript SDK): add --source-dir DIR, the server's "
                "source, to place each tool's findings at the call that registers it")
    if looks_python_sdk(doc):
        return ("the schemas look written by a Python SDK from each function's type hints (inputSchema titled "
                "<function>Arguments, or fastmcp's _meta): `mcplint scan " +
                (shlex.quote(script) if script else "server.py") +
                "` puts each finding on the line of Python that wrote it, with the fix in pydantic's words")
    return None
