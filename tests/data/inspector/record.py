"""Record what the MCP Inspector's own `--strict` schema lint reports for each tool
(tests/rules/test_inspector_strict.py replays the record offline against mcplint's findings).

    (cd /tmp && npm pack @modelcontextprotocol/inspector@2.12.0 && tar xzf modelcontextprotocol-inspector-2.12.0.tgz)
    MCPLINT_INSPECTOR=/tmp/package python tests/data/inspector/record.py

(.ci/run fetches the same package, checks its hash and sets MCPLINT_INSPECTOR for the real-package run.)

harness.mjs takes the lint (core/json/schemaLint.ts) whole from the package's bundled CLI and runs
it. Cases: the hand-written CASES below, each aimed at one branch of the lint (with its near miss);
the tools of bench/servers, tests/data/corpus and examples, keyed as the other client records key
them, with the Inspector's findings for each as [rule, schema, path] (an empty list when it has
none; its path is the Inspector's own: `properties.a`, `anyOf[1]`, `properties["a-b"]`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT)]

from mcplint.verify.records import corpus_tools  # noqa: E402

S = {"type": "string"}


def obj(props: dict, **kw) -> dict:
    return {"type": "object", "properties": props, **kw}


def nested(depth: int) -> dict:
    """An untyped schema ``depth`` levels of `items` below the root (the lint stops at 64)."""
    schema: dict = {"description": "deep"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


CASES = {
    # boolean-schema: every subschema position but the four boolean-valued ones
    "bool-property-true": obj({"a": True}),
    "bool-property-false": obj({"a": False}),
    "bool-pattern-properties": {"type": "object", "patternProperties": {"^x": True}},
    "bool-dependent-schemas": obj({"a": S}, dependentSchemas={"a": False}),
    "bool-dependencies": obj({"a": S}, dependencies={"a": True}),
    "bool-defs": obj({"a": S}, **{"$defs": {"T": True}}),
    "bool-definitions": obj({"a": S}, definitions={"T": False}),
    "bool-anyof-branch": obj({"a": {"anyOf": [S, True]}}),
    "bool-oneof-branch": obj({"a": {"oneOf": [S, False]}}),
    "bool-allof-branch": obj({"a": {"allOf": [S, True]}}),
    "bool-prefix-items": obj({"a": {"type": "array", "prefixItems": [S, True]}}),
    "bool-items": obj({"a": {"type": "array", "items": True}}),
    "bool-items-false": obj({"a": {"type": "array", "prefixItems": [S], "items": False}}),
    "bool-items-array": obj({"a": {"type": "array", "items": [S, True]}}),
    "bool-contains": obj({"a": {"type": "array", "contains": True}}),
    "bool-not-true": obj({"a": {"type": "string", "not": True}}),
    "bool-property-names-false": obj({"a": {"type": "object", "propertyNames": False}}),
    "bool-if-then-else": obj({"a": {"type": "string", "if": True, "then": False, "else": True}}),
    "bool-content-schema": obj({"a": {"type": "string", "contentMediaType": "application/json", "contentSchema": True}}),
    "bool-root": True,
    "near-bool-additional-properties": obj({"a": S}, additionalProperties=False),
    "near-bool-unevaluated-properties": obj({"a": S}, unevaluatedProperties=False),
    "near-bool-additional-items": obj({"a": {"type": "array", "items": [S], "additionalItems": False}}),
    "near-bool-unevaluated-items": obj({"a": {"type": "array", "prefixItems": [S], "unevaluatedItems": False}}),
    "near-bool-additional-properties-true": obj({"a": {"type": "object", "additionalProperties": True}}),
    # type-union: an array of distinct known type names
    "union-nullable": obj({"a": {"type": ["string", "null"]}}),
    "union-two": obj({"a": {"type": ["string", "number"]}}),
    "union-three": obj({"a": {"type": ["string", "integer", "null"]}}),
    "union-root": {"type": ["object", "null"], "properties": {"a": S}},
    "union-single": obj({"a": {"type": ["string"]}}),
    "near-union-duplicate": obj({"a": {"type": ["string", "string"]}}),
    "near-union-unknown": obj({"a": {"type": ["string", "text"]}}),
    "near-union-empty": obj({"a": {"type": []}}),
    "near-union-anyof": obj({"a": {"anyOf": [S, {"type": "null"}]}}),
    # remote-ref: a $ref not starting with "#", unless the schema declares an $id anywhere
    "ref-remote-url": obj({"a": {"$ref": "https://example.com/address.json"}}),
    "ref-relative-file": obj({"a": {"$ref": "address.json#/$defs/A"}}),
    "ref-remote-in-defs": obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "other.json"}}}),
    "near-ref-local": obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": S}}),
    "near-ref-with-id": obj({"a": {"$ref": "address.json"}}, **{"$defs": {"A": {"$id": "address.json", **S}}}),
    "near-ref-root-id": {"$id": "https://example.com/t.json", **obj({"a": {"$ref": "other.json"}})},
    # untyped-schema: an object subschema with no constraining keyword, except directly under `not`
    "untyped-property-empty": obj({"a": {}}),
    "untyped-property-description": obj({"a": {"description": "anything"}}),
    "untyped-property-default": obj({"a": {"default": 1, "title": "A"}}),
    "untyped-property-nullable": obj({"a": {"nullable": True, "description": "n"}}),
    "untyped-root-empty": {},
    "untyped-root-description": {"description": "no fields", "title": "T"},
    "untyped-anyof-branch": obj({"a": {"anyOf": [S, {"description": "other"}]}}),
    "untyped-oneof-branch": obj({"a": {"oneOf": [S, {}]}}),
    "untyped-allof-branch": obj({"a": {"allOf": [{"description": "d"}, S]}}),
    "untyped-defs": obj({"a": {"$ref": "#/$defs/T"}}, **{"$defs": {"T": {"description": "t"}}}),
    "untyped-items": obj({"a": {"type": "array", "items": {"description": "an item"}}}),
    "untyped-prefix-items": obj({"a": {"type": "array", "prefixItems": [{}]}}),
    "untyped-additional-properties": obj({"a": {"type": "object", "additionalProperties": {}}}),
    "untyped-pattern-properties": {"type": "object", "patternProperties": {"^x": {"description": "x"}}},
    "untyped-property-names": obj({"a": {"type": "object", "propertyNames": {"description": "names"}}}),
    "untyped-contains": obj({"a": {"type": "array", "contains": {}}}),
    "untyped-if-alone": obj({"a": {"if": {"type": "string"}}}),
    "untyped-if-then-bodies": obj({"a": {"type": "string", "if": {}, "then": {"description": "t"}, "else": {}}}),
    "untyped-content-schema": obj({"a": {"type": "string", "contentSchema": {}}}),
    "untyped-deep-60": obj({"a": nested(60)}),
    "untyped-deep-70": obj({"a": nested(70)}),
    "near-untyped-enum": obj({"a": {"enum": ["x", "y"]}}),
    "near-untyped-const": obj({"a": {"const": "x"}}),
    "near-untyped-format": obj({"a": {"format": "date"}}),
    "near-untyped-min-length": obj({"a": {"minLength": 1}}),
    "near-untyped-required": obj({"a": {"required": ["b"]}}),
    "near-untyped-anyof": obj({"a": {"anyOf": [S, {"type": "number"}]}}),
    "near-untyped-ref": obj({"a": {"$ref": "#/$defs/T"}}, **{"$defs": {"T": S}}),
    "near-untyped-if-then": obj({"a": {"if": {"type": "string"}, "then": {"minLength": 1}}}),
    "near-untyped-under-not": obj({"a": {"type": "string", "not": {}}}),
    "near-untyped-properties": {"properties": {"a": S}},
}
OUTPUT_CASES = {
    "output-untyped-property": obj({"r": {"description": "result"}}),
    "output-union": obj({"r": {"type": ["integer", "null"]}}),
    "output-bool": obj({"r": True}),
    "output-remote-ref": obj({"r": {"$ref": "https://example.com/r.json"}}),
}


def named_cases() -> list[tuple[str, dict]]:
    return [(k, {"inputSchema": v}) for k, v in CASES.items()] + \
        [(k, {"inputSchema": obj({}), "outputSchema": v}) for k, v in OUTPUT_CASES.items()]


def run(tools: list, package: Path) -> list:
    named = [{"name": "t", "description": "d", **t} for t in tools]
    proc = subprocess.run(["node", str(HERE / "harness.mjs"), str(package)], input=json.dumps(named),
                          capture_output=True, text=True, check=True, timeout=600)
    return json.loads(proc.stdout)


def observe(package: Path) -> dict:
    """The cases and the corpus as the package's lint reports them now (one node run: a few seconds)."""
    named = named_cases()
    corpus = corpus_tools(ROOT)
    out = [[[f["rule"], f["schema"], f["path"]] for f in found]
           for found in run([t for _, t in named] + list(corpus.values()), package)]
    return {"cases": [{"name": n, "tool": t, "findings": f} for (n, t), f in zip(named, out[:len(named)])],
            "corpus": dict(zip(corpus, out[len(named):]))}


def main() -> None:
    package = Path(os.environ.get("MCPLINT_INSPECTOR") or sys.exit("set MCPLINT_INSPECTOR to the unpacked package"))
    version = json.loads((package / "package.json").read_text())["version"]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    record = {"package": "@modelcontextprotocol/inspector", "version": version, "node": node,
              "recorded": date.today().isoformat(), **observe(package)}
    (HERE / "record.json").write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    print(len(record["cases"]), sum(bool(v) for v in record["corpus"].values()), len(record["corpus"]), version)


if __name__ == "__main__":
    main()
