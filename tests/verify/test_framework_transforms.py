"""The truth lab for agent frameworks: pydantic-ai's (and the other frameworks' in
mcplint/verify/frameworks.py) own tool-schema conversion, run over the probe suite and every
real server's tool list here, must do what the framework's profile says: send a tool non-strict
exactly where the profile reports a drop, and change a schema only where the profile says so.

The frameworks live in a virtual environment of their own, pinned
(scripts/framework-transforms/requirements.txt, built by its build.sh; .ci/run builds it and sets
MCPLINT_FRAMEWORKS_PYTHON). Without it these tests are skipped with the reason; the checks'
own teeth are tested without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.profiles import load_profile
from mcplint.verify import frameworks as fw

ROOT = Path(__file__).resolve().parent.parent.parent


def results(conversions: tuple[list, dict], name: str) -> tuple[list, list]:
    """The schemas and ``name``'s rows of the ``framework_conversions`` fixture (tests/verify/conftest.py)."""
    schemas, out = conversions
    rows = out["results"][name]
    if isinstance(rows, dict):
        pytest.skip(f"{name} is not importable there: {rows.get('unavailable')}")
    assert len(rows) == len(schemas) > 4000
    return schemas, rows


JUDGED = [n for n, f in fw.FRAMEWORKS.items() if f.judged]


@pytest.mark.parametrize("name", JUDGED)
def test_profile_records_the_pinned_version(name):
    f = fw.FRAMEWORKS[name]
    vw = load_profile(f.target).verified_with
    assert vw and vw["package"] == f.dist
    pins = (ROOT / "scripts" / "framework-transforms" / "requirements.txt").read_text(encoding="utf-8") + \
        (ROOT / "scripts" / "framework-transforms" / "build.sh").read_text(encoding="utf-8")
    assert f'{f.dist}=={vw["version"]}' in pins


@pytest.mark.slow
@pytest.mark.parametrize("name", JUDGED)
def test_the_run_is_of_the_pinned_version(name, framework_conversions):
    f = fw.FRAMEWORKS[name]
    assert framework_conversions[1]["versions"][f.dist] == load_profile(f.target).verified_with["version"]


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in JUDGED if fw.FRAMEWORKS[n].falls_back])
def test_sent_non_strict_exactly_where_the_profile_says(name, framework_conversions):
    schemas, rows = results(framework_conversions, name)
    wrong = fw.nonstrict_disagreements(load_profile(fw.FRAMEWORKS[name].target), load_profile("openai-api"), schemas, rows)
    assert not wrong, wrong[:3]
    # both ways are exercised: tools sent strict and tools sent non-strict
    assert sum(bool(r.get("strict")) for r in rows) > 500 and sum(not r.get("strict") for r in rows) > 500


# Real-server schemas where a framework's profile is known to be wrong about the request's outcome,
# with the reason (the test fails if one is no longer a disagreement, or a new one appears)
KNOWN_REQUEST_MISSES = {
    "litellm-gemini": {
        # notion's create-a-page tools (two versions): parent is an anyOf whose branch refers to a definition
        # that is a oneOf alone
        "378456ee99481813": "a oneOf inside a definition that an anyOf branch refers to: LiteLLM inlines it and removes "
                            "the oneOf, leaving an empty branch Gemini refuses; the profile judges a definition where it stands",
        "f4c99092a0d6bb22": "as above",
        "36d0c283a3dfa36c": "an empty string in a string enum: LiteLLM replaces it with null, which Gemini's string enum "
                            "refuses; no profile condition says 'this enum holds an empty string'",
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in JUDGED if fw.FRAMEWORKS[n].provider])
def test_request_fails_exactly_where_the_profile_says(name, framework_conversions):
    f = fw.FRAMEWORKS[name]
    schemas, rows = results(framework_conversions, name)
    wrong = fw.request_disagreements(load_profile(f.target), load_profile(f.provider), schemas, rows)
    known = KNOWN_REQUEST_MISSES.get(name, {})
    assert {w["digest"] for w in wrong} == set(known), [(w["digest"], w["profile_says_fails"]) for w in wrong]
    # both outcomes are exercised
    assert sum("error" in r for r in rows) >= 1 and len(wrong) < len(rows) // 100


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in JUDGED if not fw.FRAMEWORKS[n].falls_back and fw.FRAMEWORKS[n].keywords_checked])
def test_every_change_is_one_the_profile_explains(name, framework_conversions):
    f = fw.FRAMEWORKS[name]
    schemas, rows = results(framework_conversions, name)
    profile = load_profile(f.target)
    baseline = results(framework_conversions, f.after)[1] if f.after else None
    wrong, used = fw.rewrite_disagreements(f, profile, schemas, rows, fw.WALKS.get(name, fw.everywhere), baseline,
                                           fw.AS_WRITTEN.get(name))
    assert not wrong, "\n".join(wrong[:10])
    listed = set((profile.verified_with or {}).get("exceptions") or {})
    assert listed - used == set(), "stale exceptions: no schema needs them any more"


