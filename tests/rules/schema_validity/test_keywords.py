"""SCH103 beyond the fixture table: the fast keyword suggestion gives the answer of the exhaustive
search over the dialect's keywords."""

from __future__ import annotations

import pytest

from conftest import lint_json
from mcplint.rules.schema_validity.common import KEYWORDS, TOLERATED, closest
from mcplint.rules.schema_validity.keywords import _suggest

@pytest.mark.slow
def test_keyword_suggestions_match_the_exhaustive_search():
    import random
    import string

    rng = random.Random(7)
    for dialect, known in KEYWORDS.items():
        words = sorted(known | TOLERATED)
        for _ in range(1500):
            w = list(rng.choice(words))
            for _ in range(rng.randint(0, 3)):
                i = rng.randrange(len(w)) if w else 0
                op = rng.choice("dirt")
                if op == "d" and w:
                    del w[i]
                elif op == "i":
                    w.insert(i, rng.choice(string.ascii_letters))
                elif op == "r" and w:
                    w[i] = rng.choice(string.ascii_letters)
                elif op == "t" and i < len(w) - 1:
                    w[i], w[i + 1] = w[i + 1], w[i]
            word = "".join(w)
            if word:
                assert _suggest(word, dialect) == closest(word, known | TOLERATED), (dialect, word)


def test_openapi_formats_get_their_json_schema_fix():
    tool = {"name": "a", "inputSchema": {"type": "object", "properties": {
        "n": {"type": "integer", "format": "int32"}, "b": {"type": "string", "format": "byte"},
        "at": {"type": "string", "format": "datetime"}}}}
    fixes = {str(f.pointer).rsplit("/", 2)[-2]: f.fix.title for f in lint_json({"tools": [tool]}, select=["SCH110"])}
    assert '"maximum": 2147483647' in fixes["n"]
    assert '"contentEncoding": "base64"' in fixes["b"]
    assert "pattern" in fixes["at"]  # not an OpenAPI format: the rule's own fix
