"""Helpers shared by the profile tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = {"openai-strict", "openai-finetuned", "anthropic-strict", "gemini", "gemini-openapi", "llguidance",
            "xgrammar", "outlines", "llama-cpp", "anthropic-api", "vscode-copilot", "gemini-cli", "openai-agents"}


def write(tmp_path, text, name="p.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


_ENTRY_SECTIONS = ("keywords", "constructs", "limits")
_SINGLE_ENTRIES = ("default_action", "unknown_keywords", "tool_name")


def entries_without_own_source(data: dict) -> list[str]:
    """The entries of one profile file, as written, that carry no ``source`` of their own (and so
    would take the file-level default): every keyword, construct and limit entry, the single
    entries and each fallback route must say where its fact comes from (an alias of the file's
    own source, ``source: *file_source``, when it rests on that). ``otherwise`` branches and
    regex features share the source of the entry they belong to, written beside them."""
    missing = []
    for section in _ENTRY_SECTIONS:
        for name, entry in (data.get(section) or {}).items():
            if isinstance(entry, dict) and "source" not in entry:
                missing.append(f"{section}.{name}")
    for single in _SINGLE_ENTRIES:
        if isinstance(data.get(single), dict) and "source" not in data[single]:
            missing.append(single)
    for i, route in enumerate(data.get("fallback") or ()):
        if "source" not in route:
            missing.append(f"fallback[{i}]")
    return missing
