"""Generate a corpus of real-world-shaped tool definitions for benchmarks.

Two sources of real servers' tools/list results:

* ``servers`` (the default): bench/servers, 186 servers from npm and PyPI (4,906 tools,
  6,562 schema slots). The corpus holds every one of their tools as the server sent it
  (renamed so that names stay unique), then variants of them up to the count asked for.
* ``dev``: the 12 servers of tests/data/corpus, every tool a variant. Notion's and GitHub's
  large schemas weigh heavily in it: per slot it is the heavier of the two.

Variants are derived deterministically (renamed properties, optional fields added or
dropped, nested objects, enums, arrays of objects), so the shapes stay those real servers
emit while the count reaches the target.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = {"servers": HERE / "servers", "dev": HERE.parent / "tests" / "data" / "corpus"}


def real_tools(source: str = "servers") -> list[dict]:
    tools = []
    for f in sorted(SOURCES[source].glob("*.tools.json")):
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


def generate(n_tools: int = 10_000, seed: int = 7, source: str = "servers") -> list[dict]:
    rnd = random.Random(seed)
    base = real_tools(source)
    verbatim = len(base) if source == "servers" else 0  # real tools first, as sent
    tools = []
    for i in range(n_tools):
        t = copy.deepcopy(base[i % len(base)])
        t["name"] = f"{t['name']}_{i}"
        if i >= verbatim:
            if isinstance(t.get("inputSchema"), dict):
                t["inputSchema"] = _mutate(t["inputSchema"], rnd)
            if isinstance(t.get("outputSchema"), dict):
                t["outputSchema"] = _mutate(t["outputSchema"], rnd)
        tools.append(t)
    return tools


def write(directory: Path, n_tools: int = 10_000, per_file: int = 100, source: str = "servers") -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("server-*.tools.json"):  # another source or count may have left more files
        old.unlink()
    tools = generate(n_tools, source=source)
    paths = []
    for k in range(0, len(tools), per_file):
        p = directory / f"server-{k // per_file:04d}.tools.json"
        p.write_text(json.dumps({"tools": tools[k:k + per_file]}, indent=2), encoding="utf-8")
        paths.append(p)
    return paths
