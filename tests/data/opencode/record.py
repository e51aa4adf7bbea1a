"""Record what opencode itself sends the model for each MCP tool
(tests/verify/test_opencode_request.py replays the record offline).

    (cd truthlab/cli && npm install --no-save --ignore-scripts)   # the lock's native binaries, about 780 MB
    python tests/data/opencode/record.py

Each run is the real `opencode run` (truthlab/cli/drive.py) with local MCP servers (truthlab/cli/serve.py)
that list the tools, and an OpenAI-compatible provider (@ai-sdk/openai-compatible, built into
opencode 1.18.33: no network is needed, and drive.py keeps opencode off it) pointed at a recorder on 127.0.0.1 that keeps the Chat Completions request and answers 400. Cases:
the hand-written shapes of mcplint.verify.records and one schema per probe of the suite,
kept whole; names, with the server key and tool name opencode showed the model; the tools of
bench/servers, tests/data/corpus and examples, kept as the difference between what the server wrote
and the parameters opencode sent, or missing (the server's listing failed), keyed as the js-clients
record keys them; and a lost list: two servers, one listing a tool whose inputSchema root is not an
object, with what `opencode mcp list` printed for them and the server tools `opencode run` sent.

    python tests/data/opencode/record.py --listing    # only the lost list, into the existing record"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CLI = ROOT / "truthlab" / "cli"
sys.path[:0] = [str(ROOT), str(CLI)]

from drive import OPENCODE, Recorder, opencode_mcp_list, run_opencode  # noqa: E402

from mcplint.verify.records import corpus_tools, diff, named_cases  # noqa: E402

OBJ = {"type": "object", "properties": {"q": {"type": "string"}}}
BUILTIN = {"bash", "edit", "glob", "grep", "read", "skill", "task", "todowrite", "webfetch", "write", "invalid",
           "list", "patch", "multiedit", "todoread", "websearch", "codesearch", "lsp", "question", "apply_patch"}
# (server key, tool name): how opencode names a tool for the model
NAMES = [("srv", "plain_name"), ("srv", "dotted.name"), ("srv", "dash-name"), ("srv", "space name"), ("srv", "ünïcode"),
         ("srv", "n" * 62), ("srv", "n" * 63), ("srv", "n" * 128), ("srv", "n" * 200), ("my.server key", "tool")]


def binary() -> Path:
    return Path(os.environ.get("MCPLINT_OPENCODE") or OPENCODE)


class Session:
    """One opencode home for all runs (its provider package is installed once), warmed up first."""

    def __init__(self, rec: Recorder) -> None:
        self.rec, self.home = rec, Path(tempfile.mkdtemp(prefix="truthlab-opencode-home-"))
        for _ in range(3):  # the first run in a new home installs the provider and may fall back to another model
            try:
                self.run({"warm": [{"name": "t", "description": "d", "inputSchema": OBJ}]})
                return
            except RuntimeError:
                continue
        raise RuntimeError("opencode never used the recorder's provider")

    def run(self, servers: dict) -> dict:
        """{function name: function} of what opencode sent, besides its own tools."""
        request = run_opencode(binary(), servers, self.rec, self.home)
        return {t["function"]["name"]: t for t in request["tools"] if t["function"]["name"] not in BUILTIN}


def run_schemas(session: Session, tools: list, batch: int = 10, servers: int = 20) -> list:
    """What opencode sent for each tool ({"sent": tool} or {"missing": true}), in order: batches of
    servers first, then each tool of a server whose tools did not all arrive on a server of its own."""
    out: list = [None] * len(tools)
    todo = list(range(len(tools)))
    for size, count in ((batch, servers), (1, 25)):
        again = []
        for start in range(0, len(todo), size * count):
            chunk = todo[start:start + size * count]
            served = {f"s{j:02d}": [{"name": f"t{i:04d}", "description": "d", **tools[i]} for i in chunk[j:j + size]]
                      for j in range(0, len(chunk), size)}
            seen = session.run(served)
            for key, listed in served.items():
                got = [seen.get(f"{key}_{t['name']}") for t in listed]
                for t, sent in zip(listed, got):
                    i = int(t["name"][1:])
                    if all(g is not None for g in got):
                        out[i] = {"sent": sent}
                    elif size == 1:
                        out[i] = {"missing": True}
                    else:
                        again.append(i)
        todo = again
    return out


def run_names(session: Session) -> list:
    out = []
    for server, name in NAMES:
        seen = session.run({server: [{"name": name, "description": "d", "inputSchema": OBJ}]})
        out.append({"server": server, "tool": name, "shown": sorted(seen)})
    seen = session.run({"srv": [{"name": n, "description": n, "inputSchema": OBJ} for n in ("a.b", "a_b")]})
    out.append({"server": "srv", "tool": ["a.b", "a_b"],
                "shown": sorted([n, t["function"]["description"]] for n, t in seen.items())})
    return out


# a server whose list opencode cannot read (a root anyOf) beside one it can
GOOD = {"name": "good", "description": "d", "inputSchema": OBJ}
LOST = {"srv": [GOOD, {"name": "bad", "description": "d", "inputSchema": {
    "anyOf": [{"type": "object", "properties": {"id": {"type": "string"}}}, {"type": "object"}]}}], "okay": [GOOD]}


def run_listing(session: Session) -> dict:
    """What opencode says and sends for LOST: `opencode mcp list`'s lines, the server tools of a run."""
    return {"servers": LOST, "mcp_list": opencode_mcp_list(binary(), LOST, session.home),
            "sent": sorted(session.run(LOST)), "recorded": date.today().isoformat()}


def version() -> str:
    return subprocess.run([str(binary()), "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]


def main() -> None:
    if sys.argv[1:] == ["--listing"]:
        record = json.loads((HERE / "record.json").read_text(encoding="utf-8"))
        with Recorder() as rec:
            record["listing"] = run_listing(Session(rec))
        (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
        print(record["listing"]["mcp_list"], record["listing"]["sent"])
        return
    record = {**observe(), "recorded": date.today().isoformat()}
    (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    print(len(record["cases"]), len(record["corpus"]),
          sum("missing" in r for r in [*record["cases"], *record["corpus"].values()]), record["version"])


def observe(batch: int = 10, servers: int = 20) -> dict:
    """The record's content as the installed client makes it now (all but the date); batch and servers
    size the runs over the corpus (a tool's result does not depend on them)."""
    named = named_cases()
    corpus = corpus_tools(ROOT)
    with Recorder() as rec:
        session = Session(rec)
        results = run_schemas(session, [t for _, t in named])
        names = run_names(session)
        verdicts = run_schemas(session, list(corpus.values()), batch, servers)
        listing = run_listing(session)
    return {
        "package": "opencode-ai", "version": version(), "provider": "@ai-sdk/openai-compatible",
        "cases": [{"name": n, "tool": t, **r} for (n, t), r in zip(named, results)],
        "names": names,
        "corpus": {d: ({"missing": True} if "missing" in r
                       else {"diff": diff(t["inputSchema"], r["sent"]["function"]["parameters"])})
                   for (d, t), r in zip(corpus.items(), verdicts)},
        "listing": listing,
    }


if __name__ == "__main__":
    main()
