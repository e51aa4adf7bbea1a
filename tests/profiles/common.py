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
