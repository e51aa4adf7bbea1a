"""The PRB rules read only the probe transcript: on a document without one (a file given to
``scan``) every one of them stays silent, even on a slot the binding rules would look at."""

from __future__ import annotations

from conftest import lint_json


def test_probe_rules_are_silent_without_a_transcript():
    findings = lint_json({"tools": [{"name": "a", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
                                                                  "type": "object"}}]}, select=["PRB"])
    assert findings == []
