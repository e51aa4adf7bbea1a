"""Record what @openai/agents-core's mcpToFunctionTool does to MCP input schemas with
convertSchemasToStrict (tests/verify/test_agents_js.py replays the record offline).

    npm install --prefix /tmp/agents-js @openai/agents-core@0.20.0
    NODE_PATH=/tmp/agents-js/node_modules python tests/data/agents-js/record.py [--nonstrict]

With --nonstrict the SDK's default mode (convertSchemasToStrict unset) is recorded instead, into
conversions-nonstrict.json: the parameters each tool is sent with (the corpus's as a digest).

Cases: one schema per probe of the suite, the hand-written shapes below, 60 generated tool
schemas (the same strategy as tests/verify/test_sdk_transforms.py, derandomized), and the input schema
of every tool in bench/servers, tests/data/corpus and examples (those kept only as a digest and
the SDK's verdict, to keep the record small)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mcplint.verify.records import corpus_schemas, digest  # noqa: E402

S, N = {"type": "string"}, {"type": ["string", "null"]}


def obj(props: dict, required=None, **kw) -> dict:
    return {"type": "object", "properties": props, "required": list(props) if required is None else required,
            "additionalProperties": False, **kw}


# each aimed at one decision of the conversion, with its near miss
SHAPES = {
    "optional-not-null": obj({"a": S, "b": S}, ["b"]),
    "optional-null": obj({"a": N}, []),
    "optional-null-default-null": obj({"a": {**N, "default": None}}, []),
    "optional-null-default": obj({"a": {**N, "default": "x"}}, []),
    "optional-untyped": obj({"a": {"description": "anything"}}, []),
    "optional-enum-null": obj({"a": {"enum": ["x", None]}}, []),
    "optional-anyof-null": obj({"a": {"anyOf": [S, {"type": "null"}], "default": None}}, []),
    "optional-ref": obj({"a": {"$ref": "#/$defs/A"}}, [], **{"$defs": {"A": obj({"x": S})}}),
    "nested-open-empty": obj({"o": {"type": "object", "properties": {}}}),
    "nested-closed-empty": obj({"o": {"type": "object", "properties": {}, "additionalProperties": False}}),
    "nested-open-no-properties": obj({"o": {"type": "object"}}),
    "nested-closed-no-properties": obj({"o": {"type": "object", "additionalProperties": False}}),
    "nested-open-with-properties": obj({"o": {"type": "object", "properties": {"x": S}}}),
    "nested-additional-true": obj({"o": {"type": "object", "properties": {"x": S}, "additionalProperties": True}}),
    "nested-typeless-closed": obj({"o": {"properties": {"x": S}, "required": ["x"], "additionalProperties": False}}),
    "nested-typeless-open": obj({"o": {"properties": {"x": S}, "required": ["x"]}}),
    "root-empty": {},
    "root-no-properties": {"type": "object"},
    "root-empty-properties": {"type": "object", "properties": {}},
    "root-closed-empty": {"type": "object", "properties": {}, "additionalProperties": False},
    "root-typeless": {"properties": {"x": S}, "required": ["x"]},
    "root-anyof": {"anyOf": [obj({"x": S}), obj({"y": S})]},
    "root-enum": {"type": "object", "enum": [{"x": "a"}], "properties": {"x": S}},
    "anyof-type-sibling": obj({"u": {"type": "string", "anyOf": [{"minLength": 1}, {"maxLength": 0}]}}),
    "anyof-described": obj({"u": {"anyOf": [S, {"type": "integer"}], "description": "d", "title": "U"}}),
    "anyof-branch-optional": obj({"u": {"anyOf": [obj({"x": S, "y": S}, ["x"]), {"type": "null"}]}}),
    "anyof-branch-optional-null": obj({"u": {"anyOf": [obj({"x": S, "y": N}, ["x"]), {"type": "null"}]}}),
    "anyof-branch-ref-optional": obj({"u": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}], "default": None}},
                                     **{"$defs": {"M": obj({"x": S, "y": S}, ["x"])}}),
    "anyof-branch-ref-required": obj({"u": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}], "default": None}},
                                     **{"$defs": {"M": obj({"x": S, "y": S})}}),
    "ref-described": obj({"a": {"$ref": "#/$defs/A", "description": "an A"}}, **{"$defs": {"A": obj({"x": S})}}),
    "ref-content-media-type": obj({"a": {"$ref": "#/$defs/A", "contentMediaType": "text/plain"}},
                                  **{"$defs": {"A": S}}),
    "ref-constraining": obj({"a": {"$ref": "#/$defs/A", "maxLength": 3}}, **{"$defs": {"A": S}}),
    "ref-anchor": obj({"a": {"$ref": "#a"}}, **{"$defs": {"A": {"$anchor": "a", "type": "string"}}}),
    "ref-remote": obj({"a": {"$ref": "https://example.com/a.json"}}),
    "ref-dangling": obj({"a": {"$ref": "#/$defs/missing"}}),
    "ref-root": obj({"a": S, "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}),
    "ref-definitions": obj({"a": {"$ref": "#/definitions/A"}}, **{"definitions": {"A": S}}),
    "nested-id": obj({"a": {"$id": "https://example.com/a", "type": "string"}}),
    "root-id": obj({"a": S}, **{"$id": "https://example.com/root"}),
    "default-null": obj({"a": {**N, "default": None}}),
    "default-value": obj({"a": {"type": "integer", "default": 3}}),
    "items-object-optional": obj({"l": {"type": "array", "items": obj({"x": S, "y": S}, ["x"])}}),
    "additional-items-single": obj({"l": {"type": "array", "items": S, "additionalItems": False}}),
    "schema-dialect": obj({"a": S}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}),
}


def generated(n: int = 60) -> list:
    from schema_strategies import generated_tool_schemas

    return generated_tool_schemas(n)


def convert(schemas: list, nonstrict: bool = False) -> list:
    env = {**os.environ, "NODE_PATH": os.environ.get("NODE_PATH", str(HERE / "node_modules"))}
    # an ES module resolves bare imports from its own folder up, not NODE_PATH: run a copy beside the package
    base = Path(env["NODE_PATH"].split(os.pathsep)[0]).parent
    script = base / "convert.mjs"
    script.write_text((HERE / "convert.mjs").read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run(["node", str(script)] + (["nonstrict"] if nonstrict else []), input=json.dumps(schemas), capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(run.stdout)


def main() -> None:
    from mcplint.verify.suite import PROBES

    nonstrict = "--nonstrict" in sys.argv[1:]
    base = Path(os.environ.get("NODE_PATH", str(HERE / "node_modules")).split(os.pathsep)[0])
    version = json.loads((base / "@openai" / "agents-core" / "package.json").read_text())["version"]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    named = [(f"probe:{p.id}", p.schema) for p in PROBES] + [(f"shape:{k}", v) for k, v in SHAPES.items()] + \
        [(f"generated:{i}", s) for i, s in enumerate(generated())]
    results = convert([s for _, s in named], nonstrict)
    corpus = corpus_schemas(ROOT)
    verdicts = convert(list(corpus.values()), nonstrict)
    if nonstrict:
        record = {
            "package": "@openai/agents-core", "version": version, "node": node, "recorded": date.today().isoformat(),
            "call": "mcpToFunctionTool({name: 't', description: '', inputSchema}, server, false)",
            "cases": [{"name": n, "schema": s, **r} for (n, s), r in zip(named, results)],
            "corpus": {d: {"strict": r["strict"], "parameters": digest(r["parameters"])} for d, r in zip(corpus, verdicts)},
        }
        (HERE / "conversions-nonstrict.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"{len(record['cases'])} cases, {len(record['corpus'])} corpus schemas, {version} on node {node} (non-strict)")
        return
    record = {
        "package": "@openai/agents-core", "version": version, "node": node, "recorded": date.today().isoformat(),
        "call": "mcpToFunctionTool({name: 't', description: '', inputSchema}, server, true)",
        "cases": [{"name": n, "schema": s, **r} for (n, s), r in zip(named, results)],
        "corpus": {d: ({"strict": True} if r.get("strict") else {k: v for k, v in r.items() if k != "parameters"})
                   for d, r in zip(corpus, verdicts)},
    }
    (HERE / "conversions.json").write_text(json.dumps(record, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(record['cases'])} cases, {len(record['corpus'])} corpus schemas, {version} on node {node}")


if __name__ == "__main__":
    main()
