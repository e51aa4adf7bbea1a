"""Every file of tests/data/crashes once ended in "internal error" (exit 3) or a wrong line:column.
Each goes through the commands it reaches (scan in every format, project, validate, diff) and
ends in findings or a located error with exit 0, 1 or 2, never a traceback; the YAML files with
line breaks other than LF are located by LF lines, as every other file and the code frames are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

CRASHES = Path(__file__).resolve().parent / "data" / "crashes"
TOOLS = str(CRASHES / "tools.json")
FORMATS = ["text", "concise", "json", "sarif", "github", "markdown"]


def run(args, code: int | tuple, located: str | None = None):
    """Run ``args``; the exit code is ``code`` (or one of them), nothing is a traceback or an
    internal error, and ``located`` (a file) names a line and column in an error line."""
    r = CliRunner().invoke(main, args)
    out = r.output + (r.stderr if r.stderr_bytes is not None else "")
    assert r.exit_code in ((code,) if isinstance(code, int) else code), (args, r.exit_code, out)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
    assert "Traceback" not in out and "internal error" not in out, out
    if located is not None:
        assert re.search(re.escape(located) + r":\d+:\d+: (config |input )?error", out), out
    return r


def test_every_file_here_is_run_by_this_test():
    named = set(SCAN) | set(SCAN_YAML) | set(PROJECT) | set(CONFIGS) | set(BASELINES) | {
        "tools.json", "README.md", "config-per-file-ignores-all.yaml"}
    assert {str(p.relative_to(CRASHES)) for p in CRASHES.rglob("*") if p.is_file()} == named


# ------------------------------------------------------------------ schemas: scan, validate, project

SCAN = {"schema-list.json": "SCH102", "format-list.json": "SCH101"}


@pytest.mark.parametrize("name", sorted(SCAN))
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_list_where_a_string_is_expected_is_a_finding(name, fmt):
    r = run(["scan", "--no-config", "--profile", "default", "--format", fmt, str(CRASHES / name)], 1)
    assert SCAN[name] in r.output


@pytest.mark.parametrize("name", sorted(SCAN))
def test_a_list_where_a_string_is_expected_under_validate_and_project(name, tmp_path):
    args = tmp_path / "args.json"
    args.write_text('{"a": "x@example.com"}')
    r = run(["validate", str(CRASHES / name), "--arguments", str(args)], 1)
    assert "not valid JSON Schema" in r.output or "$schema" in r.output
    for profile in ("openai-strict", "gemini", "azure-openai", "ollama"):
        run(["project", str(CRASHES / name), "--profile", profile], (0, 1))


PROJECT = {"ref-not-a-schema.json": (3, 3, "the reference '#/properties' leads to a value that is not a schema"),
           "type-not-a-name.json": (2, 15, "'type' is {\"type\": \"string\"}, not a type name")}


@pytest.mark.parametrize("name", sorted(PROJECT))
@pytest.mark.parametrize("profile", ["openai-strict", "gemini", "azure-openai", "outlines"])
def test_project_leaves_out_a_schema_it_cannot_read_and_says_where(name, profile):
    line, col, words = PROJECT[name]
    r = run(["project", str(CRASHES / name), "--profile", profile], (0, 1))
    assert f"{CRASHES / name}:{line}:{col}: error: " in r.stderr and words in r.stderr, r.stderr
    assert "left out of the output: t" in r.stderr
    run(["scan", "--no-config", "--profile", profile, str(CRASHES / name)], (0, 1))


# ------------------------------------------------------------------ YAML line breaks

SCAN_YAML = {"yaml-cr.yaml": (7, 24), "yaml-nel.yaml": (7, 24), "yaml-ls.yaml": (7, 24), "yaml-ps.yaml": (7, 24),
             "yaml-break-invalid.yaml": None}


@pytest.mark.parametrize("name", sorted(n for n in SCAN_YAML if SCAN_YAML[n]))
@pytest.mark.parametrize("fmt", FORMATS)
def test_yaml_line_breaks_other_than_lf_keep_line_and_column(name, fmt):
    """PyYAML ends a line at CR, NEL, LS and PS too; mcplint counts LF lines (the report's code
    frames, editors, GitHub): a finding after such a break is where the file's LF lines put it."""
    path = CRASHES / name
    r = run(["scan", "--no-config", "--format", fmt, str(path)], 1)
    line, col = SCAN_YAML[name]
    text = path.read_bytes().decode("utf-8")  # (no newline translation: a lone CR stays)
    target = text.split("\n")[line - 1][col - 1:]
    assert target.startswith("type: strin"), target  # the finding's place, counted by LF lines
    where = {"text": f"{line}:{col}", "concise": f"{path}:{line}:{col}:", "json": f'"line": {line},\n',
             "sarif": f'"startLine": {line},', "github": f"line={line},col={col}", "markdown": f":{line}:{col}"}[fmt]
    assert where in r.output, r.output


