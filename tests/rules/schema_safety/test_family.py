"""SEC as a whole: every rule runs on the deepest document the loader accepts, and the reviewed
real servers and official examples raise only what was reviewed."""

from __future__ import annotations

import pytest

from pathlib import Path

from mcplint.config import Config, Where, parse_settings
from mcplint.engine import lint_paths

DATA = Path(__file__).resolve().parents[2] / "data"

def nested(depth):
    return ('{"name": "deep", "inputSchema": {"type": "object", "properties": {"x": '
            + '{"items": ' * depth + '{"const": [[[]]]}' + "}" * depth + "}}}")


@pytest.mark.slow
def test_deepest_parseable_document_runs_every_rule(tmp_path):
    """Find, in this very process, the deepest nesting the loader accepts; every rule,
    every reporter-facing step must then run on it without a RecursionError (which the
    engine would turn into exit 3)."""
    cfg = parse_settings({"select": ["ALL"]}, Where("t"), Config())
    f = tmp_path / "deep.json"

    def attempt(depth):
        f.write_text(nested(depth))
        res = lint_paths([str(f)], cfg)  # raises InternalError on a rule's RecursionError
        return res

    lo, hi = 10, 5000
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if attempt(mid).errors:
            hi = mid - 1
        else:
            lo = mid
    assert lo > 100
    res = attempt(lo)
    assert not res.errors
    assert "SEC105" in {x.rule for x in res.findings}
    assert all(x.span is not None for x in res.findings)
    over = attempt(lo + 1)
    assert over.errors and "too deep" in over.errors[0].message


def test_real_servers_and_official_examples_pass_the_safety_rules():
    """The bundled real servers and official examples raise nothing but the two recursive
    schemas FastMCP generates (info); a bound or rule change that flags them is reviewed."""
    cfg = parse_settings({"select": ["SEC"]}, Where("t"), Config())
    res = lint_paths([str(DATA / "corpus"), str(DATA / "mcp-examples")], cfg)
    got = sorted((Path(f.origin).name, f.rule, str(f.pointer)) for f in res.findings)
    assert got == [
        ("fastmcp-realistic.tools.json", "SEC104", "/tools/5/inputSchema/$defs/TreeNode/properties/children/items/$ref"),
        ("fastmcp-realistic.tools.json", "SEC104", "/tools/5/outputSchema/$defs/TreeNode/properties/children/items/$ref"),
    ]
    assert res.tools > 150
