"""Generate a corpus of real-world-shaped tool definitions for benchmarks.

Starts from the real servers' tools/list results in tests/data/corpus and derives
variants deterministically (renamed tools and properties, optional fields added or
dropped, nested objects, enums, arrays of objects), so the shapes stay those real
servers emit while the count reaches the target.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"


def real_tools() -> list[dict]:
    tools = []
    for f in sorted(CORPUS.glob("*.tools.json")):
        tools += json.loads(f.read_text(encoding="utf-8"))["tools"]
    return tools


def _mutate(schema: dict, rnd: random.Random, depth: int = 0) -> dict:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return schema
    out = {}
    for name, sub in props.items():
        new = name if rnd.random() < 0.7 else f"{name}_{rnd.randint(1, 99)}"
        if isinstance(sub, dict):
            sub = dict(sub)
            roll = rnd.random()
            if roll < 0.05 and depth < 3:
                sub = {"type": "object", "properties": {"value": sub, "note": {"type": "string"}},
                       "required": ["value"]}
            elif roll < 0.10 and sub.get("type") == "string":
                sub["enum"] = [f"v{i}" for i in range(rnd.randint(2, 8))]
            elif roll < 0.13:
                sub = {"type": "array", "items": sub, "maxItems": rnd.randint(5, 50)}
            if sub.get("type") == "object":
                sub = _mutate(sub, rnd, depth + 1)
        out[new] = sub
    if rnd.random() < 0.3:
        out[f"extra_{rnd.randint(1, 999)}"] = {"type": rnd.choice(["string", "integer", "boolean", "number"]),
                                              "description": "an optional extra parameter"}
    schema = dict(schema)
    schema["properties"] = out
    if isinstance(schema.get("required"), list):
        schema["required"] = [r for r in schema["required"] if r in out]
    return schema


def generate(n_tools: int = 10_000, seed: int = 7) -> list[dict]:
    rnd = random.Random(seed)
    base = real_tools()
    tools = []
    for i in range(n_tools):
        t = copy.deepcopy(base[i % len(base)])
        t["name"] = f"{t['name']}_{i}"
        if isinstance(t.get("inputSchema"), dict):
            t["inputSchema"] = _mutate(t["inputSchema"], rnd)
        if isinstance(t.get("outputSchema"), dict):
            t["outputSchema"] = _mutate(t["outputSchema"], rnd)
        tools.append(t)
    return tools


def write(directory: Path, n_tools: int = 10_000, per_file: int = 100) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    tools = generate(n_tools)
    paths = []
    for k in range(0, len(tools), per_file):
        p = directory / f"server-{k // per_file:04d}.tools.json"
        p.write_text(json.dumps({"tools": tools[k:k + per_file]}, indent=2), encoding="utf-8")
        paths.append(p)
    return paths
