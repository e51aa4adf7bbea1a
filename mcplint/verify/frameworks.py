"""Agent frameworks whose tool-schema conversion is public Python code: hold each framework's
profile against what the framework really does to the real servers' tool lists.

The frameworks run in a virtual environment of their own (scripts/framework-transforms: the
pinned versions, built by its build.sh; CI builds it in .ci/run), driven by convert.py there
over stdin/stdout, so mcplint's environment stays free of them. Two comparisons:

* a framework that sends a tool non-strict when it cannot convert it (pydantic-ai's default,
  strict=None) must do so exactly where its profile reports a drop
  (:func:`nonstrict_disagreements`);
* a framework that rewrites every schema (pydantic-ai with strict=True, LangChain's
  ``bind_tools(strict=True)``, LiteLLM's Gemini path) must change only what its profile says it
  does not enforce, make every rewrite the profile claims, and refuse only where the profile
  reports a rejection (:func:`rewrite_disagreements`, on :func:`mcplint.verify.sdk.check`).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from ..profiles import Profile, evaluate_slot
from .sdk import Sdk, check, node_at

HARNESS = Path("scripts") / "framework-transforms" / "convert.py"


@dataclass(frozen=True)
class Framework:
    name: str  # the harness's name for the conversion
    target: str  # the profile that describes it
    dist: str  # the PyPI distribution whose version the profile records
    falls_back: bool = False  # sends what it cannot convert non-strict (else: rewrites every schema)
    # the conversion whose output this one is judged from: a first step that changes no accepted
    # value (LangChain inlines $refs before making the schema strict), recorded as its own result
    after: str = ""
    judged: bool = True  # False: run only as another conversion's first step (``after``)
    # the profile of what receives the converted schema: the framework's profile must say the request
    # fails exactly where this one rejects what the framework sends (:func:`request_disagreements`)
    provider: str = ""
    keywords_checked: bool = True  # False: only the request's outcome is held (not every keyword's change)


FRAMEWORKS = {f.name: f for f in (
    Framework("pydantic-ai", "pydantic-ai", "pydantic-ai-slim", falls_back=True),
    Framework("pydantic-ai-strict", "pydantic-ai-strict", "pydantic-ai-slim"),
    Framework("langchain-openai", "openai-api", "langchain-openai", judged=False),
    Framework("litellm-unpack", "litellm-gemini", "litellm", judged=False),
    Framework("litellm-gemini", "litellm-gemini", "litellm", after="litellm-unpack", provider="gemini-openapi"),
    Framework("langchain-openai-strict", "langchain-openai-strict", "langchain-openai", after="langchain-openai"),
)}


def corpus_tools(root: Path) -> Iterator[dict]:
    """Every tool with an object inputSchema in the tool lists under bench/servers, tests/data/corpus and
    examples, file by file (in name order) and in each file's order: the real servers' tools the truth
    lab runs the clients' conversions over."""
    files = sorted((root / "bench" / "servers").glob("*.tools.json")) + \
        sorted((root / "tests" / "data" / "corpus").glob("*.tools.json")) + sorted((root / "examples").glob("*.tools.json"))
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        tools = data.get("tools") if isinstance(data, dict) else data
        for t in tools or ():
            if isinstance(t, dict) and isinstance(t.get("inputSchema"), dict):
                yield t


def corpus_schemas(root: Path) -> list:
    """Every distinct inputSchema of :func:`corpus_tools`, in the order first seen."""
    seen: dict = {}
    for t in corpus_tools(root):
        seen.setdefault(json.dumps(t["inputSchema"], sort_keys=True), t["inputSchema"])
    return list(seen.values())


def convert(python: str, schemas: list, names: list, root: Path, timeout: float = 900) -> dict:
    """Run the frameworks' conversions (``names``) on ``schemas`` with the interpreter ``python``."""
    return start(python, schemas, names, root).result(timeout)


class Conversion:
    """The harness running in the background on files (no pipe to fill): :meth:`result` waits for it."""

    def __init__(self, python: str, schemas: list, names: list, root: Path):
        self._in = tempfile.TemporaryFile("w+", encoding="utf-8")
        json.dump({"schemas": schemas, "frameworks": names}, self._in)
        self._in.seek(0)
        self._out = tempfile.TemporaryFile("w+", encoding="utf-8")
        self._err = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.proc = subprocess.Popen([python, str(root / HARNESS)], stdin=self._in, stdout=self._out, stderr=self._err)

    def result(self, timeout: float = 900) -> dict:
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            self._in.close()
        self._out.seek(0)
        self._err.seek(0)
        out, err = self._out.read(), self._err.read()
        self._out.close()
        self._err.close()
        if code != 0:
            raise RuntimeError(f"the framework harness failed ({code}): {err[-2000:]}")
        return json.loads(out)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start(python: str, schemas: list, names: list, root: Path) -> Conversion:
    """Start the frameworks' conversions in the background (a test module starts it when collected, so
    the conversion runs beside the tests before it)."""
    return Conversion(python, schemas, names, root)


