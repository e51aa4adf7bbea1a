"""The moonshot profile held to Moonshot's own schema validator, walle (github.com/MoonshotAI/walle),
as recorded by running its bundled library at the strict level over the hand-written shapes and
probes and over every distinct input schema of the bench servers, the test corpus and the examples
(tests/data/moonshot-walle: the record and the script that makes it; offline here).

A disagreement fails: the profile may refuse a schema only where walle refused it (besides the
API's own root rule, which walle does not hold), and every refusal of a kind the profile models must
be a refusal the profile reports. Kinds walle raises that no report shows the API refusing stay
outside the profile (its notes); a kind neither modelled nor listed fails, so a new walle rule is
seen when the record is made again. With MCPLINT_WALLE (the python folder of a walle checkout) the
validator runs again and must reproduce the record's cases."""

from __future__ import annotations

import json
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.profiles import evaluate_slot, load_profile
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "moonshot-walle"

# walle's message (after its path) -> the subjects of the moonshot rules that report it
MODELLED = {
    r"type is not defined": {"enum"},
    r"references must start with #/\$defs/": {"$ref"},
    r"when using anyOf, type should be defined in anyOf items instead of the parent schema": {"anyOf"},
    r"when using \$ref, type should be defined in the referenced schema instead of the parent schema": {"ref-siblings"},
    r"required property '.*' is not defined in properties": {"required-undeclared"},
    r"property schema for '.*' must be an object": {"boolean-subschema"},
    r"schema in anyOf must be an object": {"boolean-subschema"},
    r"\$defs schema must be object": {"boolean-subschema"},
    r"items must be an object": {"items", "tuple-items"},
}
# raised by walle, refused by no public report: the profile's notes, not its rules
NOT_MODELLED = (
    r"keyword \w+ is not allowed in combination with multiple types",
    r"property name '.*' is reserved for JSON Schema keywords",
    r"not a valid integer",
    r"detected infinite recursion without termination condition",
)
API_ONLY = {"root-not-object"}  # the API's own check ("tools.function.parameters.type is required ...")


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "record.json").read_text(encoding="utf-8"))


def message(error: str) -> str:
    return error.split("': ", 1)[1]


def kind(error: str) -> set | None:
    """The moonshot subjects that report walle's error, None for a kind the profile leaves to its notes."""
    text = message(error)
    for pattern, subjects in MODELLED.items():
        if re.fullmatch(pattern, text):
            return subjects
    assert any(re.fullmatch(p, text) for p in NOT_MODELLED), f"a walle error neither modelled nor listed: {error}"
    return None


def observations():
    rec = record()
    corpus = records.corpus_schemas(ROOT)
    assert set(rec["corpus"]) == set(corpus), "the corpus changed since the record: run tests/data/moonshot-walle/record.py"
    for case in rec["cases"]:
        yield case["name"], case["schema"], case["error"]
    for d, schema in corpus.items():
        yield d, schema, rec["corpus"][d]


def test_the_record_is_of_walle_at_the_strict_level():
    rec = record()
    assert (rec["package"], rec["level"]) == ("walle", "strict") and rec["version"] and rec["commit"]
    assert {c["name"] for c in rec["cases"]} == {n for n, _ in records.named_cases()}
    refusals = [e for e in list(rec["corpus"].values()) + [c["error"] for c in rec["cases"]] if e]
    kinds = {message(e) for e in refusals if kind(e) is not None}
    assert len(refusals) > 50 and len(kinds) >= 5  # the comparison has both sides to get wrong


@pytest.mark.slow
def test_the_profile_refuses_exactly_where_walle_does_for_the_kinds_it_models():
    """4,313 real schemas and the shapes: no refusal walle does not make, no modelled refusal missed."""
    profile = load_profile("moonshot")
    wrong = []
    for name, schema, error in observations():
        said = {e.subject for e in evaluate_slot(profile, schema) if e.rule.action == "reject"} - API_ONLY
        if error is None:
            if said:
                wrong.append((name, "walle accepts", sorted(said)))
        elif (k := kind(error)) is not None and not k & said:
            wrong.append((name, error, sorted(said)))
    assert not wrong, wrong[:10]


def test_each_text_the_profile_quotes_is_walles():
    """The error text of each moonshot rule walle decides carries walle's own message."""
    profile = load_profile("moonshot")
    texts = []
    for rule in (profile.keywords["enum"], profile.keywords["anyOf"], profile.keywords["$ref"].otherwise,
                 profile.keywords["items"], profile.constructs["ref-siblings"],
                 profile.constructs["required-undeclared"], profile.constructs["boolean-subschema"],
                 profile.constructs["tuple-items"]):
        while rule is not None:
            if rule.error:
                texts.append(rule.error)
            rule = rule.otherwise
    seen = {message(e) for e in list(record()["corpus"].values()) + [c["error"] for c in record()["cases"]] if e}
    for pattern in MODELLED:
        assert any(re.search(pattern.replace(".*", "[^>]*"), t) for t in texts), pattern
    # the texts walle really produced, placeholders aside, are the profile's
    for text in seen:
        if any(re.fullmatch(p, text) for p in MODELLED):
            stem = re.sub(r"'[^']*'", "'", text).split("'")[0]
            assert any(stem in t for t in texts), text


@pytest.mark.skipif(not os.environ.get("MCPLINT_WALLE"),
                    reason="MCPLINT_WALLE (the python folder of a walle checkout) not set")
def test_the_record_is_what_walle_says():
    sys.path.insert(0, os.environ["MCPLINT_WALLE"])
    from walle.validator import WalleValidator

    v = WalleValidator()
    again = []
    for case in record()["cases"]:
        try:
            v.validate_schema(json.dumps(case["schema"]), {"validateLevel": record()["level"]})
            again.append(None)
        except ValueError as e:
            again.append(str(e))
    assert again == [c["error"] for c in record()["cases"]]
