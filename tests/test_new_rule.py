"""scripts/new_rule.py, the scaffold of CONTRIBUTING.md's "Add a rule": run into a copy of the
checkout, the rules it writes register and pass the checks every rule must pass (tests/rules/test_rules.py,
tests/rules/test_rule_docs.py, tests/test_docs.py), run there by pytest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcplint.registry import all_rules

ROOT = Path(__file__).resolve().parent.parent
COPIED = ["mcplint", "profiles", "scripts/new_rule.py", "docs/rules.md", "README.md", "pyproject.toml",
          "tests/conftest.py", "tests/cases", "tests/rules/test_rules.py", "tests/rules/test_rule_docs.py", "tests/test_docs.py"]


def copy_of_checkout(dest: Path) -> Path:
    for rel in COPIED:
        src, dst = ROOT / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dst)
    return dest


def next_free(prefix: str, hundred: int) -> str:
    taken = {m.id for m in all_rules()}
    return next(i for i in (f"{prefix}{n}" for n in range(hundred, hundred + 100)) if i not in taken)


def scaffold(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "scripts" / "new_rule.py"), *args, "--root", str(root)],
                          cwd=root, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_scaffolded_rules_register_and_pass_the_rule_checks(tmp_path):
    root = copy_of_checkout(tmp_path / "checkout")
    readme_before = (root / "README.md").read_text(encoding="utf-8")
    sch, mcp = next_free("SCH", 112), next_free("MCP", 131)
    made = [scaffold(root, sch, "placeholder-slot-check", "--family", "schema_validity"),
            scaffold(root, mcp, "placeholder-tool-check", "--family", "mcp_tool", "--scope", "tool",
                     "--severity", "error")]
    assert [r.returncode for r in made] == [0, 0], [r.stderr for r in made]
    assert (root / "mcplint/rules/schema_validity/placeholder_slot_check.py").is_file()
    assert "placeholder_slot_check" in (root / "mcplint/rules/schema_validity/__init__.py").read_text(encoding="utf-8")
    assert "    placeholder_tool_check,\n" in (root / "mcplint/rules/mcp_tool/__init__.py").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert readme != readme_before and "| SCH | " in readme

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(root)}
    checks = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/rules/test_rules.py",
         "tests/rules/test_rule_docs.py", "tests/test_docs.py", "-k",
         f"{sch} or {mcp} or test_rules_reference or test_every_rule_has_an_anchor or test_readme_table_counts"],
        cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert checks.returncode == 0, checks.stdout[-3000:]
    passed = [line.rsplit(" PASSED", 1)[0] for line in checks.stdout.splitlines() if " PASSED" in line]
    for rule_id in (sch, mcp):
        # its firing case and its near miss, run with only the rule selected
        assert sum(t.startswith("tests/rules/test_rules.py::") and f" {rule_id}: " in t for t in passed) == 2, passed
        # its docstring sections, its Example firing and its Use instead not, a case of each kind
        for check in ("test_rule_has_docs", "test_example_fires_and_fix_does_not",
                      "test_rule_has_firing_case_and_near_miss"):
            assert f"tests/rules/test_rule_docs.py::{check}[{rule_id}]" in passed
    # docs/rules.md regenerated with the new anchors, and the README's rule count
    for check in ("test_rules_reference_is_up_to_date", "test_every_rule_has_an_anchor",
                  "test_readme_table_counts_the_rules_and_profiles_there_are"):
        assert f"tests/test_docs.py::{check}" in passed
    assert "mcplint.rules.schema_validity.placeholder_slot_check" in subprocess.run(
        [sys.executable, "-c", f"from mcplint.registry import get; print(get({sch!r}).func.__module__)"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300).stdout


@pytest.mark.slow
def test_a_taken_id_or_a_wrong_prefix_is_refused(tmp_path):
    root = copy_of_checkout(tmp_path / "checkout")
    taken = scaffold(root, "SCH101", "another-check", "--family", "schema_validity")
    assert taken.returncode == 2 and "SCH101 is taken" in taken.stderr
    wrong = scaffold(root, "SEC199", "another-check", "--family", "schema_validity")
    assert wrong.returncode == 2 and "is SCH and three digits" in wrong.stderr
    assert not (root / "mcplint/rules/schema_validity/another_check.py").exists()
