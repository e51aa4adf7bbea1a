"""A slot whose schema an earlier slot of the collection holds is linted once (mcplint.repeats):
the findings are those of linting every slot, and a call that depends on more than the schema is
made on every slot."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from mcplint import engine
from mcplint.config import Config
from mcplint.finish import RuleHit
from mcplint.load import load_text
from mcplint.model import _FIELDS as FIELDS, Pointer, Slot
from mcplint.registry import Context, RawFinding
from mcplint.repeats import RepeatedSlots
from mcplint.schemawalk import UNSHARED

CORPUS = Path(__file__).parent / "data" / "corpus"

SCHEMAS = [
    {"type": "object", "properties": {"q": {"type": "string"}, "all": True}, "required": "q"},
    {"type": "object", "$schema": "http://json-schema.org/draft-07/schema#",
     "properties": {"n": {"type": "integer", "minimum": "1"}}},
    {"type": "object", "$defs": {"a": {"$ref": "#/$defs/a"}},
     "properties": {"a": {"$ref": "#/$defs/a"}, "r": {"pattern": "(a+)+$"}, "x-mcp-header": {"type": "string"}}},
    {"type": "object", "properties": {"s": {"type": "string", "maxLength": 1}}},
    {"type": "object", "properties": {"s": {"type": "string", "maxLength": True}}},  # (== 1 in Python)
    {"type": "object", "properties": {"s": {"type": "string", "maxLength": 1.0}}},
    {"type": "object", "properties": {"type": {"type": "objekt"}}, "additionalProperties": {"type": "string"}},
]


def corpus_tools(per_file: int = 1) -> list:
    tools = []
    for path in sorted(CORPUS.glob("*.tools.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tools += (data["tools"] if isinstance(data, dict) else data)[:per_file]
    return tools


def repeating_tools() -> list:
    """Each schema in three tools of other names (and titles, annotations), as input and output."""
    tools = []
    for copy in range(3):
        for i, schema in enumerate(SCHEMAS):
            tool = {"name": f"t{i}_{copy}", "inputSchema": schema, "outputSchema": SCHEMAS[(i + copy) % len(SCHEMAS)]}
            if copy % 2:
                tool["annotations"] = {"readOnlyHint": "yes"}
            tools.append(tool)
        tools += [dict(t, name=f"{t.get('name')}_{copy}") for t in corpus_tools()]
    return tools


class _EverySlot(RepeatedSlots):
    """The plain path: every slot linted with every call."""

    def lint(self, slot, tool, calls):
        self.run(calls, slot, tool, slot.kind)


def as_json(found: list) -> str:
    return json.dumps([[repr(getattr(f, name)) for name in FIELDS] for f in found])


@pytest.mark.parametrize("config", [Config(), Config(profiles=("strict",)),
                                    pytest.param(Config(profiles=("default",)), marks=pytest.mark.slow)],
                         ids=["no profile", "strict", "default"])
def test_findings_equal_linting_every_slot(config, monkeypatch):
    text = json.dumps({"tools": repeating_tools()}, indent=1)

    def lint():
        return engine.lint_document(load_text(text, "t.json", "json"), config)[1]

    fast = lint()
    monkeypatch.setattr(engine, "RepeatedSlots", _EverySlot)
    plain = lint()
    assert len({f.rule for f in plain}) >= 10 and len(plain) > 100
    assert as_json(fast) == as_json(plain)


# ------------------------------------------------------------- calls that depend on more than the schema

def _run_all(slots: list, funcs: list, reads_collection: bool = False) -> tuple[list, list]:
    """Lint ``slots`` through RepeatedSlots with one rule call per function; (raw findings as
    (rule, pointer, message), how many times each function was called)."""
    raw: list = []
    called = [0] * len(funcs)

    def run(calls, target, tool, kind):
        for meta, func, ctx, vs, pname in calls:
            for rf in func(target, ctx):
                raw.append(RuleHit(meta, rf, vs, tool, kind, pname))

    def counted(i, func):
        def call(target, ctx):
            called[i] += 1
            return func(target, ctx)
        return call

    metas = [SimpleNamespace(id=f"R{i}", profiled=False) for i in range(len(funcs))]
    calls = [engine.RuleCall(m, counted(i, f), Context(m, ("2025-11-25",), Config(), collection=object()), ("2025-11-25",), None)
             for i, (m, f) in enumerate(zip(metas, funcs))]
    repeats = RepeatedSlots(raw, run, UNSHARED)
    for slot in slots:
        repeats.lint(slot, slot.tool, calls)
    return [(h.meta.id, str(h.finding.pointer), h.finding.message) for h in raw], called


def _slots(names: list, schema=None) -> list:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}} if schema is None else schema
    return [Slot(SimpleNamespace(name=n, doc=None), "inputSchema", Pointer(("tools", i, "inputSchema")),
                 json.loads(json.dumps(schema))) for i, n in enumerate(names)]


def test_a_call_on_the_schema_alone_is_made_twice_and_replayed():
    def pure(slot, ctx):
        yield RawFinding(slot.pointer / "properties" / "a", "no description")

    found, called = _run_all(_slots(["a", "b", "c", "d", "e"]), [pure])
    assert called == [2]  # (the first slot, and the second, which checks the replay)
    assert found == [("R0", f"/tools/{i}/inputSchema/properties/a", "no description") for i in range(5)]


def test_a_call_that_reads_the_tool_or_the_collection_is_made_every_time():
    def by_name(slot, ctx):
        yield RawFinding(slot.pointer, f"tool {slot.tool.name}")

    def by_collection(slot, ctx):
        ctx.collection  # noqa: B018 (read: its findings may depend on it)
        yield RawFinding(slot.pointer, "x")

    found, called = _run_all(_slots(["same", "same", "other", "same"]), [by_name, by_collection])
    assert called == [4, 4]
    assert [m for r, _, m in found if r == "R0"] == ["tool same", "tool same", "tool other", "tool same"]


def test_a_call_whose_words_name_its_place_is_made_every_time():
    def place(slot, ctx):
        yield RawFinding(slot.pointer, f"see tool #{slot.pointer[1] % 3}")  # (no read of the tool)

    def patched(slot, ctx):
        yield RawFinding(slot.pointer, "p", SimpleNamespace(patch=({"op": "add", "path": str(slot.pointer)},)))

    def outside(slot, ctx):
        yield RawFinding(Pointer(("tools",)), "listed")

    found, called = _run_all(_slots(list("abcdef")), [place, patched, outside])
    assert called == [6, 6, 6]
    assert [m for r, _, m in found if r == "R0"] == [f"see tool #{i % 3}" for i in range(6)]


def test_schemas_equal_in_python_but_not_in_json_are_not_repeats():
    def echo(slot, ctx):
        yield RawFinding(slot.pointer, repr(slot.schema["maxLength"]))

    slots = _slots(["a", "b"], {"maxLength": 1}) + _slots(["c", "d"], {"maxLength": True}) + \
        _slots(["e", "f"], {"maxLength": 1.0})
    found, called = _run_all(slots, [echo])
    assert [m for *_, m in found] == ["1", "1", "True", "True", "1.0", "1.0"]
    assert called == [6]
