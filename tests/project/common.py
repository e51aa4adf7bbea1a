"""Helpers shared by the projection tests: the profiles by kind, the files and fixture tools
the projection is tried on, item lookups."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from mcplint.load import load_text

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]
HOSTED = ["openai-strict", "openai-finetuned", "anthropic-strict", "gemini", "gemini-openapi"]
LOCAL = ["llguidance", "xgrammar", "outlines", "llama-cpp"]
CLIENTS = ["anthropic-api", "vscode-copilot", "gemini-cli", "openai-agents"]
ALL = HOSTED + LOCAL + CLIENTS


def _fixture_tools() -> list[tuple[str, dict]]:
    """(label, tool) for every Tool with an object inputSchema in the rule fixture tables."""
    import yaml

    out = []
    for f in sorted((Path(__file__).resolve().parents[1] / "cases").glob("*.yaml")):
        for n, case in enumerate(yaml.safe_load(f.read_text(encoding="utf-8")) or []):
            for key in ("tool", "near_miss"):
                data = case.get(key)
                if key == "near_miss" and isinstance(data, dict):
                    data = data.get("tool")
                tools = [data] if isinstance(data, dict) else []
                doc = case.get("document")
                if isinstance(doc, dict) and isinstance(doc.get("tools"), list):
                    tools += doc["tools"]
                for t in tools:
                    if isinstance(t, dict) and isinstance(t.get("inputSchema"), dict) and isinstance(t.get("name"), str):
                        out.append((f"{f.stem}[{n}]:{t.get('name')}", t))
    return out


FIXTURE_TOOLS = _fixture_tools()


def _files() -> list[Path]:
    out = sorted((DATA / "corpus").glob("*.json")) + [ROOT / "examples" / "weather-server.tools.json"]
    for sub in ("Tool", "Tool-from-tools-mdx", "ListToolsResult", "ListToolsResultResponse"):
        out += sorted((DATA / "mcp-examples").glob(f"*/{sub}/*.json"))
    return out


FILES = _files()


def kinds(items) -> dict:
    out: dict = {}
    for i in items:
        out.setdefault(i.kind, []).append(i)
    return out


def subjects(items, kind=None) -> set:
    return {i.subject for i in items if kind is None or i.kind == kind}


def node_at(tree, ptr):
    for p in ptr:
        tree = tree[int(p)] if isinstance(tree, list) else tree[p]
    return tree


@lru_cache(maxsize=None)
def load_doc(path: Path):
    return load_text(path.read_text(encoding="utf-8"), path.name, "json")


class EcmaValidator:
    """A validator for ``schema`` in its own dialect whose patterns are matched as ECMA-262, by the
    engine `validate` and SCH109 use (mcplint.instance), so that a projection is tested with the
    regular expressions a JSON Schema means, not Python's."""

    def __init__(self, schema):
        from mcplint.instance import _registry, dialect_of, ecma_validator_class

        dialect = dialect_of(schema)
        self._v = ecma_validator_class(dialect if dialect not in (None, "json-structure") else "2020-12")(
            schema, registry=_registry())

    def iter_errors(self, instance) -> list:
        from mcplint.instance import time_budget

        with time_budget(60):
            return list(self._v.iter_errors(instance))

    def is_valid(self, instance) -> bool:
        return not self.iter_errors(instance)
