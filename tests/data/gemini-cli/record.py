"""Record what gemini-cli's own MCP discovery (@google/gemini-cli-core's discoverTools) makes of each
tool (tests/verify/test_gemini_cli_discovery.py replays the record offline).

    (cd truthlab/js-gemini-cli && npm ci)     # about 380 MB: not part of .ci/run
    python tests/data/gemini-cli/record.py

Cases: the hand-written shapes of mcplint.verify.records and one schema per probe of the
suite, kept whole; the tools of bench/servers, tests/data/corpus and examples, kept as the
difference between what the server wrote and the parametersJsonSchema gemini-cli declares (or its
diagnostic), keyed as the js-clients record keys them."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
JS = ROOT / "truthlab" / "js-gemini-cli"
sys.path[:0] = [str(ROOT)]

from mcplint.verify.records import corpus_tools, diff, named_cases  # noqa: E402


def run(tools: list) -> list:
    named = [{"name": "t", "description": "d", **t} for t in tools]
    proc = subprocess.run(["node", str(JS / "harness.mjs")], input=json.dumps(named), capture_output=True, text=True,
                          check=True, cwd=JS)
    return json.loads(proc.stdout)


def compact(tool: dict, result: dict) -> dict:
    if "error" in result:
        return {"error": result["error"].splitlines()[0][:200]}
    return {"diff": diff(tool["inputSchema"], result["sent"]["parametersJsonSchema"]), "name": result["sent"]["name"]}


def main() -> None:
    version = json.loads((JS / "node_modules" / "@google" / "gemini-cli-core" / "package.json").read_text())["version"]
    sdk = json.loads((JS / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").read_text())["version"]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    named = named_cases()
    corpus = corpus_tools(ROOT)
    results, verdicts = run([t for _, t in named]), run(list(corpus.values()))
    record = {
        "package": "@google/gemini-cli-core", "version": version, "mcp_sdk": sdk, "node": node,
        "recorded": date.today().isoformat(),
        "cases": [{"name": n, "tool": t, **r} for (n, t), r in zip(named, results)],
        "corpus": {d: compact(t, r) for (d, t), r in zip(corpus.items(), verdicts)},
    }
    (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    print(len(results), len(verdicts), version)


if __name__ == "__main__":
    main()
