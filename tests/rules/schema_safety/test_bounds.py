"""SEC105-SEC109 beyond the fixture table: the bounds stand down on a huge slot, and the size
shortcut (marshal's encoding) never lets an oversized schema through."""

from __future__ import annotations

from conftest import lint_json
from mcplint.rules.schema_safety.bounds import _JSON_PER_MARSHAL_BYTE, _surely_within


def _loop(length):
    """A tool whose schema is a chain of `length` references that leads back to its start."""
    defs = {f"d{i}": {"$ref": f"#/$defs/d{(i + 1) % length}"} for i in range(length)}
    return {"name": "c", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}},
                                         "$defs": defs}}


def test_default_bounds_stand_down_on_a_huge_slot():
    findings = lint_json(_loop(10_000), select=["SEC"])
    assert sorted({f.rule for f in findings}) == ["SEC106", "SEC108"]  # size is measured whatever the count


def test_marshal_bound_on_compact_json_size():
    """SEC108 skips measuring a schema whose marshal encoding is under a sixth of the bound: the
    compact JSON of any JSON value is at most six times that encoding, escapes and literals included."""
    import json
    import marshal

    worst = [
        "\x00\x01\x1f" * 50, '"\\' * 40, "", "é€😀" * 10, "\ud800", [True, False, None] * 30, {"": None},
        {"a": [0.1, -1e300, 1.7976931348623157e308, 123456789012345678901234567890, -2**31]}, [[[[]]]], {},
        {"k" * 300: {"k" * 300: {"k" * 300: True}}},
    ]
    for value in worst:
        exact = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        assert exact <= _JSON_PER_MARSHAL_BYTE * len(marshal.dumps(value, 2)), value
        assert _surely_within(value, exact * _JSON_PER_MARSHAL_BYTE * 2 + 100)
    assert not _surely_within({"a": "x" * 1000}, 1000)  # over a sixth: measured exactly instead
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    assert not _surely_within(deep, 10**9)  # too deep for marshal: measured exactly instead
