"""Record what the JavaScript MCP clients of truthlab/js really send a model for each MCP tool
(tests/verify/test_js_clients.py replays the record offline and runs the harness again where the
packages are installed).

    (cd truthlab/js && npm ci)
    python tests/data/js-clients/record.py

truthlab/js/harness.mjs serves each tool alone from an in-process MCP server, lets the client
list and convert it and captures the model request it makes (no network). Cases: the hand-written
shapes below and one schema per probe of the suite, kept whole; the tools of bench/servers,
tests/data/corpus and examples, kept as the difference between what the server wrote and what
was sent (or the error), keyed by a digest of the tool's schemas."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
JS = ROOT / "truthlab" / "js"
sys.path[:0] = [str(ROOT)]

TARGETS = ("ai-openai", "ai-openai-responses", "ai-openai-compatible", "langchain-agent", "langchain-agent-native",
           "mcp-sdk-client")
PACKAGES = ("ai", "@ai-sdk/openai", "@ai-sdk/openai-compatible", "@ai-sdk/mcp", "langchain", "@langchain/core",
            "@langchain/openai", "@langchain/mcp-adapters", "@modelcontextprotocol/sdk")

S = {"type": "string"}


def obj(props: dict, **kw) -> dict:
    return {"type": "object", "properties": props, **kw}


# each aimed at one decision of a conversion, with its near miss
SHAPES = {
    "lookahead": obj({"p": {"type": "string", "pattern": "^(?!admin$).+$"}}),
    "lookbehind": obj({"p": {"type": "string", "pattern": "(?<=a)b"}}),
    "lookaround-in-class": obj({"p": {"type": "string", "pattern": "^[(?=]+$"}}),
    "escaped-paren": obj({"p": {"type": "string", "pattern": "^\\(?=x$"}}),
    "named-group": obj({"p": {"type": "string", "pattern": "^(?<year>[0-9]{4})$"}}),
    "property-names-string": obj({"m": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}}),
    "property-names-typed-string": obj({"m": {"type": "object", "propertyNames": {"type": "string", "maxLength": 8}}}),
    "property-names-integer": obj({"m": {"type": "object", "propertyNames": {"type": "integer"}}}),
    "property-names-false": obj({"m": {"type": "object", "propertyNames": False}}),
    "anyof-null": obj({"q": {"anyOf": [S, {"type": "null"}], "default": None}}),
    "anyof-objects": obj({"q": {"anyOf": [obj({"a": S}, required=["a"]), obj({"b": S}, required=["b"])]}}),
    "oneof-scalars": obj({"q": {"oneOf": [S, {"type": "integer"}]}}),
    "allof-ref": obj({"q": {"allOf": [{"$ref": "#/$defs/Q"}]}}, **{"$defs": {"Q": obj({"x": S})}}),
    "ref-plain": obj({"q": {"$ref": "#/$defs/Q"}}, **{"$defs": {"Q": obj({"x": S})}}),
    "not": obj({"q": {"type": "string", "not": {"const": "x"}}}),
    "if-then": obj({"q": S, "r": S}, **{"if": {"properties": {"q": {"const": "a"}}}, "then": {"required": ["r"]}}),
    "schema-dialect": obj({"q": S}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    "draft-07": obj({"q": S}, **{"$schema": "http://json-schema.org/draft-07/schema#"}),
    "root-untyped": {"properties": {"q": S}},
    "root-empty": {},
    "root-no-properties": {"type": "object"},
    "root-closed": obj({"q": S}, additionalProperties=False, required=["q"]),
    "root-array": {"type": "array", "items": S},
    "root-anyof": {"anyOf": [obj({"a": S}), obj({"b": S})]},
    "format-uri": obj({"u": {"type": "string", "format": "uri"}}),
}
OUTPUTS = {
    "output-object": obj({"r": S}),
    "output-array": {"type": "array", "items": S},
    "output-untyped": {"properties": {"r": S}},
    "output-anyof": {"anyOf": [obj({"a": S}), obj({"b": S})]},
    "output-2020-12": obj({"r": S}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    "output-draft-07": obj({"r": S}, **{"$schema": "http://json-schema.org/draft-07/schema#"}),
    "output-bad-pattern": obj({"r": {"type": "string", "pattern": "\\p{L}+"}}),
    "output-unknown-format": obj({"r": {"type": "string", "format": "made-up"}}),
}


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


def corpus_tools() -> dict:
    """Distinct {inputSchema, outputSchema} pairs of the real servers' tools (mcplint.verify.frameworks), by digest."""
    from mcplint.verify.frameworks import corpus_tools as real_tools

    seen: dict = {}
    for t in real_tools(ROOT):
        tool = {"inputSchema": t["inputSchema"]}
        if isinstance(t.get("outputSchema"), dict):
            tool["outputSchema"] = t["outputSchema"]
        seen.setdefault(digest(tool), tool)
    return seen


