"""A decoder profile's finding keeps its message as the words and values it is made of and
writes it out only when read; reading it gives the text the describer writes, and findings are
merged, compared and sent to other processes as if the text were held (the shortcut as a whole
is held to the plain path by test_differential.py's "messages written at once")."""

from __future__ import annotations

import pickle
from dataclasses import replace

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Finding, KeptMessage
from mcplint.packing import pack_findings, unpack_findings
from mcplint.profiles import Effect, load_profiles
from mcplint.profiles.describe import _names, describe, message, render

from .common import ROOT

EXAMPLE = str(ROOT / "tests" / "data" / "corpus" / "notion.tools.json")


def _optional(profile, params):
    rule = profile.constructs["optional-property"]
    return Effect(("properties", "a"), "optional-property", "construct", rule, params)


def test_profile_findings_keep_their_messages_and_read_as_text():
    result = lint_paths([EXAMPLE], Config(profiles=("openai-strict", "gemini")), jobs=1)
    dec = [f for f in result.findings if f.rule.startswith("DEC")]
    assert len(dec) > 100
    kept = [f for f in dec if type(f._message) is KeptMessage]
    assert len(kept) == len(dec)  # none written out while linting
    for f in kept[:200]:
        text = f.message
        assert type(text) is str and text == render(f._message) and f.tool and text
        as_text = Finding(f.rule, f.name, f.severity, text, f.origin, f.pointer, f.span, f.tool, f.slot,
                          f.versions, f.profile, f.fix, f.consequence, f.source)
        assert as_text == f and hash(as_text) == hash(f)  # a finding is its fields, the message as text
        assert replace(f, tool="other") != f and replace(f, tool="other").message == text


def test_a_kept_message_is_the_text_the_describer_writes():
    profile = load_profiles(["openai-strict"])[0]
    effect = _optional(profile, {"key": "limit", "_node": ("properties", "q")})
    m = message(profile, effect, "search")
    assert type(m) is KeptMessage and m.render is render
    text = render(m)
    assert text == describe(profile, effect, "search")
    assert "'limit' is optional" in text and "function 'search'" in text and "context=('properties', 'q')" in text
    # equal words and values are equal messages (the engine merges by them); other values are not
    assert message(profile, _optional(profile, {"key": "limit", "_node": ("properties", "q")}), "search") == m
    assert message(profile, _optional(profile, {"key": "page", "_node": ("properties", "q")}), "search") != m
    # a value kept that cannot be hashed: the text at once
    listed = message(profile, _optional(profile, {"key": ["a", "b"], "_node": ()}), "search")
    assert type(listed) is str and "'['a', 'b']' is optional" in listed


def test_a_kept_message_is_one_flat_tuple_read_by_name():
    """One object per message, its values inline (a tuple of values beside each of 100,000
    messages cost the reporting process 5 MB), read by the names it is made with, through a
    pickle too."""
    profile = load_profiles(["openai-strict"])[0]
    plan = message(profile, _optional(profile, {"key": "limit", "_node": ("properties", "q")}), "search").plan
    for values in ((), ("limit",), ("limit", 3, None)):
        m = KeptMessage(render, plan, ("properties", "q"), None, values)
        assert len(m) == 4 + len(values) and tuple(m[4:]) == values  # flat: no tuple inside for the values
        assert (m.render, m.plan, m.node, m.detail, m.values) == (render, plan, ("properties", "q"), None, values)
        back = pickle.loads(pickle.dumps(m))
        assert type(back) is KeptMessage and back == m and hash(back) == hash(m) and back.values == values
        assert repr(back) == repr(m) and "values=" in repr(m)
    # the same items split otherwise are another message
    assert KeptMessage(render, plan, (), "x", ()) != KeptMessage(render, plan, (), None, ("x",))


def test_a_message_keeps_the_values_its_templates_read():
    names: list = []
    for t in ("{a} and {b.c}", "{d[0]:>{width}} {a!r}", "no fields", None, "a lone } here {e}"):
        _names(t, names)
    assert names == ["a", "b", "d", "width"]  # (a template format_map refuses is given back as written)


def test_findings_cross_processes_column_by_column():
    result = lint_paths([EXAMPLE], Config(profiles=("openai-strict", "anthropic-strict")), jobs=1)
    sent = pickle.loads(pickle.dumps(pack_findings(result.findings)))
    back = unpack_findings(sent)
    assert back == result.findings
    assert [(f.message, f.severity, f.span, f.fix, f.consequence) for f in back] == \
        [(f.message, f.severity, f.span, f.fix, f.consequence) for f in result.findings]
    assert unpack_findings(pack_findings([])) == []