def _has_key(node, key: str) -> bool:
    if isinstance(node, dict):
        return key in node or any(_has_key(v, key) for v in node.values())
    return isinstance(node, list) and any(_has_key(v, key) for v in node)


@pytest.mark.slow
def test_langchain_default_sends_the_schema_as_written(framework_conversions):
    """What the langchain-openai profile says of bind_tools without strict: non-strict, and the schema as
    the server wrote it but for $ref inlining and title annotations (the root description becomes the
    function's)."""
    schemas, rows = results(framework_conversions, "langchain-openai")
    assert load_profile("langchain-openai").verified_with["version"] == framework_conversions[1]["versions"]["langchain-openai"]
    plain = [(s, r) for s, r in zip(schemas, rows) if not _has_key(s, "$ref") and not _has_key(s, "title")]
    assert len(plain) > 3000
    wrong = [s for s, r in plain if "error" in r or r["strict"] is not None
             or r["sent"] != {k: v for k, v in s.items() if k != "description"}]
    assert not wrong, wrong[:3]


# --- the checks have teeth (no framework needed)

_CLOSED = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
_OPTIONAL = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}


def test_a_wrong_strictness_is_a_disagreement():
    profile, api = load_profile("pydantic-ai"), load_profile("openai-api")
    sent = [{"sent": _CLOSED, "strict": False}, {"sent": _OPTIONAL, "strict": True}]
    wrong = fw.nonstrict_disagreements(profile, api, [_CLOSED, _OPTIONAL], sent)
    assert [(w["profile_says_nonstrict"], w["sent_nonstrict"]) for w in wrong] == [(False, True), (True, False)]
    right = [{"sent": _CLOSED, "strict": True}, {"sent": _OPTIONAL, "strict": False}]
    assert fw.nonstrict_disagreements(profile, api, [_CLOSED, _OPTIONAL], right) == []
    # a root without properties sent non-strict has nothing to enforce: not a disagreement
    empty = {"type": "object", "properties": {}}
    assert fw.nonstrict_disagreements(profile, api, [empty], [{"sent": empty, "strict": False}]) == []


def test_an_unexplained_change_and_a_missing_rewrite_are_disagreements():
    f = fw.FRAMEWORKS["pydantic-ai-strict"]
    profile = load_profile(f.target)
    stripped = {**_CLOSED, "properties": {"a": {"type": "string", "pattern": "^a$"}}}
    # the pattern removed: pydantic-ai-strict enforces a plain pattern, so that is unexplained
    wrong, _ = fw.rewrite_disagreements(f, profile, [stripped], [{"sent": _CLOSED, "strict": True}])
    assert [w.split(" at ")[0] for w in wrong] == ["pattern:stripped"]
    # the optional property left optional: the profile says it is made required
    wrong, _ = fw.rewrite_disagreements(f, profile, [_OPTIONAL], [{"sent": _OPTIONAL, "strict": True}])
    assert any(w.startswith("optional-property:not-rewritten") for w in wrong)
    # a refusal needs a rejection: an untyped array is one, a closed object is not
    refused = {"error": "UserError", "message": "no"}
    untyped = {**_CLOSED, "properties": {"a": {"type": "array"}}}
    assert fw.rewrite_disagreements(f, profile, [untyped], [refused])[0] == []
    assert [w.split(" at ")[0] for w in fw.rewrite_disagreements(f, profile, [_CLOSED], [refused])[0]] == \
        ["refused:UserError"]


def test_litellm_forms_are_put_back_as_written():
    as_written = fw.litellm_as_written
    # a null branch becomes nullable on the others; the title and description go into the branches
    before = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d", "title": "T", "default": None}
    sent = {"anyOf": [{"type": "string", "nullable": True, "title": "T", "description": "d"}]}
    assert as_written(before, sent) == {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d", "title": "T"}
    # a type list becomes an anyOf of one branch per type: the object branch keeps its keywords
    before = {"type": ["object", "null"], "properties": {"a": {"type": "string"}}, "required": ["a"], "description": "d"}
    sent = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "nullable": True,
                       "description": "d"}]}
    assert as_written(before, sent) == before
    # what is lost stays lost: the maxLength beside a type list, the branch LiteLLM did not make nullable
    assert as_written({"type": ["string", "null"], "maxLength": 3}, {"anyOf": [{"type": "string", "nullable": True}]}) == \
        {"type": ["string", "null"]}
    odd = {"anyOf": [{"type": "string"}]}
    assert as_written({"anyOf": [{"type": "string"}, {"type": "null"}]}, odd) == odd
    # inside properties and items too; an empty properties LiteLLM removes is put back
    before = {"type": "object", "properties": {"l": {"type": "array", "items": {"type": ["integer", "null"]}}}}
    sent = {"type": "object", "properties": {"l": {"type": "array", "items": {"anyOf": [{"type": "integer", "nullable": True}]}}}}
    assert as_written(before, sent) == before
    assert as_written({"type": "object", "properties": {}, "required": []}, {"type": "object"}) == \
        {"type": "object", "properties": {}, "required": []}


