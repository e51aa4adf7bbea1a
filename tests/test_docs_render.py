"""Docs for people: `mcplint rule ID` rendered for a terminal (no HTML comments, no raw
Markdown), and `mcplint profile NAME` explaining the evidence tags it shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.registry import all_rules


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def test_rule_is_rendered_without_markdown_syntax_or_comments():
    r = run(["rule", "DEC001"])
    assert r.exit_code == 0
    out = r.stdout
    assert "<!--" not in out and "-->" not in out and "```" not in out
    assert not re.search(r"^#+ ", out, re.M)  # headings rendered, not printed as source
    assert "What it does" in out and "Why is this bad?" in out
    assert "Run the example with --profile openai-strict." in out  # the example's settings, said in words
    assert '{"name": "update_page"' in out  # the example itself is kept
    assert "\x1b[" not in out  # no colour when not on a terminal
    assert "\x1b[" in run(["rule", "DEC001", "--color"]).stdout


@pytest.mark.parametrize("meta", all_rules(), ids=lambda m: m.id)
def test_every_rule_renders(meta):
    r = run(["rule", meta.id])
    assert r.exit_code == 0 and "<!--" not in r.stdout and meta.id in r.stdout


def test_rule_markdown_source_and_autofix_line():
    md = run(["rule", "DEC002", "--format", "markdown"]).stdout
    assert md.startswith("# DEC002 constraint-not-enforced-by-profile\n")
    assert "## What it does" in md and "<!--" not in md and "`--profile xgrammar`" in md
    assert "**Autofix:** none" in md
    assert "**Autofix:** unsafe, applied by `--fix --unsafe-fixes`" in run(["rule", "MCP125", "--format",
                                                                           "markdown"]).stdout
    assert "**Autofix:** safe, applied by `--fix`" in run(["rule", "MCP128", "--format", "markdown"]).stdout
    assert json.loads(run(["rule", "MCP128", "--format", "json"]).stdout)["id"] == "MCP128"


def test_rule_says_whether_fix_applies_and_why_everywhere_the_rule_is_shown():
    """The rule's own declaration (fix_safety, fix_note) feeds `mcplint rule`, its JSON, the
    rules list as JSON and the rule reference."""
    from mcplint.docs import rules_markdown

    md = run(["rule", "SCH104", "--format", "markdown"]).stdout
    assert "**Autofix:** safe or unsafe depending on the change" in md and "accept null, so it is unsafe" in md
    assert "rejects arguments that were accepted" in " ".join(run(["rule", "MCP125"]).stdout.split())  # rendered
    one = json.loads(run(["rule", "MCP125", "--format", "json"]).stdout)
    assert one["fix_safety"] == "unsafe" and "rejects arguments" in one["fix_note"]
    listed = {m["id"]: m for m in json.loads(run(["rules", "--format", "json"]).stdout)}
    assert listed["MCP128"]["fix_safety"] == "safe" and listed["SCH105"]["fix_safety"] == "varies"
    assert listed["SEC101"]["fix_safety"] == "display-only" and listed["SEC101"]["fix_note"] == ""
    ref = rules_markdown().split('<a id="mcp113"></a>', 1)[1].split("<a id=", 1)[0]
    assert "**Autofix:** safe, applied by `--fix`: `\"true\"` becomes `true`" in ref


def test_profile_explains_the_tags_it_shows():
    out = run(["profile", "openai-strict"]).stdout
    shown = set(re.findall(r"\[([DSXI?])\]$", out, re.M))
    assert shown >= {"D", "I"}
    legend = out.split("## Evidence tags", 1)[1]
    for tag in shown:
        assert re.search(rf"^  \[{re.escape(tag)}\] \S", legend, re.M), tag
    assert "[X]" not in legend or "X" in shown  # only the tags the page uses
    xg = run(["profile", "xgrammar"]).stdout
    assert "[X] probed here" in xg.split("## Evidence tags", 1)[1]


def test_legend_covers_every_tag_the_profile_schema_allows():
    from mcplint.cli.profiles import TAGS

    schema = json.loads((Path(__file__).resolve().parent.parent / "mcplint" / "data" /
                         "profile.schema.json").read_text())
    tags = set(schema["$defs"]["source"]["properties"]["tag"]["enum"]) if "$defs" in schema else None
    if tags is None:  # the schema's layout: find the tag enum wherever it is
        text = json.dumps(schema)
        tags = set(json.loads(re.search(r'"tag": \{"enum": (\[[^\]]*\])', text).group(1)))
    assert set(TAGS) == tags


def test_sarif_rule_help_carries_no_html_comments():
    out = CliRunner().invoke(main, ["scan", "--no-config", "--format", "sarif", "-"],
                             input='{"name": "a", "inputSchema": {"type": "object"}}').stdout
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    dec001 = next(r for r in rules if r["id"] == "DEC001")
    assert "<!--" not in json.dumps(rules) and '{"name": "update_page"' in dec001["help"]["text"]
