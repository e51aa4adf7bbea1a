"""Record what the JavaScript MCP clients of truthlab/js really send a model for each MCP tool
(tests/verify/test_js_clients.py replays the record offline and runs the harness again where the
packages are installed).

    (cd truthlab/js && npm ci)
    python tests/data/js-clients/record.py

truthlab/js/harness.mjs serves each tool alone from an in-process MCP server, lets the client
list and convert it and captures the model request it makes (no network). Cases: the hand-written
shapes of mcplint.verify.records and one schema per probe of the suite, kept whole; the tools of
bench/servers, tests/data/corpus and examples, kept as the difference between what the server wrote and what
was sent (or the error), keyed by a digest of the tool's schemas."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
JS = ROOT / "truthlab" / "js"
sys.path[:0] = [str(ROOT)]

from mcplint.verify.records import compact, corpus_tools, named_cases  # noqa: E402

TARGETS = ("ai-openai", "ai-openai-responses", "ai-openai-compatible", "langchain-agent", "langchain-agent-native",
           "mcp-sdk-client")
PACKAGES = ("ai", "@ai-sdk/openai", "@ai-sdk/openai-compatible", "@ai-sdk/mcp", "langchain", "@langchain/core",
            "@langchain/openai", "@langchain/mcp-adapters", "@modelcontextprotocol/sdk")


def run(target: str, tools: list) -> list:
    named = [{"name": "t", "description": "d", **t} for t in tools]
    proc = subprocess.run(["node", str(JS / "harness.mjs"), target], input=json.dumps(named), capture_output=True,
                          text=True, check=True, cwd=JS)
    return json.loads(proc.stdout)


def main() -> None:
    versions = {p: json.loads((JS / "node_modules" / p / "package.json").read_text())["version"] for p in PACKAGES}
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    named = named_cases()
    corpus = corpus_tools(ROOT)
    record: dict = {"packages": versions, "node": node, "recorded": date.today().isoformat(), "targets": {}}
    for target in TARGETS:
        results = run(target, [t for _, t in named])
        verdicts = run(target, list(corpus.values()))
        record["targets"][target] = {
            "cases": [{"name": n, "tool": t, **r} for (n, t), r in zip(named, results)],
            "corpus": {d: compact(t, r) for (d, t), r in zip(corpus.items(), verdicts)},
        }
        print(target, len(results), len(verdicts), flush=True)
    (HERE / "record.json").write_text(json.dumps(record, indent=None, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
