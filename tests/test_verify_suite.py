"""The probe suite is only worth its correctness: under JSON Schema 2020-12 (the
reference implementation, python-jsonschema), every probe's conforming instance must
be valid and its violating instance invalid."""

from __future__ import annotations

import jsonschema
import pytest

from mcplint.verify.suite import PROBES

FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


@pytest.mark.parametrize("probe", PROBES, ids=[p.id for p in PROBES])
def test_probe_is_correct_under_2020_12(probe):
    if probe.id == "pattern-unicode-class":
        pytest.skip("Python's re has no \\p{L}; ECMA-262 with the u flag does")
    v = jsonschema.Draft202012Validator(probe.schema, format_checker=FORMAT_CHECKER)
    jsonschema.Draft202012Validator.check_schema(probe.schema)
    assert not list(v.iter_errors(probe.good)), f"{probe.id}: conforming instance is invalid"
    if probe.bad is not None:
        if probe.keyword == "format" and not _format_checked(probe):
            pytest.skip(f"python-jsonschema has no checker for format {probe.schema['properties']['v']['format']}")
        assert list(v.iter_errors(probe.bad)), f"{probe.id}: violating instance is valid"


def _format_checked(probe) -> bool:
    return probe.schema["properties"]["v"]["format"] in FORMAT_CHECKER.checkers


def test_instances_are_ascii():
    import json

    for p in PROBES:
        for inst in (p.good, p.bad):
            assert json.dumps(inst, ensure_ascii=True) == json.dumps(inst, ensure_ascii=False)
