"""The openai-agents-js profile held to what @openai/agents-core's mcpToFunctionTool really does
with convertSchemasToStrict, as recorded by running it under node (tests/data/agents-js: the
record, the harness and the script that makes both; offline here).

Every recorded conversion must be explained by the profile as tests/verify/test_sdk_transforms.py
explains a Python SDK's (mcplint/verify/sdk.py), and the other way round: where the profile says
the SDK gives up and sends the tool non-strict, it did. Over the 4,313 distinct input schemas of
the bench servers, the test corpus and the examples, the profile's verdict (converted, or sent
non-strict) must be the SDK's for every one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.profiles import evaluate_slot, load_profile
from mcplint.profiles.conditions import accepts_null
from mcplint.profiles.nullability import DISALLOWS, nullability
from mcplint.verify import records
from mcplint.verify.sdk import Sdk, check

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "agents-js"
PROFILE = "openai-agents-js"


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "conversions.json").read_text(encoding="utf-8"))


def _key(schema) -> str:
    return json.dumps(schema, sort_keys=True)


@lru_cache(maxsize=1)
def by_schema() -> dict:
    return {_key(c["schema"]): c for c in record()["cases"]}


class Refused(Exception):
    """The SDK's non-strict fallback, with the reason it logged."""


class NoArgumentsNotStrict(Refused):
    """The fallback for a root that declares no properties (an exception the profile lists)."""


def _declares_properties(schema: dict) -> bool:
    return isinstance(schema.get("properties"), dict) and bool(schema["properties"])


