"""User-facing text cites public sources: no file that ships (the package, its data, the
profiles, docs/, README, CHANGELOG, the Action and hook definitions) names an internal
document, a path on the machine it was written on, or a document nobody else can look up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

INTERNAL = re.compile(
    r"\bseeds?[ _-]?0\d\d\b"  # "seed 003", "Seed 002", "seed_000"
    r"|\bseeds/"  # a seeds folder
    r"|\b0\d\d_[0-9a-f]{16}\.txt\b"  # a seed's file name
    r"|shared/(?:reference|corpus|seeds|mcp-schemas)\b"  # the reference folders
    r"|/work/"  # a path on one machine
    r"|provider[-_ ]audit"  # an internal review
    r"|\bthe audit\b",
    re.IGNORECASE,
)


def shipped_files() -> list[Path]:
    files = [p for p in (ROOT / "mcplint").rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".yaml", ".md", ".txt")]
    files += sorted((ROOT / "profiles").glob("*.yaml")) + sorted((ROOT / "docs").glob("*.md"))
    for name in ("README.md", "CHANGELOG.md", "action.yml", ".pre-commit-hooks.yaml", "pyproject.toml", "setup.py",
                 "MANIFEST.in"):
        if (ROOT / name).is_file():
            files.append(ROOT / name)
    return files


def test_the_check_finds_what_it_must():
    for text in ("see seed 003", "Seed 002 (\"Results\")", "/work/shared/reference/x.md", "shared/reference",
                 "the provider-audit notes", "000_2d7f946909c969aa.txt", "per the audit"):
        assert INTERNAL.search(text), text
    for text in ("openai-python/blob/main/src/openai/types/shared/function_definition.py", "seed: int = 0",
                 "fixed hash seed", "SEP-2106", "draft-vasters-json-structure-mcp-binding"):
        assert not INTERNAL.search(text), text


@pytest.mark.parametrize("path", shipped_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shipped_file_names_an_internal_document(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    hits = [f"{n}: {line.strip()[:120]}" for n, line in enumerate(text.splitlines(), 1) if INTERNAL.search(line)]
    assert not hits, "\n".join(hits)


def test_rule_docs_and_profile_notes_as_users_read_them():
    from mcplint.profiles import builtin_names, load_profile
    from mcplint.registry import all_rules

    for m in all_rules():
        assert not INTERNAL.search(m.summary + m.explanation + m.fix), m.id
    for name in builtin_names():
        p = load_profile(name)
        assert not INTERNAL.search(" ".join([p.summary or "", *p.notes])), name
