"""The truth lab: every local-decoder profile agrees with the real decoder, run live on
the probe suite (offline, CPU, byte-level vocabularies). A disagreement is either fixed
in the profile (with the probe as its source) or listed in the profile's
``verified_with.exceptions`` with the reason; a listed exception that no longer differs
fails too, so exceptions cannot go stale.

Needs the decoders (`pip install -e ".[decoders]"`, and xgrammar as in .ci/run); a
decoder that is not importable is skipped with the reason."""

from __future__ import annotations

import json
from importlib import metadata

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.profiles import load_profile
from mcplint.verify.compare import claim, compare, stale_exceptions
from mcplint.verify.decoders import DECODERS, Unavailable, get
from mcplint.verify.run import run_suite
from mcplint.verify.suite import BY_ID

DIST = {"llguidance": "llguidance", "outlines": "outlines-core", "xgrammar": "xgrammar",
        "llama-cpp": "llama-cpp-python"}  # llama-cpp: the sdist's sources, built by scripts/llama-schema-check
_RUNS: dict = {}


def live(name: str):
    """(decoder, outcomes), run once per test session; skip if the decoder is missing."""
    if name not in _RUNS:
        try:
            dec = get(name)
        except (Unavailable, ImportError) as e:
            _RUNS[name] = e
        else:
            _RUNS[name] = (dec, run_suite(dec))
    got = _RUNS[name]
    if isinstance(got, Exception):
        pytest.skip(f"decoder {name} is not importable: {got}")
    return got


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize("name", list(DECODERS))
def test_profile_agrees_with_the_real_decoder(name):
    dec, outcomes = live(name)
    profile = load_profile(name)
    rows = compare(profile, outcomes)
    bad = [f"{r.probe.id}: profile says {r.claim.verdict} ({r.claim.reason()}), {name} {dec.version} did "
           f"{r.outcome.verdict} ({r.outcome.detail})" for r in rows if not r.ok]
    assert not bad, "\n".join(bad)
    assert stale_exceptions(profile, rows) == []


@pytest.mark.parametrize("name", list(DECODERS))
def test_profile_records_the_version_it_was_verified_with(name):
    vw = load_profile(name).verified_with
    assert vw and vw["decoder"] == name and vw["package"] == DIST[name]
    try:
        installed = get(name).version if name == "llama-cpp" else metadata.version(DIST[name])
    except (metadata.PackageNotFoundError, Unavailable) as e:
        pytest.skip(f"{DIST[name]} is not installed ({e})")
    if installed != vw["version"]:
        pytest.skip(f"{DIST[name]} {installed} is installed but the profile was verified with {vw['version']}: "
                    "run `mcplint verify --decoder " + name + "` and update verified_with")


def test_cli_reports_agreement_and_exits_0():
    live("llguidance")
    r = run(["verify", "--decoder", "llguidance"])
    assert r.exit_code == 0, r.output
    assert "llguidance 1.9.1 against profile llguidance" in r.output or "against profile llguidance" in r.output
    assert "0 disagreements" in r.output


def test_cli_prints_disagreements_and_exits_1():
    """The check has teeth: Outlines held against the xgrammar profile differs in many places."""
    live("outlines")
    r = run(["verify", "--decoder", "outlines", "--profile", "xgrammar"])
    assert r.exit_code == 1
    assert "DIFF minimum" in r.output  # Outlines ignores numeric bounds; xgrammar enforces them
    assert "DIFF format-hostname" in r.output


def _variant(tmp_path, exceptions):
    """An outlines variant that wrongly claims `minimum` is enforced."""
    p = tmp_path / "outlines-variant.yaml"
    vw = {"package": "outlines-core", "version": "0.2.14", "date": "2026-11-30", "exceptions": exceptions}
    p.write_text(
        "id: outlines-variant\nextends: outlines\ntitle: t\nkind: decoder\n"
        "source: {url: 'https://example.org/x', seen: '2026-11-30', confidence: high}\n"
        "keywords: {minimum: {action: enforce}}\n"
        f"verified_with: {json.dumps(vw)}\n", encoding="utf-8")
    return str(p)


def test_a_documented_exception_is_accepted_and_shown(tmp_path):
    live("outlines")
    path = _variant(tmp_path, {"minimum": "kept enforced for this test", "number-minimum": "the same"})
    r = run(["verify", "--decoder", "outlines", "--profile", path])
    assert r.exit_code == 0, r.output
    assert "exc  minimum" in r.output and "documented exception: kept enforced for this test" in r.output
    r = run(["verify", "--decoder", "outlines", "--profile", _variant(tmp_path, {})])
    assert r.exit_code == 1 and "DIFF minimum" in r.output


def test_a_stale_exception_fails(tmp_path):
    live("outlines")
    path = _variant(tmp_path, {"minimum": "kept enforced", "number-minimum": "the same",
                               "maximum": "but maximum agrees"})
    r = run(["verify", "--decoder", "outlines", "--profile", path])
    assert r.exit_code == 1
    assert "STALE exception 'maximum'" in r.output