def diff(before, after, at: str = "") -> list:
    """[op, pointer, key] for each key removed, added or changed on the way from before to after."""
    out: list = []
    if isinstance(before, dict) and isinstance(after, dict):
        for k in before:
            p = f"{at}/{k.replace('~', '~0').replace('/', '~1')}"
            if k not in after:
                out.append(["removed", at, k])
            elif before[k] != after[k]:
                if isinstance(before[k], (dict, list)) and type(before[k]) is type(after[k]):
                    out += diff(before[k], after[k], p)
                else:
                    out.append(["changed", at, k])
        out += [["added", at, k] for k in after if k not in before]
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after)):
            out += diff(b, a, f"{at}/{i}")
    elif before != after:
        out.append(["changed", at, None])
    return out


SIMPLIFIED = ("anyOf", "oneOf", "not", "if", "then", "else", "unevaluatedProperties")


def keywords_in(schema, names=SIMPLIFIED, out=None, outer_only: bool = False) -> set:
    """The keywords of ``names`` that occur in ``schema`` (the keys of properties are names, not keywords);
    ``outer_only``: not looking inside such a keyword's value."""
    out = set() if out is None else out
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k in names:
                out.add(k)
                if outer_only:
                    continue
            if k in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas") and isinstance(v, dict):
                for sub in v.values():
                    keywords_in(sub, names, out, outer_only)
            elif k not in ("enum", "const", "default", "examples", "required"):
                keywords_in(v, names, out, outer_only)
    elif isinstance(schema, list):
        for v in schema:
            keywords_in(v, names, out, outer_only)
    return out


def sent_parameters(sent: dict):
    return (sent.get("function") or sent).get("parameters")


def sent_strict(sent: dict):
    return (sent.get("function") or sent).get("strict")


def run(target: str, tools: list) -> list:
    named = [{"name": "t", "description": "d", **t} for t in tools]
    proc = subprocess.run(["node", str(JS / "harness.mjs"), target], input=json.dumps(named), capture_output=True,
                          text=True, check=True, cwd=JS)
    return json.loads(proc.stdout)


def compact(tool: dict, result: dict) -> dict:
    if "error" in result:
        return {"error": result["error"].splitlines()[0][:200]}
    if "sent" not in result:
        return result
    out = {"diff": diff(tool["inputSchema"], sent_parameters(result["sent"])),
           "kept": sorted(keywords_in(sent_parameters(result["sent"])))}
    if sent_strict(result["sent"]) is not None:
        out["strict"] = sent_strict(result["sent"])
    return out


def named_cases() -> list[tuple[str, dict]]:
    """The hand-written cases every client record runs, by name: each input shape, each output
    schema beside an empty object input, and each probe of the suite that is an object."""
    from mcplint.verify.suite import PROBES

    return [(f"shape:{k}", {"inputSchema": v}) for k, v in SHAPES.items()] + \
        [(f"output:{k}", {"inputSchema": obj({}), "outputSchema": v}) for k, v in OUTPUTS.items()] + \
        [(f"probe:{p.id}", {"inputSchema": p.schema}) for p in PROBES if isinstance(p.schema, dict)]


def main() -> None:
    versions = {p: json.loads((JS / "node_modules" / p / "package.json").read_text())["version"] for p in PACKAGES}
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    named = named_cases()
    corpus = corpus_tools()
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
