"""Record what the Codex CLI itself sends the model for each MCP tool
(tests/verify/test_codex_cli_request.py replays the record offline).

    (cd truthlab/cli && npm install --no-save --ignore-scripts)   # the lock's native binaries, about 780 MB
    python tests/data/codex/record.py

Each run is the real `codex exec` (truthlab/cli/drive.py) with MCP servers (truthlab/cli/serve.py)
that list the tools, and its model provider pointed at a recorder on 127.0.0.1 that keeps the
Responses API request and answers 400. Cases: the hand-written shapes of
mcplint.verify.records and one schema per probe of the suite, kept whole; names, with the
server key and tool name Codex showed the model; the tools of bench/servers, tests/data/corpus and
examples, kept as the difference between what the server wrote and the parameters Codex sent, keyed
as the js-clients record keys them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CLI = ROOT / "truthlab" / "cli"
sys.path[:0] = [str(ROOT), str(CLI)]

from drive import CODEX, Recorder, run_codex  # noqa: E402

from mcplint.verify.records import corpus_tools, diff, named_cases  # noqa: E402

MODEL = "gpt-4.1"
BATCH, SERVERS = 25, 8
OBJ = {"type": "object", "properties": {"q": {"type": "string"}}}
# (server key, tool name): how Codex names a tool for the model
NAMES = [("srv", "plain_name"), ("srv", "dotted.name"), ("srv", "dash-name"), ("srv", "space name"),
         ("srv", "ünïcode"), ("srv", "n" * 56), ("srv", "n" * 57), ("srv", "n" * 64), ("srv", "n" * 65),
         ("srv", "n" * 128), ("srv", "n" * 129), ("srv", "n" * 200), ("srv", "a.b"), ("srv", "a_b"),
         ("my.server-key", "tool"), ("k" * 60, "tool"), ("k" * 70, "t" * 70)]


def binary() -> Path:
    return Path(os.environ.get("MCPLINT_CODEX") or CODEX)


def mcp_tools(request: dict) -> dict:
    """{server namespace: {tool name: function}} of the MCP tools in a Responses API request."""
    out: dict = {}
    for t in request["tools"]:
        if t.get("type") == "namespace" and t.get("name", "").startswith("mcp__"):
            out[t["name"]] = {f["name"]: f for f in t.get("tools", [])}
        elif t.get("type") == "function" and t.get("name", "").startswith("mcp__"):
            out.setdefault("", {})[t["name"]] = t
    return out


def run_schemas(tools: list, rec: Recorder) -> list:
    """What Codex sent for each tool ({"sent": function} or {"missing": true}), in order: batches of
    servers first, then each tool missing from a batch on a server of its own."""
    out: list = [None] * len(tools)
    todo = list(range(len(tools)))
    for size in (BATCH, 1):
        again = []
        for start in range(0, len(todo), size * SERVERS):
            chunk = todo[start:start + size * SERVERS]
            servers = {f"s{j:02d}": [{"name": f"t{i:04d}", "description": "d", **tools[i]} for i in chunk[j:j + size]]
                       for j in range(0, len(chunk), size)}
            seen = mcp_tools(run_codex(binary(), servers, rec, MODEL))
            for j, (key, served) in enumerate(servers.items()):
                for t, i in zip(served, chunk[j * size:(j + 1) * size]):
                    sent = seen.get(f"mcp__{key}", {}).get(t["name"])
                    if sent is not None:
                        out[i] = {"sent": sent, "namespace": f"mcp__{key}"}
                    elif size == 1:
                        out[i] = {"missing": True}
                    else:
                        again.append(i)
        todo = again
    return out


def run_names(rec: Recorder) -> list:
    out = []
    for server, name in NAMES:
        seen = mcp_tools(run_codex(binary(), {server: [{"name": name, "description": "d", "inputSchema": OBJ}]}, rec, MODEL))
        out.append({"server": server, "tool": name,
                    "shown": [[ns, n] for ns, fs in seen.items() for n in fs]})
    # two tools whose names Codex makes alike
    seen = mcp_tools(run_codex(binary(), {"srv": [{"name": n, "description": n, "inputSchema": OBJ} for n in ("a.b", "a_b")]},
                               rec, MODEL))
    out.append({"server": "srv", "tool": ["a.b", "a_b"],
                "shown": [[ns, n, f["description"]] for ns, fs in seen.items() for n, f in fs.items()]})
    return out


def version() -> str:
    return subprocess.run([str(binary()), "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]


def observe() -> dict:
    """The record's content as the installed client makes it now (all but the date): about a minute."""
    named = named_cases()
    corpus = corpus_tools(ROOT)
    with Recorder() as rec:
        results = run_schemas([t for _, t in named], rec)
        verdicts = run_schemas(list(corpus.values()), rec)
        names = run_names(rec)
    return {
        "package": "@openai/codex", "version": version(), "model": MODEL,
        "cases": [{"name": n, "tool": t, **r} for (n, t), r in zip(named, results)],
        "names": names,
        "corpus": {d: ({"missing": True} if "missing" in r else {"diff": diff(t["inputSchema"], r["sent"]["parameters"])})
                   for (d, t), r in zip(corpus.items(), verdicts)},
    }


def main() -> None:
    record = {**observe(), "recorded": date.today().isoformat()}
    (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    print(len(record["cases"]), len(record["corpus"]),
          sum("missing" in r for r in [*record["cases"], *record["corpus"].values()]), record["version"])


if __name__ == "__main__":
    main()