def test_json_output_lists_every_probe():
    live("xgrammar")
    r = run(["verify", "--decoder", "xgrammar", "--format", "json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data[0]["profile"] == "xgrammar" and len(data[0]["probes"]) == len(BY_ID)
    by = {p["probe"]: p for p in data[0]["probes"]}
    assert by["uniqueItems"]["decoder"] == "dropped" and by["uniqueItems"]["agrees"]


# --- the claim derivation itself (no decoder needed)

@pytest.mark.parametrize("profile, probe, verdict", [
    ("xgrammar", "pattern-with-length", "dropped"),  # maxLength beside pattern is dropped
    ("outlines", "pattern-with-length", "enforced"),  # the dropped pattern is not what the probe violates
    ("outlines", "minimum", "dropped"),
    ("llguidance", "uniqueItems", "rejected"),
    ("xgrammar", "pattern-unanchored", "over-constrained"),
    ("llguidance", "pattern-unanchored", "enforced"),
    ("outlines", "patternProperties", "rejected"),  # additionalProperties false without properties
    ("xgrammar", "ref-anchor", "dropped"),
    ("outlines", "ref-anchor", "rejected"),
    ("outlines", "ref-recursive", "over-constrained"),
    ("outlines", "pattern-partial-anchor", "rejected"),  # regex feature partial_anchor
    ("xgrammar", "pattern-partial-anchor", "over-constrained"),  # full match
    ("outlines", "prefixItems", "over-constrained"),  # read as fixed: a shorter closed tuple is refused
    ("outlines", "prefixItems-fixed", "enforced"),  # condition fixed_length
    ("xgrammar", "prefixItems-fixed", "enforced"),  # condition closed_tuple (maxItems closes it)
    ("outlines", "prefixItems-open", "over-constrained"),
    ("llama-cpp", "items-tuple-open", "over-constrained"),  # construct tuple-items
    ("xgrammar", "items-tuple", "rejected"),
    ("xgrammar", "required-undeclared", "over-constrained"),  # construct required-undeclared
    ("llguidance", "required-undeclared", "enforced"),
    ("outlines", "additionalProperties-true", "over-constrained"),
    ("xgrammar", "anyOf-beside-properties", "dropped"),
])
def test_claim(profile, probe, verdict):
    assert claim(load_profile(profile), BY_ID[probe]).verdict == verdict


def test_focused_claim_ignores_the_wrapper():
    """In the matrix a row is about its keyword: Outlines ignores patternProperties (the
    rejection comes from the wrapper's additionalProperties: false)."""
    assert claim(load_profile("outlines"), BY_ID["patternProperties"], focus=True).verdict == "dropped"
    assert claim(load_profile("gemini-openapi"), BY_ID["required"], focus=True).verdict == "enforced"


# --- users' schemas: compile with the real decoder, report what the profile and the probes say is dropped

TOOLS = """{"tools": [
  {"name": "tag", "inputSchema": {
    "type": "object", "additionalProperties": false, "required": ["code", "name"],
    "properties": {
      "code": {"type": "string", "pattern": "^[A-Z]+$", "maxLength": 8},
      "name": {"type": "string", "maxLength": 8},
      "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}}}
]}
"""


def _verify_file(tmp_path, decoder, *extra):
    f = tmp_path / "tools.json"
    f.write_text(TOOLS, encoding="utf-8")
    return run(["verify", "--decoder", decoder, str(f), *extra]), str(f)


def test_users_schema_drops_follow_the_profile_with_location_and_probe(tmp_path):
    live("xgrammar")
    r, f = _verify_file(tmp_path, "xgrammar")
    assert r.exit_code == 1
    lines = [ln for ln in r.output.splitlines() if ": warning " in ln]
    # maxLength beside a pattern is dropped (line 5); maxLength alone (line 6) is enforced
    assert any(ln.startswith(f"{f}:5:") and "/properties/code/maxLength" in ln
               and "probe pattern-with-length" in ln for ln in lines), r.output
    assert not any("/properties/name/maxLength" in ln for ln in lines)
    assert any(ln.startswith(f"{f}:7:") and "/properties/tags/uniqueItems" in ln and "probe uniqueItems" in ln
               for ln in lines)
    r, _ = _verify_file(tmp_path, "xgrammar", "--format", "json")
    data = json.loads(r.output)
    assert {d["verdict"] for d in data} == {"compiled", "dropped"}
    assert {d["probe"] for d in data if d["verdict"] == "dropped"} == {"pattern-with-length", "uniqueItems"}


def test_users_schema_rejected_by_the_decoder_points_at_the_keyword(tmp_path):
    live("llguidance")
    r, f = _verify_file(tmp_path, "llguidance")
    assert r.exit_code == 1
    err = [ln for ln in r.output.splitlines() if ": error " in ln]
    assert len(err) == 1 and err[0].startswith(f"{f}:7:") and "uniqueItems" in err[0], r.output
    assert "cannot compile this schema" in err[0] and "profile llguidance" in err[0]
