"""How long a function name may be, per hosted API, where what the vendor documents and what its
API does have parted: OpenAI documents 64 characters (openai-python's FunctionDefinition) while
its API has accepted 128 in 2026 (reported 2026-07, measured 2026-10), so 65-128 is information
there and an error only past 128; Azure OpenAI and DeepSeek keep to 64; the Gemini API documents
128 since google-genai 2.6.0 (2026-05-22), 64 before, while Vertex AI still documents 64
(google-cloud-aiplatform 2.7.0, 2026-10-28), a warning for the profiles that cover both."""

from __future__ import annotations

import pytest

from conftest import lint_json


def _doc(name):
    return {"tools": [{"name": name, "description": "d",
                       "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False}}]}


def _dec007(name, profile):
    return [f for f in lint_json(_doc(name), profiles=[profile], select=["DEC"]) if f.rule == "DEC007"]


@pytest.mark.parametrize("profile", ["openai-strict", "openai-api", "openai-agents"])
def test_openai_past_the_documented_64_is_information_past_128_an_error(profile):
    assert not _dec007("a" * 64, profile)
    for length in (65, 128):
        (f,) = _dec007("a" * length, profile)
        assert f.consequence == "annotation" and f.severity.label == "info", f.message
        assert f"the name is {length} characters, and OpenAI documents at most 64" in f.message
        assert "accepts this, past the limit it documents" in f.message
    (f,) = _dec007("a" * 129, profile)
    assert f.consequence == "reject" and f.severity.label == "error"
    assert "at most 128 characters" in f.message


def test_openai_characters_still_fail_the_request_whatever_the_length():
    (f,) = _dec007("get.weather", "openai-strict")
    assert f.consequence == "reject" and "only a-z, A-Z, 0-9, underscore and dash" in f.message


@pytest.mark.parametrize("profile", ["azure-openai", "deepseek-strict"])
def test_openai_compatible_apis_keep_to_64(profile):
    assert not _dec007("a" * 64, profile)
    (f,) = _dec007("a" * 65, profile)
    assert f.consequence == "reject" and f.severity.label == "error" and "at most 64" in f.message, f.message


@pytest.mark.parametrize("profile", ["gemini", "gemini-openapi"])
def test_gemini_takes_128_since_may_2026_vertex_documents_64(profile):
    assert not _dec007("a" * 64, profile)
    for name in ("a" * 100, "a" + "b.c:d-e_" * 15 + "x" * 7):  # refused under the old 64; 128, every allowed character
        (f,) = _dec007(name, profile)
        assert f.consequence == "weaken" and f.severity.label == "warning", f.message
        assert f"the name is {len(name)} characters: the Gemini API takes up to 128, but Vertex AI documents at most 64" \
            in f.message
    (f,) = _dec007("a" * 129, profile)  # one finding: the rejection
    assert f.consequence == "reject" and "at most 128 characters" in f.message
    (f,) = _dec007("3d-print", profile)  # still must start with a letter or underscore
    assert f.consequence == "reject"


def test_gemini_cli_cuts_its_names_so_the_vertex_length_does_not_apply():
    (f,) = _dec007("a" * 100, "gemini-cli")
    assert "gemini-cli renames the tool before the model sees it" in f.message, f.message
    assert "Vertex" not in f.message


def test_a_name_too_long_only_is_one_finding_with_the_providers_words():
    # Anthropic strict's name pattern and its 128-character limit both fail 130 letters: the
    # limit alone says it (before, the pattern's "may use only a-z, ..." came too, and misled)
    (f,) = _dec007("a" * 130, "anthropic-strict")
    assert "the tool name has 130 characters; at most 128 are allowed" in f.message
    assert "tools.N.custom.name: String should have at most 128 characters" in f.message
    # wrong characters and too long: both faults, each said once
    both = _dec007("a.b" * 50, "anthropic-strict")
    assert len(both) == 2 and {f.consequence for f in both} == {"reject"}
    assert any("may use only a-z" in f.message for f in both) and any("150 characters" in f.message for f in both)


def test_the_profile_sheet_says_the_documented_limit_is_not_held_to():
    from mcplint.profiles import load_profile
    from mcplint.profiles.describe import profile_sheet

    sheet = profile_sheet(load_profile("openai-strict"))
    assert "tool_name_length <= 64 (annotation): the limit documented; the target accepts more" in sheet
    assert "the tool name has N characters; at most 64 are allowed" not in sheet
