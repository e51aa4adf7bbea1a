#!/usr/bin/env python3
"""Scaffold a new rule: the rule module, its registration, a firing case and a near miss,
the README's rule count and the regenerated docs/rules.md (CONTRIBUTING.md, "Add a rule").

    python scripts/new_rule.py SCH112 my-check --family schema_validity [--scope slot] [--severity warning]

The rule it writes works (it reports a placeholder keyword, ``x-replace-me``), so the test suite
passes at once; replace the check, the docstring and the cases with the real ones before you
commit. Run it from a clean checkout: it edits files in place.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "x-replace-me"

# The families whose rules look at tool definitions (the package, also the name of the fixture
# table tests/cases/<family>.yaml) and their ID prefix.
FAMILIES = {
    "schema_validity": "SCH",
    "schema_safety": "SEC",
    "mcp_tool": "MCP",
}

MODULE = '''"""{id}: {summary}"""

from __future__ import annotations

from ...model import Severity
from ...registry import rule


@rule("{id}", "{name}", severity=Severity.{severity}, scope="{scope}",
      fix="Remove `{placeholder}` (replace this line: how to fix what the rule finds, in one line)")
def {func}({target}, ctx):
    """{summary}

    ## What it does
    Reports the `{placeholder}` keyword. (Replace: what the rule finds, and where it reports it.)

    ## Why is this bad?
    (Replace: what goes wrong for a client, a model or a decoder when a tool has it.)

    ## Example
    ```json
    {example}
    ```

    ## Use instead
    ```json
    {use_instead}
    ```

    ## References
    (Replace: the public source the rule enforces: a section of the MCP specification or of
    JSON Schema, a SEP, vendor documentation.)
    """
    {body}
'''

BODY = {
    "slot": ('if isinstance(slot.schema, dict) and "{p}" in slot.schema:\n'
             '        yield ctx.finding(slot.pointer / "{p}", "`{p}` is a placeholder")'),
    "tool": ('if isinstance(tool.data, dict) and "{p}" in tool.data:\n'
             '        yield ctx.finding(tool.pointer / "{p}", "`{p}` is a placeholder")'),
}
FIRES = {
    "slot": '{"name": "search", "inputSchema": {"type": "object", "%s": true}}' % PLACEHOLDER,
    "tool": '{"name": "search", "inputSchema": {"type": "object"}, "%s": true}' % PLACEHOLDER,
}
CLEAN = '{"name": "search", "inputSchema": {"type": "object"}}'
FIRES_AT = {"slot": "/inputSchema/" + PLACEHOLDER, "tool": "/" + PLACEHOLDER}

CASES = '''
# ---------------------------------------------------------------- {id} {name}
- rule: {id}
  description: the placeholder keyword is reported (replace with the rule's real firing case)
  tool: {fires}
  expect: [{at}]
- rule: {id}
  description: a tool without it is clean (near miss; replace with the closest case that must not fire)
  tool: {clean}
  expect: []
'''


def fail(message: str) -> None:
    print(f"new_rule.py: {message}", file=sys.stderr)
    sys.exit(2)


def write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def check_free(root: Path, rule_id: str, name: str) -> None:
    """Fail unless the ID and the name are free (asks the registry of the tree at ``root``)."""
    code = ("import sys, json; from mcplint.registry import all_rules; "
            "json.dump([[m.id, m.name] for m in all_rules()], sys.stdout)")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=_env(root), capture_output=True,
                         text=True, check=True).stdout
    import json

    for i, n in json.loads(out):
        if i == rule_id:
            fail(f"{rule_id} is taken ({n})")
        if n == name:
            fail(f"the name {name} is taken ({i})")


def register(init: Path, module: str) -> None:
    """Add ``module`` to the ``from . import ...`` line (or parenthesised list) of ``init``."""
    text = init.read_text(encoding="utf-8")
    one_line = re.search(r"^from \. import ([\w, ]+?)(  #.*)?$", text, re.M)
    if one_line:
        names = sorted({*one_line.group(1).split(", "), module})
        new = f"from . import {', '.join(names)}{one_line.group(2) or ''}"
        write(init, text[:one_line.start()] + new + text[one_line.end():])
        return
    listed = re.search(r"^from \. import \((.*?)\n\)", text, re.M | re.S)
    if not listed:
        fail(f"{init}: no `from . import` of the rule modules found")
    first, *names = listed.group(1).split("\n")
    names = sorted({n.strip().rstrip(",") for n in names if n.strip()} | {module})
    new = "from . import (" + first + "\n" + "".join(f"    {n},\n" for n in names) + ")"
    write(init, text[:listed.start()] + new + text[listed.end():])


def bump_readme(readme: Path, prefix: str) -> None:
    """The README's "What it checks" table counts each family's rules: one more."""
    text = readme.read_text(encoding="utf-8")
    row = re.search(rf"^\| {prefix} \| (\d+) \|", text, re.M)
    if not row:
        fail(f"{readme}: no row for {prefix} in the rule table")
    write(readme, text[:row.start(1)] + str(int(row.group(1)) + 1) + text[row.end(1):])


def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("id", help="the new rule's ID, e.g. SCH112 (the family's prefix, the next free number)")
    ap.add_argument("name", help="its name: lower case words joined by hyphens, e.g. empty-enum")
    ap.add_argument("--family", choices=sorted(FAMILIES), required=True)
    ap.add_argument("--scope", choices=["slot", "tool"], default="slot",
                    help="what the rule is called with: one schema slot, or one tool (default: slot)")
    ap.add_argument("--severity", choices=["error", "warning", "info"], default="warning")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to change (default: this one)")
    args = ap.parse_args(argv)

    prefix, cases_file = FAMILIES[args.family], f"{args.family}.yaml"
    if not re.fullmatch(rf"{prefix}\d{{3}}", args.id):
        fail(f"a {args.family} rule's ID is {prefix} and three digits, not {args.id!r}")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name):
        fail(f"a rule name is lower-case words joined by hyphens, not {args.name!r}")
    root = args.root.resolve()
    module = args.name.replace("-", "_")
    package = root / "mcplint" / "rules" / args.family
    target = package / f"{module}.py"
    if target.exists():
        fail(f"{target} exists")
    check_free(root, args.id, args.name)

    summary = f"Replace: one sentence, what {args.id} finds."
    write(target, MODULE.format(
        id=args.id, name=args.name, summary=summary, severity=args.severity.upper(), scope=args.scope,
        func=module, target=args.scope, placeholder=PLACEHOLDER,
        example=FIRES[args.scope], use_instead=CLEAN, body=BODY[args.scope].format(p=PLACEHOLDER)))
    register(package / "__init__.py", module)
    cases = root / "tests" / "cases" / cases_file
    write(cases, cases.read_text(encoding="utf-8").rstrip("\n") + "\n" + CASES.format(
        id=args.id, name=args.name, fires=FIRES[args.scope], clean=CLEAN, at=FIRES_AT[args.scope]))
    bump_readme(root / "README.md", prefix)
    docs = subprocess.run([sys.executable, "-m", "mcplint", "rules", "--format", "markdown"], cwd=root,
                          env=_env(root), capture_output=True, text=True)
    if docs.returncode != 0:
        fail(f"`mcplint rules --format markdown` failed:\n{docs.stderr}")
    write(root / "docs" / "rules.md", docs.stdout)

    rel = target.relative_to(root)
    print(f"""Wrote {rel}, registered it in {(package / '__init__.py').relative_to(root)}, added two cases to
tests/cases/{cases_file}, counted the rule in README.md and regenerated docs/rules.md.
Next (CONTRIBUTING.md, "Add a rule"):
  1. write the real check and docstring in {rel} (every "Replace" goes);
  2. make the two cases real: one that fires, and the closest one that must not;
  3. regenerate the docs: mcplint rules --format markdown > docs/rules.md
  4. add the rule to its family's page in docs/ and to CHANGELOG.md (Unreleased);
  5. run: pytest tests/rules/test_rules.py tests/rules/test_rule_docs.py -k {args.id}; pytest tests/test_docs.py""")
    return 0


if __name__ == "__main__":
    sys.exit(main())