def unwrap(before, after, root):
    """``after`` with the conversion's synthetic null wrappers taken off again: where ``before``
    has an optional property whose schema does not take null (by the SDK's rule) and ``after``
    holds exactly ``{anyOf: [it, {type: null}]}`` (its description copied beside), the property
    is put back as converted, and left out of ``required`` again, as is one that takes null and
    has no default but null (a null there stands for leaving it out). That the null is then removed before the call is
    ``test_a_null_for_a_wrapped_property_never_reaches_the_server``'s to show."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return after
    out = dict(after)
    props, new = before.get("properties"), after.get("properties")
    if isinstance(props, dict) and isinstance(new, dict):
        req = before.get("required") if isinstance(before.get("required"), list) else []
        fixed, optional = {}, set()
        for k, v in new.items():
            b = props.get(k)
            if k not in req and b is not None and nullability(b, root) == DISALLOWS and isinstance(v, dict) and \
                    set(v) <= {"anyOf", "description"} and isinstance(v.get("anyOf"), list) and len(v["anyOf"]) == 2 and \
                    v["anyOf"][1] == {"type": "null"} and v.get("description") == (b.get("description") if isinstance(b, dict) else None):
                v = v["anyOf"][0]
                optional.add(k)
            elif k not in req and isinstance(b, dict) and accepts_null(b) and b.get("default") is None:
                optional.add(k)  # null stands for leaving it out: the profile's condition null_as_absent
            fixed[k] = unwrap(b, v, root)
        out["properties"] = fixed
        if isinstance(after.get("required"), list) and optional:
            out["required"] = [k for k in after["required"] if k not in optional]
    for kw in ("$defs", "definitions"):
        if isinstance(before.get(kw), dict) and isinstance(after.get(kw), dict):
            out[kw] = {k: unwrap(before[kw].get(k), v, root) for k, v in after[kw].items()}
    if isinstance(before.get("anyOf"), list) and isinstance(after.get("anyOf"), list):
        out["anyOf"] = [unwrap(b, a, root) for b, a in zip(before["anyOf"], after["anyOf"])] + after["anyOf"][len(before["anyOf"]):]
    if isinstance(before.get("items"), dict):
        out["items"] = unwrap(before["items"], after.get("items"), root)
    return out


def replay(schema):
    case = by_schema().get(_key(schema))
    if case is None:
        raise LookupError("not in the record: run tests/data/agents-js/record.py")
    if "thrown" in case:
        raise RuntimeError(case["thrown"])
    if not case["strict"]:
        open_root = "open JSON schema object" in case["warning"] and not _declares_properties(schema)
        raise (NoArgumentsNotStrict if open_root else Refused)(case["warning"])
    return unwrap(schema, case["parameters"], schema)


SDK = Sdk("@openai/agents-core", PROFILE, replay, models_itself=True)


def drops(schema) -> list:
    return [e for e in evaluate_slot(load_profile(PROFILE), schema) if e.rule.action == "drop"]


def sent_non_strict(schema) -> bool:
    """The profile's verdict: some drop (the conversion gives up), or a root with nothing to enforce
    that the SDK sends non-strict all the same (the exception refused:NoArgumentsNotStrict)."""
    if drops(schema):
        return True
    return isinstance(schema, dict) and bool(schema) and not _declares_properties(schema) and \
        schema.get("additionalProperties") is not False and schema.get("type", "object") == "object"


def test_record_is_of_the_version_the_profile_names():
    vw = load_profile(PROFILE).verified_with
    assert vw["package"] == record()["package"] == "@openai/agents-core"
    assert vw["version"] == record()["version"]
    assert len(record()["cases"]) > 150 and len(record()["corpus"]) > 4000


def test_every_recorded_conversion_is_explained_by_the_profile():
    profile = load_profile(PROFILE)
    bad, excused = {}, set()
    for case in record()["cases"]:
        r = check(SDK, profile, case["schema"])
        excused |= {c.key for c in r.excused}
        if r.unexplained:
            bad[case["name"]] = [f"{c.key} at {c.where()}: {c.detail}" for c in r.unexplained]
    assert not bad, bad
    listed = set(profile.verified_with["exceptions"])
    assert listed == excused, f"stale or missing exceptions: listed {sorted(listed)}, needed {sorted(excused)}"


def test_where_the_profile_says_the_tool_goes_non_strict_it_did():
    wrong = {}
    for case in record()["cases"]:
        said, did = sent_non_strict(case["schema"]), not case.get("strict", False)
        if said != did:
            wrong[case["name"]] = (said, did, case.get("warning", "")[44:160])
    assert not wrong, wrong


@pytest.mark.slow
def test_the_verdict_on_every_real_server_schema_is_the_sdks():
    """4,313 distinct inputSchemas of real servers: converted or sent non-strict, as the SDK did."""
    corpus, verdicts = records.corpus_schemas(ROOT), record()["corpus"]
    assert set(corpus) == set(verdicts), "the corpus changed since the record: run tests/data/agents-js/record.py"
    wrong = [(d, sent_non_strict(s), verdicts[d].get("warning", "")[44:140])
             for d, s in corpus.items() if sent_non_strict(s) != (not verdicts[d]["strict"])]
    assert not wrong, wrong[:10]
    assert sum(not v["strict"] for v in verdicts.values()) > 500  # the comparison has both sides to get wrong


def test_a_null_for_a_wrapped_property_never_reaches_the_server():
    """The harness calls each converted tool with null for every root property: a property the
    conversion wrapped for null (optional, its schema not taking null: the profile enforces it)
    reaches the server left out; any other arrives as null."""
    checked = 0
    for case in record()["cases"]:
        schema, nulls = case["schema"], case.get("nulls")
        if not case.get("strict") or not isinstance(nulls, dict):
            continue
        req = schema.get("required") if isinstance(schema.get("required"), list) else []
        for key, prop in (schema.get("properties") or {}).items():
            wrapped = key not in req and nullability(prop, schema) == DISALLOWS
            assert (key not in nulls) == wrapped, (case["name"], key)
            checked += wrapped
    assert checked > 10


def test_unwrap_takes_off_only_the_conversions_own_wrapper():
    before = {"type": "object", "properties": {"a": {"type": "string", "description": "d"}, "b": {"type": "string"}},
              "required": ["b"]}
    after = {"type": "object", "properties": {"a": {"description": "d", "anyOf": [{"type": "string", "description": "d"},
                                                                                 {"type": "null"}]},
                                              "b": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
             "required": ["a", "b"], "additionalProperties": False}
    out = unwrap(before, after, before)
    assert out["properties"]["a"] == {"type": "string", "description": "d"}
    assert out["properties"]["b"] == after["properties"]["b"]  # required: a wrapper there is a change


def test_the_profiles_fallback_keeps_every_refusal_and_judges_the_rest_as_openai_api():
    schema = {"type": "object", "properties": {"u": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                                               "f": {"type": "string", "format": "uri"}}}
    effects = evaluate_slot(load_profile(PROFILE), schema)
    assert [(e.subject, e.rule.action) for e in effects if e.rule.action == "drop"] == [("oneOf", "drop")]
    # non-strict: OpenAI strict's rejection of format uri no longer applies
    assert not any(e.subject == "format" and e.rule.action == "reject" for e in effects)


@pytest.mark.skipif(not (os.environ.get("MCPLINT_AGENTS_JS") and shutil.which("node")),
                    reason="MCPLINT_AGENTS_JS (a node_modules folder with @openai/agents-core) not set")
def test_the_record_is_what_the_installed_package_does(tmp_path):
    modules = Path(os.environ["MCPLINT_AGENTS_JS"])
    script = modules.parent / "convert.mjs"
    script.write_text((HERE / "convert.mjs").read_text(encoding="utf-8"), encoding="utf-8")
    cases = record()["cases"]
    run = subprocess.run(["node", str(script)], input=json.dumps([c["schema"] for c in cases]), capture_output=True,
                         text=True, check=True)
    now = json.loads(run.stdout)
    assert [{k: v for k, v in c.items() if k not in ("name", "schema")} for c in cases] == now


# --- the SDK's default mode (convertSchemasToStrict unset): the profile openai-agents-js-nonstrict

NONSTRICT = "openai-agents-js-nonstrict"


@lru_cache(maxsize=1)
def nonstrict_record() -> dict:
    return json.loads((HERE / "conversions-nonstrict.json").read_text(encoding="utf-8"))


def sent_by_default(schema: dict) -> dict:
    """What the profile says the default mode sends: the schema with its root_defaults filled in
    where missing, and (its note) additionalProperties true at the root whatever the server wrote."""
    defaults = dict(load_profile(NONSTRICT).root_defaults)
    return {**schema, **{k: v for k, v in defaults.items() if k not in schema}, "additionalProperties": True}


def _as_js(value):
    """``value`` as it comes back from JavaScript: a float with an integral value is an integer there."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _as_js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_js(v) for v in value]
    return value