def test_a_yaml_error_after_other_line_breaks_is_located_by_lf_lines():
    path = CRASHES / "yaml-break-invalid.yaml"
    r = run(["scan", "--no-config", str(path)], 2, located=str(path))
    m = re.search(re.escape(str(path)) + r":(\d+):(\d+):", r.stderr)
    assert int(m.group(1)) <= path.read_bytes().count(b"\n") + 1  # a line the file has


def test_fix_and_diff_on_yaml_with_other_line_breaks(tmp_path):
    for name in ("yaml-nel.yaml", "yaml-cr.yaml"):
        f = tmp_path / name
        before = (CRASHES / name).read_bytes().decode("utf-8")
        f.write_bytes(before.encode("utf-8"))
        run(["scan", "--no-config", "--protocol-version", "2026-07-28", "--fix", str(f)], 1)
        assert f.read_bytes().decode("utf-8") == before + "resultType: complete\n"  # the rest as it was
    run(["diff", str(CRASHES / "yaml-nel.yaml"), str(CRASHES / "yaml-ls.yaml")], (0, 1))


# ------------------------------------------------------------------ configurations

CONFIGS = {"config-not-utf8.yaml": "not UTF-8", "config-empty-versions.yaml": "must list at least one protocol version",
           "config-empty-select.yaml": "must list at least one rule ID or prefix",
           "config-selects-nothing.yaml": "leaves no rule to check",
           "pyproject-not-table/pyproject.toml": "`tool.mcplint` must be a table",
           "tool-not-table/pyproject.toml": "`tool` must be a table"}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_configuration_that_is_unusable_or_checks_nothing_is_a_located_error(name):
    path = CRASHES / name
    r = run(["scan", "--config", str(path), TOOLS], 2, located=str(path))
    assert CONFIGS[name] in r.stderr


def test_a_file_per_file_ignores_leaves_unchecked_is_named_in_a_warning():
    """An explicit per-file-ignores of every rule is allowed (exit 0), but not silent."""
    config = str(CRASHES / "config-per-file-ignores-all.yaml")
    r = run(["scan", "--config", config, TOOLS], 0)
    assert f"warning: per-file-ignores leaves no rule to check 1 file ({TOOLS}): they pass unchecked" in r.stderr
    r = run(["scan", "--config", config, "--format", "concise", TOOLS, str(CRASHES / "schema-list.json")], (0, 1))
    assert "1 file (" in r.stderr and "SCH102" in r.stdout  # the other file is checked


def test_a_command_line_selection_that_leaves_no_rule_is_an_error():
    r = run(["scan", "--no-config", "--select", "SCH", "--ignore", "SCH", TOOLS], 2)
    assert "command line: config error: the rule selection (select SCH, ignore SCH) leaves no rule" in r.stderr
    run(["scan", "--no-config", "--select", "SCH101", "--ignore", "SCH", "--extend-select", "SCH101", TOOLS], 1)