def test_litellm_losses_the_profile_does_not_name_are_disagreements():
    f, profile = fw.FRAMEWORKS["litellm-gemini"], load_profile("litellm-gemini")
    typed = {"type": "object", "properties": {"n": {"type": ["integer", "null"], "minimum": 1}}}
    lost = {"type": "object", "properties": {"n": {"anyOf": [{"type": "integer", "nullable": True}]}}}
    # the minimum beside a type list: the profile says LiteLLM drops it
    assert fw.rewrite_disagreements(f, profile, [typed], [{"sent": lost}], as_written=fw.litellm_as_written)[0] == []
    # the same loss on a plain integer: the profile says it is kept, so this is a disagreement
    plain = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}
    wrong, _ = fw.rewrite_disagreements(f, profile, [plain], [{"sent": {"type": "object", "properties": {"n": {"type": "integer"}}}}],
                                        as_written=fw.litellm_as_written)
    assert [w.split(" at ")[0] for w in wrong] == ["minimum:stripped"]
    # a type list LiteLLM left as it is: the rewrite the profile claims did not happen
    wrong, _ = fw.rewrite_disagreements(f, profile, [typed], [{"sent": typed}], as_written=fw.litellm_as_written)
    assert "type-array:not-rewritten" in [w.split(" at ")[0] for w in wrong]


def test_pydantic_ai_walks_only_what_its_transformer_enters():
    s = {"type": "object", "properties": {
        "o": {"type": "object", "properties": {"x": {"type": "object"}}},
        "wrong": {"type": "object", "items": {"type": "object"}},
        "u": {"anyOf": [{"type": "object"}, {"type": "null"}]},
        "typed_list": {"type": ["object", "null"], "properties": {"y": {"type": "object"}}}}}
    walks = fw.pydantic_ai_walks
    assert walks(s, ()) and walks(s, ("properties", "o")) and walks(s, ("properties", "o", "properties", "x"))
    assert walks(s, ("properties", "u", "anyOf", 0))
    assert not walks(s, ("properties", "wrong", "items"))  # items under an object: not entered
    assert not walks(s, ("properties", "typed_list"))  # a type list is not 'object'
    assert not walks(s, ("properties", "typed_list", "properties", "y"))


# --- near misses: what each framework sends as the server wrote it (or rewrites without loss) is not reported

_STRICT_READY = {"type": "object", "additionalProperties": False, "required": ["q", "since", "limit"],
                 "properties": {"q": {"type": "string", "description": "query"},
                                "since": {"type": ["string", "null"], "format": "date-time"},
                                "limit": {"type": "integer", "minimum": 1}}}
_DEFS = {"type": "object", "additionalProperties": False, "required": ["who"],
         "$defs": {"P": {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"],
                         "additionalProperties": False}},
         "properties": {"who": {"$ref": "#/$defs/P", "description": "a person"}}}
NEAR_MISSES = [
    ("pydantic-ai", _STRICT_READY), ("pydantic-ai", {"type": "object", "properties": {}}),
    ("pydantic-ai", _DEFS), ("pydantic-ai-strict", _STRICT_READY), ("pydantic-ai-strict", _DEFS),
    ("langchain-openai-strict", _STRICT_READY), ("langchain-openai-strict", _DEFS),
    ("litellm-gemini", {"type": "object", "required": ["s"], "properties": {
        "s": {"type": "string", "enum": ["a", "b"]}, "d": {"type": "string", "format": "date-time"},
        "n": {"type": "integer", "minimum": 0, "maximum": 9}, "l": {"type": "array", "items": {"type": "string"}}}}),
    # a nullable bound integer as an anyOf: LiteLLM keeps the branch's bounds (a type list loses them)
    ("litellm-gemini", {"type": "object", "properties": {
        "n": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "who": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "string", "maxLength": 9}}}),
]


@pytest.mark.parametrize("target,schema", NEAR_MISSES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(NEAR_MISSES)])
def test_near_misses_are_not_reported(target, schema):
    findings = lint_json({"tools": [{"name": "t", "description": "d", "inputSchema": schema}]},
                         profiles=[target], select=["DEC"])
    assert [f.message for f in findings if f.severity.label in ("error", "warning")] == []


def test_litellm_losses_beside_a_type_list_are_reported():
    """The near miss's fire: the same bound beside a type list, and a reference LiteLLM does not unpack."""
    schema = {"type": "object", "properties": {"n": {"type": ["integer", "null"], "minimum": 1},
                                               "who": {"$ref": "#/definitions/P"}},
              "definitions": {"P": {"type": "string"}}}
    findings = lint_json({"tools": [{"name": "t", "description": "d", "inputSchema": schema}]},
                         profiles=["litellm-gemini"], select=["DEC"])
    warned = {str(f.pointer).split("/inputSchema", 1)[-1] for f in findings if f.severity.label == "warning"}
    assert {"/properties/n/minimum", "/properties/who/$ref"} <= warned, warned
