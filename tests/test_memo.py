"""What the rules share lives in one memo per collection: the engine gives every rule of a
collection the same one, empties its target area before each target and drops it when the
collection is done, so nothing a rule kept survives the lint call."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

from mcplint import engine
from mcplint.config import Config
from mcplint.load import parse
from mcplint.memo import Memo
from mcplint.model import Source
from mcplint.registry import Context, all_rules

CORPUS = Path(__file__).parent / "data" / "corpus"


def _doc(text: str, origin: str = "t.json"):
    return parse(Source(origin, text, "json"))


def test_one_memo_per_collection_shared_by_every_rule_and_dropped(monkeypatch):
    made: list = []
    seen: set = set()

    class Recorded(Memo):
        __slots__ = ()

        def __init__(self):
            super().__init__()
            made.append((id(self), weakref.ref(self)))

    real_context = engine.Context

    def context(*args):
        ctx = real_context(*args)
        seen.add(id(ctx.memo))
        return ctx

    monkeypatch.setattr(engine, "Memo", Recorded)
    monkeypatch.setattr(engine, "Context", context)
    doc = _doc((CORPUS / sorted(p.name for p in CORPUS.glob("*.tools.json"))[0]).read_text(encoding="utf-8"))
    was = gc.isenabled()
    gc.disable()  # (dropped by reference counting: nothing holds it, no cycle keeps it)
    try:
        _, findings = engine.lint_document(doc, Config(profiles=("default",)))
        assert findings
        assert len(made) == 1 and seen == {made[0][0]}  # one memo, in every rule's context
        assert made[0][1]() is None  # and dropped with the call
    finally:
        if was:
            gc.enable()


def test_the_target_area_is_emptied_before_each_target(monkeypatch):
    """A rule reading the target area sees only what the rules of its own target put there."""
    targets: list = []
    real_run_next = Memo.next_target

    def next_target(self):
        targets.append(dict(self.target))
        real_run_next(self)
        assert self.target == {}

    monkeypatch.setattr(Memo, "next_target", next_target)
    text = json.dumps({"tools": [{"name": f"t{i}", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "string", "pattern": "^a+$", "enum": ["a", "aa"]}}}} for i in range(3)]})
    engine.lint_document(_doc(text), Config())
    assert len(targets) >= 7  # 3 tools, their 3 slots, the document
    assert any("safety.analysis" in t for t in targets)  # the SEC rules of a slot shared one analysis
    assert any("schema.walk" in t for t in targets)  # the SCH rules of a slot shared one walk


def test_a_context_made_alone_has_a_memo_of_its_own():
    meta = all_rules()[0]
    a, b = Context(meta, ("2025-11-25",), Config()), Context(meta, ("2025-11-25",), Config())
    assert isinstance(a.memo, Memo) and a.memo is not b.memo
    shared = Memo()
    assert Context(meta, ("2025-11-25",), Config(), None, None, shared).memo is shared


def test_memo_tables_are_named_and_forgotten():
    memo = Memo()
    table = memo.table("x.y")
    table[1] = "one"
    assert memo.table("x.y") is table and memo.table("x.z") == {}
    memo.target["k"] = 1
    memo.next_target()
    assert memo.target == {} and memo.table("x.y") == {1: "one"}
    memo.forget()
    assert memo.collection == {} and memo.target == {}


def _module_state(prefixes: tuple) -> dict:
    """Every dict, list and set at module level of the loaded mcplint modules under ``prefixes``,
    by what it holds (the identities of its members)."""
    import sys

    out = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefixes):
            continue
        for attr, value in vars(module).items():
            if type(value) is dict:
                out[f"{name}.{attr}"] = {k: id(v) for k, v in value.items()}
            elif type(value) in (list, set):
                out[f"{name}.{attr}"] = [id(v) for v in value]
    return out


def test_rules_and_profile_evaluation_keep_nothing_between_lint_calls():
    """After the first call (imports, the profiles loaded), linting another file with every rule
    and the default and strict profiles changes no module-level table of the rules or of the
    profile evaluation: what they share lives in the memo the engine drops."""
    files = sorted(CORPUS.glob("*.tools.json"))
    config = Config(profiles=("default", "strict"))
    engine.lint_document(_doc(files[0].read_text(encoding="utf-8"), str(files[0])), config)
    prefixes = ("mcplint.rules.", "mcplint.profiles.")
    before = _module_state(prefixes)
    for path in files[1:4]:
        _, findings = engine.lint_document(_doc(path.read_text(encoding="utf-8"), str(path)), config)
    after = _module_state(prefixes)
    changed = sorted(k for k in after if before.get(k) != after[k])
    assert not changed, changed