def _digest(schema) -> str:
    import hashlib
    return hashlib.sha256(json.dumps(_as_js(schema), sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


def test_the_default_mode_sends_every_tool_non_strict_as_the_profile_says():
    rec = nonstrict_record()
    assert rec["version"] == load_profile(PROFILE).verified_with["version"]
    assert len(rec["cases"]) > 150 and len(rec["corpus"]) > 4000
    wrong = [c["name"] for c in rec["cases"] if c["strict"] or c["parameters"] != sent_by_default(c["schema"])]
    assert not wrong, wrong
    # the cases hold roots the SDK fills in, and roots closed by the server that it opens
    assert sum(c["parameters"] != {**c["schema"], "additionalProperties": True} for c in rec["cases"]) >= 3
    assert any(c["schema"].get("additionalProperties") is False for c in rec["cases"])


def test_the_default_mode_on_every_real_server_schema_is_the_profiles():
    # the record script's own list of the schemas, keyed as it recorded them
    corpus, rec = records.corpus_schemas(ROOT), nonstrict_record()["corpus"]
    assert set(corpus) == set(rec)
    wrong = [d for d, s in corpus.items() if rec[d]["strict"] or rec[d]["parameters"] != _digest(sent_by_default(s))]
    assert not wrong, wrong[:5]


@pytest.mark.skipif(not (os.environ.get("MCPLINT_AGENTS_JS") and shutil.which("node")),
                    reason="MCPLINT_AGENTS_JS (a node_modules folder with @openai/agents-core) not set")
def test_the_default_mode_record_is_what_the_installed_package_does():
    modules = Path(os.environ["MCPLINT_AGENTS_JS"])
    script = modules.parent / "convert.mjs"
    script.write_text((HERE / "convert.mjs").read_text(encoding="utf-8"), encoding="utf-8")
    cases = nonstrict_record()["cases"]
    run = subprocess.run(["node", str(script), "nonstrict"], input=json.dumps([c["schema"] for c in cases]),
                         capture_output=True, text=True, check=True)
    assert [{k: v for k, v in c.items() if k not in ("name", "schema")} for c in cases] == json.loads(run.stdout)
