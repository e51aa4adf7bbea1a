"""Record what gemini-cli's own MCP discovery (@google/gemini-cli-core's discoverTools) makes of each
tool (tests/verify/test_gemini_cli_discovery.py replays the record offline).

    (cd truthlab/js-gemini-cli && npm ci --ignore-scripts)     # about 380 MB
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


def run(tools: list, script: Path = JS / "harness.mjs") -> list:
    named = [{"name": "t", "description": "d", **t} for t in tools]
    proc = subprocess.run(["node", str(script)], input=json.dumps(named), capture_output=True, text=True,
                          check=True, cwd=script.parent, timeout=900)
    return json.loads(proc.stdout)


def compact(tool: dict, result: dict) -> dict:
    if "error" in result:
        return {"error": result["error"].splitlines()[0][:200]}
    return {"diff": diff(tool["inputSchema"], result["sent"]["parametersJsonSchema"]), "name": result["sent"]["name"]}


def observe(script: Path = JS / "harness.mjs") -> dict:
    """The cases and the corpus of the record as the installed package makes them now (one harness
    run: about 20 s)."""
    named = named_cases()
    corpus = corpus_tools(ROOT)
    out = run([t for _, t in named] + list(corpus.values()), script)
    results, verdicts = out[:len(named)], out[len(named):]
    return {
        "cases": [{"name": n, "tool": t, **r} for (n, t), r in zip(named, results)],
        "corpus": {d: compact(t, r) for (d, t), r in zip(corpus.items(), verdicts)},
    }


def main() -> None:
    version = json.loads((JS / "node_modules" / "@google" / "gemini-cli-core" / "package.json").read_text())["version"]
    sdk = json.loads((JS / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").read_text())["version"]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    record = {"package": "@google/gemini-cli-core", "version": version, "mcp_sdk": sdk, "node": node,
              "recorded": date.today().isoformat(), **observe()}
    (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    print(len(record["cases"]), len(record["corpus"]), version)


if __name__ == "__main__":
    main()
