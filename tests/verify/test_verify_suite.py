"""The probe suite is only worth its correctness: under JSON Schema 2020-12 (the
reference implementation, python-jsonschema), or the draft a probe names in ``$schema``
(draft-07's tuple form), every probe's conforming instance must be valid and its
violating instance invalid."""

from __future__ import annotations

import jsonschema
import pytest

from mcplint.verify.suite import PROBES

FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


@pytest.mark.parametrize("probe", PROBES, ids=[p.id for p in PROBES])
def test_probe_is_correct_under_2020_12(probe):
    if probe.id == "pattern-unicode-class":
        pytest.skip("Python's re has no \\p{L}; ECMA-262 with the u flag does")
    cls = jsonschema.validators.validator_for(probe.schema, default=jsonschema.Draft202012Validator)
    v = cls(probe.schema, format_checker=FORMAT_CHECKER)
    cls.check_schema(probe.schema)
    assert not list(v.iter_errors(probe.good)), f"{probe.id}: conforming instance is invalid"
    if probe.bad is not None:
        if probe.keyword == "format" and not _format_checked(probe):
            pytest.skip(f"python-jsonschema has no checker for format {probe.schema['properties']['v']['format']}")
        assert list(v.iter_errors(probe.bad)), f"{probe.id}: violating instance is valid"


def test_only_the_tuple_form_probes_use_another_draft():
    other = {p.id for p in PROBES if "$schema" in p.schema}
    assert other == {"items-tuple", "items-tuple-open", "additionalItems"}
    for p in PROBES:
        if p.id in other:  # and the same schema is no valid 2020-12: the probe tests the old form for real
            assert not jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA).is_valid(
                {k: v for k, v in p.schema.items() if k != "$schema"})


def _format_checked(probe) -> bool:
    return probe.schema["properties"]["v"]["format"] in FORMAT_CHECKER.checkers


def test_instances_are_ascii():
    import json

    for p in PROBES:
        for inst in (p.good, p.bad):
            assert json.dumps(inst, ensure_ascii=True) == json.dumps(inst, ensure_ascii=False)
