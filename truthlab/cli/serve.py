"""A minimal MCP server over stdio (standard library only) that lists the tools of a JSON file:

    python serve.py tools.json

It answers initialize and tools/list (all tools on one page) and nothing else, so that a client
configured with it shows its model exactly these tools."""

from __future__ import annotations

import json
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        tools = json.load(f)
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue
        if msg.get("method") == "initialize":
            reply = {"result": {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
                                "capabilities": {"tools": {}}, "serverInfo": {"name": "truthlab", "version": "1.0.0"}}}
        elif msg.get("method") == "tools/list":
            reply = {"result": {"tools": tools}}
        else:
            reply = {"error": {"code": -32601, "message": "method not found"}}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], **reply}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