def digest(schema: Any) -> str:
    return hashlib.sha256(json.dumps(schema, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def _has_properties(schema: Any) -> bool:
    return isinstance(schema, dict) and bool(schema.get("properties"))


def nonstrict_disagreements(profile: Profile, api: Profile, schemas: list, results: list) -> list:
    """Where the profile's drops (the tool sent non-strict) and the framework's choice differ.

    A tool the framework sends non-strict where the profile reports no drop is excused when the
    profile rejects it for something OpenAI refuses of a non-strict tool as well (the request
    fails either way), or when its root has no properties (nothing to enforce, not reported)."""
    wrong = []
    for schema, got in zip(schemas, results):
        effects = evaluate_slot(profile, schema)
        said = any(e.rule.action == "drop" for e in effects)
        did = "error" in got or not got.get("strict")
        if said == did:
            continue
        if did and not _has_properties(schema):
            continue
        rejects = {(e.subject, e.pointer) for e in effects if e.rule.action == "reject"}
        if did and rejects & {(e.subject, e.pointer) for e in evaluate_slot(api, schema) if e.rule.action == "reject"}:
            continue
        wrong.append({"profile_says_nonstrict": said, "sent_nonstrict": did, "schema": schema, "sent": got})
    return wrong


def _rejects(profile: Profile, schema: Any) -> bool:
    return any(e.rule.action == "reject" and e.kind != "limit" for e in evaluate_slot(profile, schema))


def request_disagreements(profile: Profile, provider: Profile, schemas: list, results: list) -> list:
    """Where the framework's profile (on the server's schema) and the provider's profile (on what the
    framework sends, or the framework's own refusal) disagree on whether the request fails."""
    wrong = []
    for schema, got in zip(schemas, results):
        did = "error" in got or _rejects(provider, got.get("sent"))
        if _rejects(profile, schema) != did:
            wrong.append({"profile_says_fails": not did, "fails": did, "schema": schema, "sent": got,
                          "digest": digest(schema)})
    return wrong


def recorded(name: str, schemas: list, results: list) -> Callable[[dict], Any]:
    """A transform that answers with the framework's recorded result for each schema."""
    table = {json.dumps(s, sort_keys=True): r for s, r in zip(schemas, results)}

    def transform(schema: dict) -> Any:
        got = table[json.dumps(schema, sort_keys=True)]
        if "error" in got:
            raise type(str(got["error"]), (Exception,), {})(got["message"])
        return got["sent"]
    return transform


def everywhere(schema: dict, node: tuple) -> bool:
    return True


def rewrite_disagreements(fw: Framework, profile: Profile, schemas: list, results: list,
                          walked: Callable[[dict, tuple], bool] = everywhere,
                          baseline: list | None = None,
                          as_written: Callable[[Any, Any], Any] | None = None) -> tuple[list, set]:
    """Changes of the framework's the profile does not explain (and rewrites it claims that do not
    happen at a node ``walked`` says the conversion visits); and the documented exceptions used.
    With ``baseline`` (the results of ``fw.after``) each schema is judged as that step left it.
    ``as_written(schema, sent)`` puts the framework's lossless rewrites back as the schema wrote them
    before the keyword diff (a rewrite the profile claims then counts as made where the sent schema
    differs at that node)."""
    if baseline is not None:
        kept = [(b["sent"], r) for b, r in zip(baseline, results) if "error" not in b and isinstance(b.get("sent"), dict)]
        schemas, results = [k[0] for k in kept], [k[1] for k in kept]
    raw = results
    if as_written is not None:
        results = [r if "error" in r else {**r, "sent": as_written(s, r.get("sent"))} for s, r in zip(schemas, results)]
    sent = {json.dumps(s, sort_keys=True): r.get("sent") for s, r in zip(schemas, raw)}
    sdk = Sdk(fw.dist, fw.target, recorded(fw.name, schemas, results), models_itself=True)
    wrong, used = [], set()
    for schema in schemas:
        r = check(sdk, profile, schema)
        used.update(c.key for c in r.excused)
        for c in r.unexplained:
            if c.change == "not-rewritten" and not walked(schema, c.node):
                continue
            if c.change == "not-rewritten" and as_written is not None and \
                    node_at(sent[json.dumps(schema, sort_keys=True)], c.node) != node_at(schema, c.node):
                continue
            wrong.append(f"{c.key} at {c.where()}: {c.detail} in {json.dumps(schema)[:200]}")
    return wrong, used


def pydantic_ai_walks(schema: dict, node: tuple) -> bool:
    """Whether pydantic-ai's JsonSchemaTransformer visits ``node`` as an object it rewrites: it enters
    properties/additionalProperties/patternProperties only under type exactly 'object', items and
    prefixItems only under type exactly 'array', every anyOf/oneOf/allOf member, and root $defs."""
    cur: Any = schema
    path = list(node)
    i = 0
    while i < len(path):
        if not isinstance(cur, dict):
            return False
        key = path[i]
        t = cur.get("type")
        if key in ("properties", "patternProperties") and t == "object" and i + 1 < len(path):
            cur, i = (cur.get(key) or {}).get(path[i + 1]), i + 2
        elif key == "additionalProperties" and t == "object":
            cur, i = cur.get(key), i + 1
        elif key == "items" and t == "array":
            cur, i = cur.get(key), i + 1
        elif key in ("prefixItems", "anyOf", "oneOf", "allOf") and i + 1 < len(path) and isinstance(cur.get(key), list):
            if key == "prefixItems" and t != "array":
                return False
            lst = cur[key]
            j = path[i + 1]
            cur, i = (lst[j] if isinstance(j, int) and j < len(lst) else None), i + 2
        elif key in ("$defs", "definitions") and i == 0 and i + 1 < len(path):
            cur, i = (cur.get(key) or {}).get(path[i + 1]), i + 2
        else:
            return False
    return isinstance(cur, dict) and cur.get("type") == "object"


# where each framework's conversion visits a node (rewrites claimed elsewhere are not judged)
WALKS: dict = {"pydantic-ai-strict": pydantic_ai_walks}


def _nullable_branches(before: list, after: list) -> list | None:
    """``after`` (LiteLLM's anyOf, null branches removed, ``nullable: true`` on the rest) as the anyOf
    ``before`` wrote: the null branches back in their places, ``nullable`` off the others. None: not that."""
    nulls = [i for i, b in enumerate(before) if isinstance(b, dict) and b.get("type") == "null"]
    if not nulls or len(before) - len(nulls) != len(after) or len(nulls) == len(before):
        return None
    if not all(isinstance(a, dict) and a.get("nullable") is True for a in after):
        return None
    rest = iter({k: v for k, v in a.items() if k != "nullable"} for a in after)
    return [before[i] if i in nulls else next(rest) for i in range(len(before))]


def _type_list(before: dict, after: dict) -> dict | None:
    """``after`` (LiteLLM's anyOf of one branch per type of ``before``'s type list, the null one made
    ``nullable`` on the others) as one schema with the type list again. None: not that."""
    types, branches = before.get("type"), after.get("anyOf")
    if not (isinstance(types, list) and len(types) > 1 and isinstance(branches, list) and "anyOf" not in before):
        return None
    kinds = [t for t in types if t != "null"]
    if len(branches) != len(kinds) or not all(isinstance(b, dict) for b in branches) or \
            [b.get("type") for b in branches] != kinds:
        return None
    merged: dict = {k: v for k, v in after.items() if k != "anyOf"}
    for b in branches:
        for k, v in b.items():
            if k in ("type", "nullable") or (k in ("title", "description") and before.get(k) == v):
                continue
            if k in merged and merged[k] != v:
                return None
            merged[k] = v
    merged["type"] = list(types)
    for k in ("title", "description"):
        if k in before:
            merged[k] = before[k]
    return merged


def litellm_as_written(before: Any, after: Any) -> Any:
    """LiteLLM's converted schema with its lossless Gemini forms put back as ``before`` wrote them, so
    that a keyword-level diff shows only what is lost or added: a null branch or a null in a type list
    becomes ``nullable: true`` on the other branches, a type list becomes an anyOf, the title and
    description of a schema with an anyOf move into its branches, and an empty properties (with an
    empty required) is removed."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return after
    merged = _type_list(before, after)
    if merged is not None:
        after = merged
    out = dict(after)
    for k, empty in (("properties", {}), ("required", [])):  # add_object_type drops an empty properties
        if before.get(k) == empty and k not in out:
            out[k] = empty
    if isinstance(before.get("anyOf"), list) and isinstance(after.get("anyOf"), list):
        branches = _nullable_branches(before["anyOf"], after["anyOf"]) or list(after["anyOf"])
        pairs = list(zip(branches, before["anyOf"])) if len(branches) == len(before["anyOf"]) else []
        for k in ("title", "description"):
            if k in before and pairs and all(b is o or not isinstance(b, dict) or b.get(k) == before[k] for b, o in pairs):
                branches = [{x: y for x, y in b.items() if x != k} if isinstance(b, dict) and b is not o and
                            not (isinstance(o, dict) and k in o) else b for b, o in pairs]
                pairs = list(zip(branches, before["anyOf"]))
                out[k] = before[k]
        out["anyOf"] = branches
    for key in ("properties",):
        if isinstance(before.get(key), dict) and isinstance(out.get(key), dict):
            out[key] = {n: litellm_as_written(before[key].get(n), s) for n, s in out[key].items()}
    if isinstance(out.get("items"), dict):
        out["items"] = litellm_as_written(before.get("items"), out["items"])
    if isinstance(out.get("anyOf"), list) and isinstance(before.get("anyOf"), list) and \
            len(out["anyOf"]) == len(before["anyOf"]):
        out["anyOf"] = [litellm_as_written(b, a) for b, a in zip(before["anyOf"], out["anyOf"])]
    return out


# the framework's lossless rewrites put back before the keyword diff (rewrite_disagreements' as_written)
AS_WRITTEN: dict = {"litellm-gemini": litellm_as_written}
