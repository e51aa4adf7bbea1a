"""Protocol logic: find out which versions a server speaks and capture tools/list under each.

Era detection follows the 2026-07-28 lifecycle: ``server/discover`` first (per-request
``_meta``, no handshake); its result or a recognised -32022 error means the server is
modern; any other error or silence means legacy, and the ``initialize`` handshake
follows. Legacy revisions need one handshake each, so every legacy version gets its own
connection (a fresh process or HTTP session); they run in parallel. A legacy server
echoes a version it supports and answers another one it does not.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from ..versions import VERSIONS
from .stdio import RequestTimeout
from .transcript import SCHEMA_BINDING, incomplete_type, looks_jstruct, page_tools, server_extensions, tool_names
from .wire import Cancelled, ProbeError, initialize_params, modern_meta

MODERN = ("2026-07-28",)
MAX_PAGES = 500
DISCOVER_WAIT = 5.0  # a legacy server may never answer server/discover
UNSUPPORTED_VERSION = -32022


def _header_version(version: str) -> str | None:
    """MCP-Protocol-Version header value for requests after the handshake."""
    return version if version >= "2025-06-18" else None


class Prober:
    def __init__(self, connect: Callable, versions: tuple[str, ...], timeout: float = 30.0,
                 startup_timeout: float = 30.0, overall_timeout: float = 300.0, call: bool = False,
                 call_all: bool = False, progress: Callable[[str], None] | None = None, grace: float = 2.0,
                 max_pages: int = MAX_PAGES, schema_binding: str = "auto"):
        self._connect = connect
        self.versions = tuple(v for v in VERSIONS if v in versions)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.deadline = time.monotonic() + overall_timeout
        self.overall_timeout = overall_timeout
        self.call = call or call_all
        self.call_all = call_all
        self.progress = progress or (lambda msg: None)
        self.grace = grace
        self.max_pages = max_pages
        self.schema_binding = schema_binding  # "auto" | "always" | "never": the second listing (binding §4)
        self.cancel = threading.Event()
        self.conns: list = []
        self.lock = threading.Lock()
        self.unsupported: dict[str, str] = {}  # version -> what the server said
        self.conn_of: dict[str, object] = {}
        self.first_dead: ProbeError | None = None

    # -- plumbing -------------------------------------------------------------------------
    def connect(self):
        if self.cancel.is_set():
            raise Cancelled()
        conn = self._connect(self.cancel)
        with self.lock:
            self.conns.append(conn)
        return conn

    def budget(self, t: float) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ProbeError(f"the probe ran over its overall timeout of {self.overall_timeout:g}s "
                             "(--overall-timeout)")
        return min(t, left)

    def request(self, conn, method, params, timeout, version=None, what=None):
        t = self.budget(timeout)
        try:
            return conn.request(method, params, t, version=version, what=what)
        except RequestTimeout as e:
            if t < timeout:
                raise ProbeError(f"the probe ran over its overall timeout of {self.overall_timeout:g}s "
                                 f"(--overall-timeout) while waiting for {what or method}"
                                 + conn.stderr_tail()) from None
            raise e

    # -- the whole probe --------------------------------------------------------------------
    def run(self) -> dict[str, dict]:
        """Probe every requested version the server supports: {version: transcript}."""
        try:
            out = self._run()
            if self.call and out:
                newest = max(out)
                self.progress(f"calling tools with invalid arguments under {newest}")
                out[newest]["calls"] = self._calls(self.conn_of[newest], newest, out[newest])
            self._close_all(out)
            return out
        finally:
            self.cancel.set()
            for conn in list(self.conns):
                conn.kill()

    def _close_all(self, out: dict) -> None:
        ended = {}

        def stop(conn):
            ended[id(conn)] = conn.close(self.grace)

        # In parallel: each server gets the same grace periods, however many there are.
        threads = [threading.Thread(target=stop, args=(c,), daemon=True) for c in list(self.conns)]
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(timeout=0.2)
        for v, t in out.items():
            t["shutdown"] = ended.get(id(self.conn_of.get(v)))

    def _run(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        modern_wanted = [v for v in self.versions if v in MODERN]
        legacy_wanted = [v for v in reversed(self.versions) if v not in MODERN]
        self.progress("starting the server")
        first = self.first = self.connect()
        # Each legacy version needs a connection of its own. Start one now, so that its
        # start-up overlaps with discovery; the others start once the era is known (starting
        # them all at once would slow the first server past the discovery wait).
        spare = [self.connect()] if legacy_wanted and modern_wanted else []
        # Without a modern version to probe there is nothing to discover: initialize at once.
        disc_id, disc = self._discover(first) if modern_wanted else (None, None)
        self.disc_id = disc_id
        self.discover_unanswered = disc is None and bool(modern_wanted)
        modern_ok = disc is not None and self._is_modern(disc)
        if modern_ok and modern_wanted:
            self._modern_all(first, modern_wanted, disc, out)
            if out and not self.call:  # done with this server: shut it down while the others run
                threading.Thread(target=first.close, args=(self.grace,), daemon=True).start()
        elif modern_wanted:
            why = "no answer to server/discover" if disc is None else f"server/discover {disc.describe_error()}"
            for v in modern_wanted:
                self.unsupported[v] = why
        if self.first_dead is not None:
            if not legacy_wanted:
                raise self.first_dead
            for v in modern_wanted:
                self.unsupported[v] = f"the server died on server/discover ({self.first_dead.message.split(';')[0]})"
        legacy_first = None if (modern_ok or self.first_dead is not None) else first
        if legacy_wanted:
            conns = ([legacy_first] if legacy_first is not None else []) + spare
            conns += [None] * (len(legacy_wanted) - len(conns))
            out.update(self._probe_legacy(legacy_wanted, conns, bool(out)))
        late = self._late_discover()
        if disc is None and late is not None and modern_wanted:
            # A slow server answered server/discover after all: it is modern, and the
            # initialize sent after the discovery wait went to a modern connection.
            for v in modern_wanted:
                self.unsupported.pop(v, None)
            self._modern_all(first, modern_wanted, late, out)
        if not out:
            said = "; ".join(f"{v}: {why}" for v, why in self.unsupported.items())
            raise ProbeError("the server supports none of the protocol versions probed "
                             f"({', '.join(self.versions)}); {said}" + first.stderr_tail())
        names = {v: tool_names(t) for v, t in out.items()}
        for v, t in out.items():
            t["otherVersions"] = {o: n for o, n in names.items() if o != v}
        return out

    # -- modern (2026-07-28) ----------------------------------------------------------------
    def _modern_all(self, conn, wanted, disc, out: dict) -> None:
        supported = self._modern_supported(disc)
        for v in wanted:
            if v in supported:
                self.progress(f"listing tools under {v}")
                out[v] = self._probe_modern(conn, v, disc)
            else:
                self.unsupported[v] = f"server/discover lists {supported}"

    def _late_discover(self):
        if not self.discover_unanswered or self.first_dead is not None:
            return None
        late = self.first.late.get(self.disc_id)
        return late if late is not None and self._is_modern(late) else None
    def _discover(self, conn):
        latest = MODERN[-1]
        rid = None
        try:
            wait = min(self.startup_timeout, DISCOVER_WAIT) if conn.transport == "stdio" else self.startup_timeout
            rid = conn._next_id + 1  # the id the request below will carry
            reply = self.request(conn, "server/discover", {"_meta": modern_meta(latest)}, wait, version=latest)
            return rid, reply
        except RequestTimeout:
            return rid, None
        except Cancelled:
            raise
        except ProbeError as e:
            if self.budget_spent():
                raise
            # Some legacy servers die on a request that precedes initialize. That connection
            # is lost, but a fresh one may still speak the legacy handshake.
            self.first_dead = e
            return rid, None

    def budget_spent(self) -> bool:
        return time.monotonic() >= self.deadline

    @staticmethod
    def _is_modern(reply) -> bool:
        if reply.ok:
            return isinstance(reply.result.get("supportedVersions"), list) or "capabilities" in reply.result
        err = reply.error or {}
        return err.get("code") == UNSUPPORTED_VERSION and isinstance((err.get("data") or {}).get("supported"), list)

    @staticmethod
    def _modern_supported(reply) -> list:
        if reply.ok:
            sv = reply.result.get("supportedVersions")
            return [v for v in sv if isinstance(v, str)] if isinstance(sv, list) else list(MODERN)
        return [v for v in reply.error["data"]["supported"] if isinstance(v, str)]

    def _probe_modern(self, conn, version: str, disc) -> dict:
        self.conn_of[version] = conn
        t = self._transcript(conn, {"method": "server/discover", "message": disc.message})
        self._list(conn, t, version, modern=True)
        if self._binding_matters(t):
            # Play the other client too: one that advertises the JSON Structure binding
            # (binding §4). Only when it can matter, so a plain server costs no extra request.
            self.progress(f"listing tools under {version} as a client advertising {SCHEMA_BINDING}")
            paired = {"clientExtensions": [SCHEMA_BINDING], "pages": [], "cursorLoop": None, "pageLimit": None}
            self._list(conn, paired, version, modern=True, extensions={SCHEMA_BINDING: {}})
            t["pairedPass"] = paired
        self._noise(conn, t)
        return t

    def _binding_matters(self, t: dict) -> bool:
        """The server advertises the binding, or a slot it sent looks like JSON Structure."""
        if self.schema_binding != "auto":
            return self.schema_binding == "always"
        if SCHEMA_BINDING in server_extensions(t):
            return True
        return any(isinstance(tool, dict) and (looks_jstruct(tool.get("inputSchema"))
                                               or looks_jstruct(tool.get("outputSchema")))
                   for _, _, tool in page_tools(t))

    # -- legacy (initialize handshake) --------------------------------------------------------
    def _probe_legacy(self, wanted: list[str], conns: list, have_modern: bool) -> dict:
        results: dict[str, dict] = {}
        errors: dict[str, BaseException] = {}

        def work(v: str, conn) -> None:
            try:
                conn = conn or self.connect()
                t = self._legacy_one(conn, v, have_modern)
                if t == "retry":  # the first connection turned out to be a modern one
                    conn = self.connect()
                    t = self._legacy_one(conn, v, True)
                if isinstance(t, dict):
                    results[v] = t
                # (the first connection is kept while a late server/discover answer may still matter)
                needed = (self.call and isinstance(t, dict)) or (conn is self.first and self.discover_unanswered)
                if not needed:
                    conn.close(self.grace)  # done with this server: its shutdown overlaps the others
            except Cancelled:
                pass
            except BaseException as e:  # handed to the main thread (each worker is bounded by its timeouts)
                errors[v] = e

        self.progress(f"initialize handshake for {', '.join(wanted)}")
        threads = [threading.Thread(target=work, args=(v, c), daemon=True) for v, c in zip(wanted, conns)]
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(timeout=0.2)  # short joins keep Ctrl-C responsive
        for v in wanted:  # the same failure on every connection: report the newest version's, always
            if v in errors:
                raise errors[v]
        return results

    def _legacy_one(self, conn, version: str, have_modern: bool) -> dict | None:
        try:
            reply = self.request(conn, "initialize", initialize_params(version), self.startup_timeout,
                                 what=f"initialize ({version})")
        except RequestTimeout as e:
            if conn is self.first and self._late_discover() is not None:
                return "retry"
            if have_modern:  # a modern-only server that ignores initialize
                self.unsupported[version] = "no answer to initialize"
                return None
            if self.discover_unanswered and conn is self.first:
                e.message = e.message.replace(
                    "no response to initialize", "no response to server/discover, nor to initialize", 1)
                e.args = (e.message,)
            raise
        if not reply.ok:
            if conn is self.first and self._late_discover() is not None:
                return "retry"
            self.unsupported[version] = f"initialize {reply.describe_error()}"
            return None
        answered = reply.result.get("protocolVersion")
        if answered != version:
            self.unsupported[version] = f"initialize answered protocolVersion {answered!r}"
            return None
        self.conn_of[version] = conn
        t = self._transcript(conn, {"method": "initialize", "message": reply.message})
        conn.notify("notifications/initialized", None, version=_header_version(version))
        self.progress(f"listing tools under {version}")
        self._list(conn, t, version, modern=False)
        self._noise(conn, t)
        return t

    # -- tools/list with pagination -------------------------------------------------------
    @staticmethod
    def _transcript(conn, handshake: dict) -> dict:
        return {"transport": conn.transport, "handshake": handshake, "pages": [], "cursorLoop": None,
                "pageLimit": None, "stdoutNoise": [], "stdoutNoiseCount": 0, "otherVersions": {},
                "calls": [], "shutdown": None, "clientExtensions": [], "pairedPass": None}

    def _list(self, conn, t: dict, version: str, modern: bool, extensions: dict | None = None) -> None:
        seen: set = set()
        cursor = None
        hv = version if modern else _header_version(version)
        for n in range(self.max_pages):
            params: dict = {"_meta": modern_meta(version, extensions)} if modern else {}
            if cursor is not None:
                params["cursor"] = cursor
            reply = self.request(conn, "tools/list", params, self.timeout, version=hv,
                                 what=f"tools/list page {n + 1} ({version}"
                                      + (f", advertising {', '.join(extensions)})" if extensions else ")"))
            t["pages"].append({"raw": reply.raw})
            if not reply.ok or incomplete_type(reply.message) is not None:  # not a (complete) list: stop there
                return
            nxt = reply.result.get("nextCursor")
            if not isinstance(nxt, str):
                return
            if nxt in seen or nxt == cursor:
                t["cursorLoop"] = nxt
                return
            seen.add(nxt)
            cursor = nxt
        t["pageLimit"] = self.max_pages

    @staticmethod
    def _noise(conn, t: dict) -> None:
        t["stdoutNoise"] = list(conn.noise)
        t["stdoutNoiseCount"] = conn.noise_count

    # -- --call ---------------------------------------------------------------------------
    def _calls(self, conn, version: str, t: dict) -> list[dict]:
        from .calls import invalid_arguments

        out = []
        modern = version in MODERN
        hv = version if modern else _header_version(version)
        for _, _, tool in page_tools(t):
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                continue
            ann = tool.get("annotations")
            read_only = isinstance(ann, dict) and ann.get("readOnlyHint") is True
            if not read_only and not self.call_all:
                continue
            args = invalid_arguments(tool.get("inputSchema"))
            if args is None:
                continue
            params: dict = {"name": tool["name"], "arguments": args}
            if modern:
                params["_meta"] = modern_meta(version)
            entry = {"tool": tool["name"], "arguments": args, "message": None, "timeout": False}
            try:
                reply = self.request(conn, "tools/call", params, self.timeout, version=hv,
                                     what=f"tools/call {tool['name']}")
                entry["message"] = reply.message
            except RequestTimeout:
                entry["timeout"] = True
            out.append(entry)
        return out
