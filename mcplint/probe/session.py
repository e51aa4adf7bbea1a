"""Protocol logic: find out which versions a server speaks and capture tools/list under each.

Era detection follows the 2026-07-28 lifecycle: ``server/discover`` first (per-request
``_meta``, no handshake); its result or a recognised -32022 error means the server is
modern; any other error or silence means legacy. Legacy revisions need one ``initialize``
handshake each, so every legacy version gets its own connection (a fresh process or HTTP
session), started at once and run in parallel with discovery. The first connection gets
no initialize while server/discover may still be answered on it: a server slow to start
then gives the same verdict as a fast one (each version's list comes from a session of that
version). A legacy server echoes a version it supports and answers another one it does not.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from ..versions import VERSIONS
from .connection import Connection, RequestTimeout
from .transcript import SCHEMA_BINDING, incomplete_type, looks_jstruct, page_tools, server_extensions, tool_names
from .wire import Cancelled, ProbeError, initialize_params, modern_meta

MODERN = ("2026-07-28",)
MAX_PAGES = 500
DISCOVER_WAIT = 5.0  # a legacy server may never answer server/discover
UNSUPPORTED_VERSION = -32022
MAX_PARALLEL = 8  # server processes one probe starts at once (one per legacy version, plus the first)


def _header_version(version: str) -> str | None:
    """MCP-Protocol-Version header value for requests after the handshake."""
    return version if version >= "2025-06-18" else None


def discover_deadline(sent: float, wait: float, startup_timeout: float, pinged: float | None,
                      sibling_ready: float | None) -> float:
    """When to stop waiting for server/discover over stdio (see Prober._discover_stdio): times
    are monotonic seconds; ``pinged`` is when the ping sent after it was answered, and
    ``sibling_ready`` when a sibling process of the same command answered initialize."""
    if pinged is not None:  # the server has read server/discover: a grace scaled by the start
        return min(sent + startup_timeout, max(sent + wait, pinged + max(wait, pinged - sent) / 5))
    if sibling_ready is not None:  # the command is up: this process gets as long again
        return min(sent + startup_timeout, max(sent + wait, sibling_ready + max(wait, sibling_ready - sent)))
    return sent + startup_timeout


class Prober:
    def __init__(self, connect: Callable[[threading.Event], Connection], versions: tuple[str, ...], timeout: float = 30.0,
                 startup_timeout: float = 30.0, overall_timeout: float = 300.0, call: bool = False,
                 call_all: bool = False, progress: Callable[[str], None] | None = None, grace: float = 2.0,
                 max_pages: int = MAX_PAGES, schema_binding: str = "auto", max_parallel: int = MAX_PARALLEL):
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
        self.max_parallel = max(2, max_parallel)  # server processes started at once
        self.schema_binding = schema_binding  # "auto" | "always" | "never": the second listing (binding §4)
        self.cancel = threading.Event()
        self.conns: list[Connection] = []
        self.lock = threading.Lock()
        self.unsupported: dict[str, str] = {}  # version -> what the server said
        self.conn_of: dict[str, Connection] = {}
        self.first_dead: ProbeError | None = None
        self.sibling_ready: float | None = None  # when a legacy connection first got an answer
        self.disc_id = None
        self.discover_unanswered = False

    # -- plumbing -------------------------------------------------------------------------
    def connect(self) -> Connection:
        if self.cancel.is_set():
            raise Cancelled()
        conn = self._connect(self.cancel)
        if getattr(conn, "transport", None) in ("http", "sse"):
            conn.deadline = self.deadline  # every exchange over HTTP ends by the overall deadline, notifications too
        with self.lock:
            self.conns.append(conn)
        return conn

    def budget(self, t: float) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ProbeError(f"the probe ran over its overall timeout of {self.overall_timeout:g}s "
                             "(--overall-timeout)")
        return min(t, left)

    def request(self, conn: Connection, method, params, timeout, version=None, what=None):
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
        # Each legacy version needs a connection (a server process) of its own, and never the
        # first one while server/discover may still be answered on it: an initialize sent there
        # would turn the session legacy, and a late modern answer would then be read from it.
        # So the legacy handshakes run on connections of their own, started now, side by side
        # with discovery: a probe of every version takes about as long as one. At most
        # max_parallel processes are started at once here; the others when a worker needs one.
        if modern_wanted:
            n = min(len(legacy_wanted), self.max_parallel - 1)
            conns = [self.connect() for _ in range(n)] + [None] * (len(legacy_wanted) - n)
        else:  # nothing to discover: initialize at once
            conns = [first] + [None] * (len(legacy_wanted) - 1)
        legacy = self._start_legacy(legacy_wanted, conns)
        disc = self._discover(first) if modern_wanted else None
        self.discover_unanswered = disc is None and bool(modern_wanted) and self.first_dead is None
        if modern_wanted:
            self._modern_from(disc, modern_wanted, out)
        if self.first_dead is not None and not legacy_wanted:
            raise self.first_dead
        results = self._join_legacy(legacy)
        late = self._late_discover()
        if late is not None:
            # A slow server answered server/discover after all (on a connection that got nothing
            # else but a ping): it is modern.
            for v in modern_wanted:
                self.unsupported.pop(v, None)
            self._modern_all(first, modern_wanted, late, out)
        out.update(self._legacy_outcome(legacy_wanted, legacy, results, have_modern=bool(out)))
        if not out:
            said = "; ".join(f"{v}: {why}" for v, why in self.unsupported.items())
            raise ProbeError("the server supports none of the protocol versions probed "
                             f"({', '.join(self.versions)}); {said}" + first.stderr_tail())
        names = {v: tool_names(t) for v, t in out.items()}
        for v, t in out.items():
            t["otherVersions"] = {o: n for o, n in names.items() if o != v}
        return dict(sorted(out.items()))

    def _modern_from(self, disc, wanted: list[str], out: dict) -> None:
        """Probe the modern versions on the first connection, if discovery says it is modern."""
        if disc is not None and self._is_modern(disc):
            self._modern_all(self.first, wanted, disc, out)
            if out and not self.call:  # done with this server: shut it down while the others run
                threading.Thread(target=self.first.close, args=(self.grace,), daemon=True).start()
            return
        if self.first_dead is not None:
            why = f"the server died on server/discover ({self.first_dead.message.split(';')[0]})"
        else:
            why = "no answer to server/discover" if disc is None else f"server/discover {disc.describe_error()}"
        for v in wanted:
            self.unsupported[v] = why
        if disc is not None:  # a legacy server said so: the first connection is not needed any more
            threading.Thread(target=self.first.close, args=(self.grace,), daemon=True).start()

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
        """server/discover answered on the first connection after discovery gave up on it
        (that connection got no initialize: what it answers is a modern session's)."""
        if not self.discover_unanswered or not hasattr(self.first, "poll"):
            return None
        try:
            late = self.first.poll(self.disc_id, 0, "server/discover")
        except ProbeError:
            return None
        return late if late is not None and self._is_modern(late) else None

    def _discover(self, conn):
        """server/discover on the first connection: its answer, or None (no answer, or the
        server died on it: :attr:`first_dead`)."""
        latest = MODERN[-1]
        params = {"_meta": modern_meta(latest)}
        try:
            if conn.transport != "stdio":  # a server over HTTP is up already
                self.disc_id = None
                return self.request(conn, "server/discover", params, self.startup_timeout, version=latest)
            return self._discover_stdio(conn, params)
        except RequestTimeout:
            return None
        except Cancelled:
            raise
        except ProbeError as e:
            if self.budget_spent():
                raise
            # Some legacy servers die on a request that precedes initialize. That connection
            # is lost, but a fresh one may still speak the legacy handshake.
            self.first_dead = e
            return None

    def _discover_stdio(self, conn, params: dict):
        """A server over stdio may take long to start (a cold ``npx -y``, a wrapper), and a legacy
        one may never answer server/discover. So the wait is counted from when the server shows
        it runs, not from when the request was sent: a ping follows server/discover (pings are
        allowed before initialize in every revision) and a server that answers the ping has read
        server/discover; a legacy connection's initialize answer shows the same command is up.
        Without such a sign the wait lasts up to the startup timeout.

        After a sign the wait scales with how long the start took: on a loaded machine every
        step is slower, and a server that handles requests concurrently (the Python SDK) may
        answer the ping before server/discover. A sibling process started with this one may be
        up well before it, so this one gets at least as long again as the sibling took."""
        t0 = time.monotonic()
        self.disc_id = conn.send_request("server/discover", params)
        ping_id = conn.send_request("ping", {"_meta": params["_meta"]})
        pinged = None
        while True:
            if pinged is None and ping_id in conn.late:
                pinged = time.monotonic()
            left = discover_deadline(t0, DISCOVER_WAIT, self.startup_timeout, pinged,
                                     self.sibling_ready) - time.monotonic()
            if left <= 0:
                return None
            reply = conn.poll(self.disc_id, self.budget(min(left, 0.1)), "server/discover")
            if reply is not None:
                return reply

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
    def _start_legacy(self, wanted: list[str], conns: list) -> dict:
        """One worker thread per legacy version, each on a connection of its own."""
        state: dict = {"results": {}, "errors": {}, "timeouts": {}, "threads": []}
        if not wanted:
            return state

        def work(v: str, conn) -> None:
            try:
                conn = conn or self.connect()
                t = self._legacy_one(conn, v)
                if isinstance(t, dict):
                    state["results"][v] = t
                if not (self.call and isinstance(t, dict)):
                    conn.close(self.grace)  # done with this server: its shutdown overlaps the others
            except Cancelled:
                pass
            except RequestTimeout as e:  # decided once discovery is known (a modern-only server may ignore it)
                state["timeouts"][v] = e
            except BaseException as e:  # handed to the main thread (each worker is bounded by its timeouts)
                state["errors"][v] = e

        self.progress(f"initialize handshake for {', '.join(wanted)}")
        state["threads"] = [threading.Thread(target=work, args=(v, c), daemon=True) for v, c in zip(wanted, conns)]
        for th in state["threads"]:
            th.start()
        return state

    @staticmethod
    def _join_legacy(state: dict) -> dict:
        for th in state["threads"]:
            while th.is_alive():
                th.join(timeout=0.2)  # short joins keep Ctrl-C responsive
        return state["results"]

    def _legacy_outcome(self, wanted: list[str], state: dict, results: dict, have_modern: bool) -> dict:
        """The legacy transcripts; the same failure on every connection is reported for the
        newest version, always. No answer to initialize is an error unless the server is modern."""
        for v in wanted:
            if v in state["errors"]:
                raise state["errors"][v]
            e = state["timeouts"].get(v)
            if e is not None and not have_modern:
                if self.discover_unanswered:
                    e.message = e.message.replace(
                        "no response to initialize", "no response to server/discover, nor to initialize", 1)
                waited = f"within {self.startup_timeout:g}s"
                e.message = e.message.replace(waited, f"{waited} (--startup-timeout; a server that is slow to start, "
                                                      "a cold `npx -y` or `uvx`, an image being pulled, needs more)", 1)
                e.args = (e.message,)
                raise e
        for v in state["timeouts"]:
            self.unsupported[v] = "no answer to initialize"
        return results

    def _legacy_one(self, conn, version: str) -> dict | None:
        reply = self.request(conn, "initialize", initialize_params(version), self.startup_timeout,
                             what=f"initialize ({version})")
        if self.sibling_ready is None:  # the server's command is up: see _discover_stdio
            self.sibling_ready = time.monotonic()
        if not reply.ok:
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