# ------------------------------------------------------------------ baselines

BASELINES = {"baseline-deep.json": (1, 1, "nests too deep"), "baseline-not-utf8.json": (1, 42, "not UTF-8"),
             "baseline-long-number.json": (2, 15, "4400 digits")}


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_an_unreadable_baseline_is_a_located_error(name):
    line, col, words = BASELINES[name]
    path = CRASHES / name
    r = run(["scan", "--no-config", "--baseline", str(path), TOOLS], 2)
    assert f"{path}:{line}:{col}: input error: " in r.stderr and words in r.stderr, r.stderr


# ------------------------------------------------------------------ exit codes stay distinct


def test_scan_diff_keeps_an_internal_error_at_exit_3(monkeypatch):
    import mcplint.rules.mcp_tool.names as names

    def broken(*a, **k):
        raise RuntimeError("a bug")

    monkeypatch.setattr(names, "is_tool", broken)
    r = CliRunner().invoke(main, ["scan", "--no-config", "--diff", TOOLS])
    assert r.exit_code == 3 and "internal error: RuntimeError: a bug" in r.stderr
    r = CliRunner().invoke(main, ["scan", "--no-config", "--diff", str(CRASHES / "yaml-break-invalid.yaml")])
    assert r.exit_code == 2


class PanicException(BaseException):  # as PyO3 names the panic of a Rust extension
    pass


def test_a_native_panic_while_linting_is_a_located_error_not_an_escape(monkeypatch):
    import mcplint.rules.mcp_tool.names as names
    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.errors import InputError
    from mcplint.load import load_text

    def panic(*a, **k):
        raise PanicException("called `Result::unwrap()` on an `Err` value")

    monkeypatch.setattr(names, "is_tool", panic)
    doc = load_text('{"tools": [{"name": "t",\n "inputSchema": {"type": "object"}}]}', "t.json")
    with pytest.raises(InputError) as e:
        lint_document(doc, Config())
    assert (e.value.origin, e.value.line, e.value.col) == ("t.json", 1, 12)
    assert "rule MCP119 could not check this tool: a native library failed on it (PanicException" in e.value.message
    run(["scan", "--no-config", TOOLS], 2, located=TOOLS)


def test_a_native_panic_while_validating_is_a_problem_not_an_escape(monkeypatch):
    import mcplint.validate as validate

    def panic(*a, **k):
        raise PanicException("recursion limit")

    monkeypatch.setattr(validate, "validate_instance", panic)
    tool = {"name": "t", "inputSchema": {"$dynamicAnchor": "n", "$dynamicRef": "#n"}}
    for problems in (validate.validate_arguments(tool, {}), validate.validate_result(tool, {"content": []})):
        assert len(problems) == 1 and problems[0].is_error and problems[0].code == "incomplete"
        assert "a native library failed" in problems[0].message and "not validated" in problems[0].message
    with pytest.raises(KeyboardInterrupt):  # what is not a native panic still goes through
        monkeypatch.setattr(validate, "validate_instance", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt()))
        validate.validate_arguments(tool, {})


def test_a_native_panic_in_a_document_rule_is_located_too(monkeypatch):
    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.errors import InputError
    from mcplint.load import load_text
    from mcplint.registry import Context

    def panic(*a, **k):
        raise PanicException("stack")

    monkeypatch.setattr(Context, "finding", panic)  # MCP120, a rule of the whole document, reports the repeat
    doc = load_text('{"tools": [{"name": "t", "inputSchema": {"type": "object"}},\n'
                    ' {"name": "t", "inputSchema": {"type": "object"}}]}', "t.json")
    with pytest.raises(InputError) as e:
        lint_document(doc, Config(select=("MCP120",)))
    assert (e.value.line, e.value.col) == (1, 1) and "could not check this document" in e.value.message
