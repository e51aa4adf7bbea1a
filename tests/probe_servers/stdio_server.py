"""A small MCP server over stdio, standard library only, whose behaviour (good and bad)
is chosen on the command line. The probe tests start it as a real child process.

The MCP logic lives in :func:`handle` so the HTTP test server can share it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"

SEARCH = {"name": "search", "description": "Search the catalogue.", "annotations": {"readOnlyHint": True},
          "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}
DELETE = {"name": "delete_all", "description": "Delete every record.", "annotations": {"destructiveHint": True},
          "inputSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}}
JSTRUCT = {"name": "convert", "description": "Convert a temperature.",
           "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c",
                           "name": "ConvertInput", "type": "object",
                           "properties": {"celsius": {"type": "double"}}, "required": ["celsius"]}}

# The JSON Structure binding (--binding): one tool whose inputSchema is JSON Structure for a
# client advertising the extension, and a JSON Schema 2020-12 projection for the others.
SCHEMA_BINDING = "org.json-structure/schema-binding"
CONVERT_JS = {"$schema": "https://json-structure.org/meta/extended/v0/#", "$id": "https://t.example/convert",
              "$uses": ["JSONStructureValidation"], "name": "ConvertInput", "type": "object",
              "properties": {"celsius": {"type": "double", "minimum": -273.15},
                             "request_id": {"type": "int64"}},
              "required": ["celsius"]}
FALLBACKS = {  # what a client without the extension gets
    "good": {"type": "object", "properties": {"celsius": {"type": "number", "minimum": -273.15},
                                              "request_id": {"type": "string", "pattern": "^[+-]?[0-9]+$"}},
             "required": ["celsius"]},
    # int64 travels as a JSON string (JSON Structure §7): "integer" rejects every value
    "strict": {"type": "object", "properties": {"celsius": {"type": "number", "minimum": -273.15},
                                                "request_id": {"type": "integer"}},
               "required": ["celsius"]},
}


def options(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--legacy", default=",".join(LEGACY), help="legacy versions supported ('' for none)")
    p.add_argument("--modern", action="store_true", help="support server/discover and 2026-07-28")
    p.add_argument("--only-in", default="", help="VERSION: an extra tool 'beta' listed only there")
    p.add_argument("--page-size", type=int, default=0)
    p.add_argument("--cursor-loop", action="store_true")
    p.add_argument("--dup-across-pages", action="store_true")
    p.add_argument("--noise", action="store_true", help="log to stdout before each response")
    p.add_argument("--hang", action="store_true")
    p.add_argument("--garbage", action="store_true")
    p.add_argument("--bigline", type=int, default=0, help="MB of one line on stdout on the first request")
    p.add_argument("--stderr-flood", action="store_true")
    p.add_argument("--crash", action="store_true", help="die halfway through the tools/list answer")
    p.add_argument("--early-exit", action="store_true")
    p.add_argument("--never-exit", action="store_true")
    p.add_argument("--spawn-child", default="", help="start a grandchild and write its pid to this file")
    p.add_argument("--no-tools-cap", action="store_true")
    p.add_argument("--accept-invalid", action="store_true")
    p.add_argument("--list-error", action="store_true")
    p.add_argument("--list-not-found", action="store_true", help="answer tools/list with -32601 Method not found")
    p.add_argument("--list-input-required", action="store_true",
                   help="answer a 2026-07-28 tools/list with resultType input_required (and its tools)")
    p.add_argument("--ignore-discover", action="store_true")
    p.add_argument("--era-per-connection", action="store_true",
                   help="with --modern: once initialized, the connection is a legacy session, whose answers "
                        "carry no 2026-07-28 members even to requests that name 2026-07-28 (as the TypeScript "
                        "SDK v2 does)")
    p.add_argument("--stdout-flood", type=int, default=0, help="log this many lines to stdout per request")
    p.add_argument("--dup-key", action="store_true", help="a duplicate key in the first tool's inputSchema")
    p.add_argument("--hang-init", action="store_true", help="never answer initialize")
    p.add_argument("--die-before-init", action="store_true", help="crash on a request before initialize")
    p.add_argument("--jstruct", action="store_true")
    p.add_argument("--binding", choices=["", "negotiate", "everyone"], default="",
                   help="serve 'convert' in JSON Structure to advertising clients (negotiate) or to all")
    p.add_argument("--binding-unadvertised", action="store_true", help="do not advertise the extension")
    p.add_argument("--fallback", choices=sorted(FALLBACKS), default="good")
    p.add_argument("--binding-only-tool", action="store_true", help="list 'units' to advertising clients only")
    p.add_argument("--log-requests", default="", help="append 'method advertised-extensions' lines to this file")
    p.add_argument("--print-env", default="", help="log this environment variable to stderr")
    p.add_argument("--odd-ids", action="store_true", help="before each response, others whose id is an object, "
                                                         "an array, a boolean")
    p.add_argument("--escape-child", default="", help="start a process that leaves the group (setsid, then a "
                                                      "double fork) and write its pid to this file")
    p.add_argument("--many", type=int, default=0, help="list this many more tools")
    p.add_argument("--barrier", default="", help="DIR:N: before reading stdin, wait (up to 30 s) until N servers "
                                                 "have started with this DIR (to show they run side by side)")
    p.add_argument("--tag", default="", help="ignored: lets tests find this process")
    return p.parse_args(argv)


def tools_for(opt, version, advertised=False):
    tools = [SEARCH, DELETE]
    if opt.jstruct:
        tools.append(JSTRUCT)
    if opt.binding:
        bound = advertised or opt.binding == "everyone"
        tools.append({"name": "convert", "description": "Convert a temperature.",
                      "inputSchema": CONVERT_JS if bound else FALLBACKS[opt.fallback]})
        if opt.binding_only_tool and advertised:
            tools.append({"name": "units", "inputSchema": {"type": "object"}})
    if opt.only_in == version:
        tools.append({"name": "beta", "inputSchema": {"type": "object"}})
    if opt.many:  # the first differs under each version (so each version's listing is linted)
        salt = LEGACY.index(version) if version in LEGACY else len(LEGACY)
        tools += [{"name": f"t{salt if i == 0 else ''}_{i}", "description": "A tool.", "inputSchema": {
            "type": "object", "properties": {"q": {"type": "string"}}}} for i in range(opt.many)]
    return tools


def error(rid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": err}


def handle(opt, msg, state):
    """One request -> one response (or None for notifications and ignored requests)."""
    method, rid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    legacy = [v for v in opt.legacy.split(",") if v]
    meta = params.get("_meta") or {}
    modern_req = "io.modelcontextprotocol/protocolVersion" in meta
    if "id" not in msg:
        return None
    client_exts = (meta.get("io.modelcontextprotocol/clientCapabilities") or {}).get("extensions") or {}
    advertised = modern_req and SCHEMA_BINDING in client_exts
    if opt.log_requests:
        with open(opt.log_requests, "a") as fh:
            fh.write(f"{method} {','.join(sorted(client_exts)) or '-'}\n")
    caps = {} if opt.no_tools_cap else {"tools": {"listChanged": False}}
    if method == "server/discover":
        if opt.ignore_discover:
            return None
        if not opt.modern:
            return error(rid, -32601, "Method not found")
        if opt.binding and not opt.binding_unadvertised:
            caps = {**caps, "extensions": {SCHEMA_BINDING: {}}}
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "supportedVersions": [MODERN], "capabilities": caps, "resultType": "complete", "ttlMs": 0,
            "cacheScope": "public", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "t", "version": "1"}}}}
    if method == "initialize":
        if not legacy:
            return error(rid, -32022, "Unsupported protocol version", {"supported": [MODERN],
                                                                          "requested": params.get("protocolVersion")})
        asked = params.get("protocolVersion")
        answer = asked if asked in legacy else legacy[-1]
        state["version"] = answer
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": answer, "capabilities": caps, "serverInfo": {"name": "t", "version": "1"}}}
    if opt.era_per_connection and state.get("version"):
        modern_req = False  # a legacy session, whatever the request says
    version = meta.get("io.modelcontextprotocol/protocolVersion") if modern_req else state.get("version")
    if method == "tools/list":
        if opt.list_not_found:
            return error(rid, -32601, "Method not found")
        if opt.list_error:
            return error(rid, -32603, "database unavailable")
        tools = tools_for(opt, version, advertised)
        size = opt.page_size or len(tools)
        start = int(params.get("cursor") or 0) if not opt.cursor_loop else 0
        page = tools[start:start + size]
        result = {"tools": page}
        if opt.dup_across_pages and start > 0:
            result["tools"] = page + [tools[0]]
        if opt.cursor_loop:
            result["nextCursor"] = "again"
        elif start + size < len(tools):
            result["nextCursor"] = str(start + size)
        if modern_req:
            result.update({"resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
            if opt.list_input_required:
                result.update({"resultType": "input_required", "requestState": "listing-1"})
        return {"jsonrpc": "2.0", "id": rid, "result": result}
    if method == "tools/call":
        args = params.get("arguments") or {}
        tool = next((t for t in tools_for(opt, version, advertised) if t["name"] == params.get("name")), None)
        if tool is None:
            return error(rid, -32602, "Unknown tool")
        if not opt.accept_invalid and any(r not in args for r in tool["inputSchema"].get("required", [])):
            return {"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "missing required argument"}], "isError": True}}
        return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "done"}]}}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": rid, "result": {}}
    return error(rid, -32601, "Method not found")


def main():
    opt = options()
    out = sys.stdout
    if opt.print_env:
        sys.stderr.write(f"{opt.print_env}={os.environ.get(opt.print_env)}\n")
        sys.stderr.flush()
    if opt.spawn_child:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        with open(opt.spawn_child, "w") as fh:
            fh.write(str(child.pid))
    if opt.escape_child:  # the helper's own child is orphaned at once: it belongs to no one here
        subprocess.run([sys.executable, "-c", "import os, sys, time\n"
                        "os.setsid()\n"
                        "if os.fork(): os._exit(0)\n"
                        "open(sys.argv[1], 'w').write(str(os.getpid()))\n"
                        "time.sleep(300)", opt.escape_child])
        while not os.path.exists(opt.escape_child) or not open(opt.escape_child).read():
            time.sleep(0.01)
    if opt.barrier:
        folder, _, n = opt.barrier.rpartition(":")
        open(os.path.join(folder, str(os.getpid())), "w").close()
        deadline = time.monotonic() + 30
        while len(os.listdir(folder)) < int(n):
            if time.monotonic() > deadline:
                sys.stderr.write(f"barrier: only {len(os.listdir(folder))} of {n} servers started\n")
                sys.exit(3)
            time.sleep(0.02)
    if opt.early_exit:
        sys.stderr.write("fatal: missing configuration file config.toml\n")
        sys.exit(4)
    if opt.never_exit:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if opt.stderr_flood:
        import threading

        def flood():
            line = "debug: " + "x" * 200 + "\n"
            while True:
                try:
                    sys.stderr.write(line)
                except Exception:
                    return

        threading.Thread(target=flood, daemon=True).start()
    state = {}
    first = True
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if opt.hang:
            continue
        if opt.garbage:
            out.write("\x00\x01 garbage \xff<html>\n")
            out.flush()
            continue
        if opt.bigline and first:
            out.write("x" * (opt.bigline * 1024 * 1024) + "\n")
            out.flush()
        first = False
        if opt.die_before_init and "version" not in state and msg.get("method") != "initialize":
            raise RuntimeError("Received request before initialization was complete")
        if opt.hang_init and msg.get("method") == "initialize":
            continue
        reply = handle(opt, msg, state)
        if reply is None:
            continue
        text = json.dumps(reply)
        if opt.dup_key and msg.get("method") == "tools/list":
            text = text.replace('"inputSchema": {"type": "object"', '"inputSchema": {"type": "object", "type": "object"', 1)
        if opt.crash and msg.get("method") == "tools/list":
            out.write(text[: len(text) // 2])
            out.flush()
            os._exit(3)
        if opt.noise:
            out.write(f"INFO handling {msg.get('method')}\n")
        if opt.odd_ids:
            for odd in ({"n": msg.get("id")}, [msg.get("id")], True):
                out.write(json.dumps({**reply, "id": odd}) + "\n")
        if opt.stdout_flood:
            out.write(f"DEBUG {'y' * 100}\n" * opt.stdout_flood)
        out.write(text + "\n")
        out.flush()
    if opt.never_exit:
        while True:
            time.sleep(1)


if __name__ == "__main__":
    main()
