"""`mcplint scan server.py`: a Python MCP server is imported (never run as a script) in a child
interpreter, its SDK lists the tools, and every finding carries the Python line that generated
the schema part it is about. Real servers: the corpus's realistic server on the standalone
``fastmcp`` package and on the official ``mcp`` SDK, and the servers in ``tests/pyservers``.

The line checks do not trust the mapper: for every finding, the text at its reported line and
column is read back from the file and must be the construct the pointer names (the field or
argument of the deepest ``properties/<name>``, the ``class`` of the deepest ``$defs/<Name>``,
the tool's ``def``, or the return annotation of a wrapped result)."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Pointer, Severity
from mcplint.report import render

from .common import HERE, REALISTIC, SERVERS, _text_at, check_lines, rel  # noqa: F401 (shared with the neighbours)

STRICT = Config(profiles=("openai-strict", "gemini"))

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)
    monkeypatch.delenv("MCPLINT_SERVER_PYTHON", raising=False)


def maxresults_warns(findings) -> bool:
    return any(str(f.pointer).endswith("/properties/maxResults") and f.severity == Severity.WARNING for f in findings)


@pytest.mark.slow
def test_realistic_server_on_fastmcp_every_line():
    pytest.importorskip("fastmcp", reason="the standalone fastmcp package (pip install -e '.[pysource-test]')")
    result = lint_paths([rel(REALISTIC)], STRICT)
    assert not result.errors, [str(e) for e in result.errors]
    assert result.tools == 13
    assert check_lines(result.findings) == len(result.findings) > 50
    assert {f.source.file for f in result.findings} == {rel(REALISTIC)}
    # the tools are the ones the captured tools/list lists, in the same order
    captured = json.loads((HERE / "data" / "corpus" / "fastmcp-realistic.tools.json").read_text())["tools"]
    doc = result.documents[0]
    assert [t["name"] for t in doc.data] == [t["name"] for t in captured]
    assert [sorted(t["inputSchema"]["properties"]) for t in doc.data] == \
        [sorted(t["inputSchema"]["properties"]) for t in captured]
    # spot checks by hand, against the file as written
    at = {(str(f.pointer), f.rule, f.profile): (f.source.line, f.source.column) for f in result.findings}
    assert at[("/0/inputSchema/properties/state", "DEC001", "openai-strict")] == (130, 5)
    assert at[("/1/inputSchema/properties/title/maxLength", "DEC002", "gemini")] == (142, 5)
    assert at[("/2/inputSchema/properties/contact", "DEC001", "openai-strict")] == (154, 20)
    assert at[("/2/inputSchema/properties/contact/properties/addresses/items/properties/country",
               "DEC001", "openai-strict")] == (54, 5)


@pytest.mark.slow
def test_realistic_server_on_the_official_sdk_across_files():
    """The server object lives in one module, its tools and models in another: each finding is
    placed in the file that defines what it is about."""
    result = lint_paths([rel(SERVERS / "realistic_mcpserver.py")], STRICT)
    assert not result.errors, [str(e) for e in result.errors]
    assert result.tools == 13
    assert check_lines(result.findings) == len(result.findings) > 50
    files = {f.source.file for f in result.findings}
    assert files == {rel(REALISTIC)}  # no finding is about the wrapper's own lines
    # the official SDK keeps models in $defs: a class's finding is on its `class` line
    address = [f for f in result.findings if str(f.pointer) == "/2/inputSchema/$defs/Address"]
    assert address and address[0].source.line == 50 and address[0].source.what == "class Address"
    assert 'model_config = ConfigDict(extra="forbid")` to class `Address`' in address[0].fix.title
    # the items of a list of models: the description goes on the item type
    agents = {str(f.pointer): f for f in lint_paths([rel(SERVERS / "realistic_mcpserver.py")],
                                                    Config(profiles=("openai-agents",), select=("DEC002",))).findings}
    items = agents["/2/inputSchema/$defs/Contact/properties/addresses/items/$ref"]
    assert items.source.line == 63 and items.fix.title.startswith(
        "Write the type of field `Contact.addresses` as `list[Annotated[Address, Field(description=...)]]`")


@pytest.mark.slow
def test_bare_refs_get_the_description_fix_that_openai_agents_accepts():
    """Each bare $ref (which openai-agents refuses on the MCP path) gets the pydantic spelling of
    a description beside it, placed on its line; the server with those fixes applied has none
    left, and the SDK itself converts every tool to strict."""
    agents = Config(profiles=("openai-agents",), select=("DEC002",))
    bare = lint_paths([rel(SERVERS / "refs_bare.py")], agents)
    assert not bare.errors, [str(e) for e in bare.errors]
    got = {str(f.pointer): (f.source.line, f.fix.title) for f in bare.findings if f.pointer[-1] == "$ref"}
    described = 'pydantic writes the description beside the "$ref", and this target then inlines the model'
    want = {
        "/0/inputSchema/$defs/Person/properties/home/anyOf/0/$ref":
            (16, "Write the type of field `Person.home` as `Optional[Annotated[Address, Field(description=...)]]`"),
        "/0/inputSchema/$defs/Person/properties/work/$ref": (17, "Give field `Person.work` a `Field(description=...)`"),
        "/0/inputSchema/$defs/Person/properties/old/items/$ref":
            (18, "Write the type of field `Person.old` as `list[Annotated[Address, Field(description=...)]]`"),
        "/0/inputSchema/properties/person/$ref":
            (22, "Annotate argument `person` as `Annotated[Person, Field(description=...)]`"),
        "/0/inputSchema/properties/extra/anyOf/0/$ref":
            (22, "Write the type of argument `extra` as `Optional[Annotated[Address, Field(description=...)]]`"),
        "/0/inputSchema/properties/many/items/$ref":
            (22, "Write the type of argument `many` as `list[Annotated[Address, Field(description=...)]]`"),
    }
    assert set(got) == set(want)
    for pointer, (line, start) in want.items():
        assert got[pointer][0] == line and got[pointer][1].startswith(f"{start}: {described}"), (pointer, got[pointer])
    fixed = lint_paths([rel(SERVERS / "refs_described.py")], agents)
    assert not fixed.errors and fixed.tools == 1 and fixed.findings == []
    strict = pytest.importorskip("agents.strict_schema", reason="openai-agents (pip install -e '.[sdk]')")
    for tool in bare.documents[0].data:
        with pytest.raises(Exception, match="reference whose target was not validated"):
            strict.ensure_strict_json_schema(json.loads(json.dumps(tool["inputSchema"])), _reject_open_objects=True)
    for tool in fixed.documents[0].data:
        strict.ensure_strict_json_schema(json.loads(json.dumps(tool["inputSchema"])), _reject_open_objects=True)


@pytest.mark.slow
def test_a_long_description_is_placed_and_fixed_where_the_code_writes_it():
    """DEC008 (OpenAI strict's 1024 characters) on the docstring the SDK sends, on a decorator's
    ``description=`` and on ``add_tool(fn, description=...)``; a function whose own short docstring
    is not what the tool sends is not blamed, and a short docstring is no finding."""
    path = SERVERS / "long_descriptions.py"
    result = lint_paths([rel(path)], Config(profiles=("openai-strict",), select=("DEC008",)))
    assert not result.errors, [str(e) for e in result.errors]
    got = {f.tool: f for f in result.findings}
    assert set(got) == {"search", "fetch", "count", "lookup"}  # not ping
    lines = path.read_text().splitlines()
    at = {tool: (f.source.line, f.source.column) for tool, f in got.items()}
    assert lines[at["search"][0] - 1][at["search"][1] - 1:].startswith('"""Search the archive')
    assert lines[at["fetch"][0] - 1][at["fetch"][1] - 1:].startswith("RULES)")
    assert lines[at["fetch"][0] - 1].startswith("@server.tool(")
    assert lines[at["count"][0] - 1].startswith("server.add_tool(count") and \
        lines[at["count"][0] - 1][at["count"][1] - 1:].startswith("RULES)")
    # a function of another module, registered here: the call in the server's module
    assert got["lookup"].source.file == rel(path) and lines[at["lookup"][0] - 1].strip() == "description=RULES)"
    sent = result.documents[0].data[0]["description"]
    indent = len(sent) - len(inspect.cleandoc(sent))
    # mcp sends fn.__doc__ as written, which Python 3.13 compiles without the indentation
    assert (indent > 0) == (sys.version_info < (3, 13))
    counted = f" ({indent} of its {len(sent)} characters are the docstring's indentation" if indent else ":"
    assert got["search"].fix.title.startswith(
        f"The SDK sends the docstring of `search` as the tool's description{counted}")
    assert "shorten it to at most 1024 characters, or give the tool decorator a shorter `description=`" \
        in got["search"].fix.title
    for tool in ("fetch", "count", "lookup"):
        assert got[tool].fix.title.startswith(f"Shorten the `description=` given for `{tool}` to at most 1024 "
                                              "characters [in the generated schema:"), got[tool].fix.title


@pytest.mark.slow
def test_a_keyword_pydantic_writes_for_a_type_is_not_blamed_on_a_field_argument():
    """mcp-server-fetch's ``url: Annotated[AnyUrl, Field(description=...)]``: ``"minLength": 1`` and
    ``"format": "uri"`` are AnyUrl's, not a ``Field(min_length=...)`` of the author's; the fix names
    the type. The same keyword written by a ``Field`` argument keeps the ``Field`` words."""
    result = lint_paths([rel(SERVERS / "typed_formats.py")], Config(profiles=("openai-strict", "gemini")))
    assert not result.errors, [str(e) for e in result.errors]
    fix = {(str(f.pointer), f.profile): f.fix.title for f in result.findings if f.fix}
    props, home = "/0/inputSchema/properties", "/0/inputSchema/$defs/Site/properties/home"
    for pointer, written, typed, who in (
            (f"{props}/url/format", '"format": "uri"', "AnyUrl", "argument `url`"),
            (f"{props}/url/minLength", '"minLength": 1', "AnyUrl", "argument `url`"),
            (f"{home}/maxLength", '"maxLength": 2083', "HttpUrl", "field `Site.home`")):
        assert fix[pointer, "openai-strict"].startswith(
            f"Pydantic writes {written} for the type `{typed}` of {who} (no `Field` argument of yours does), and "
            "this target rejects it: to send this tool strict, give it a type without it"), fix[pointer, "openai-strict"]
        assert fix[pointer, "gemini"].startswith(
            f"Pydantic writes {written} for the type `{typed}` of {who} and still checks it when the tool is called")
    for pointer, arg in ((f"{props}/name/minLength", "min_length"), (f"{props}/code/maxLength", "max_length"),
                         ("/0/inputSchema/$defs/Site/properties/label/maxLength", "max_length")):
        assert fix[pointer, "openai-strict"].startswith(f"`Field({arg}=...)` on "), fix[pointer, "openai-strict"]
        assert "for the type" not in fix[pointer, "gemini"]
    assert not [p for p, _ in fix if p.startswith(f"{props}/when")]  # date-time: both targets take it
    # `limit: int = LIMIT`, a Field bound to a module name (as AWS's pricing server writes them): not claimed for int
    bounded = lint_paths([rel(SERVERS / "typed_formats.py")], Config(profiles=("anthropic-strict",)))
    words = {str(f.pointer): f.fix.title for f in bounded.findings if f.tool == "page" and f.fix}
    for pointer, arg in (("/1/inputSchema/properties/limit/maximum", "le"),
                         ("/1/inputSchema/properties/limit/minimum", "ge"), ("/1/inputSchema/properties/size/maximum", "le")):
        assert words[pointer].startswith(f"`Field({arg}=...)` on "), words[pointer]
    # Optional: a Field's bound and the type's keywords are in the non-null branch; an alias of the author's
    # (`Short = Annotated[str, Field(max_length=8)]`) is not claimed to be pydantic's
    tag = {str(f.pointer): f.fix.title for f in bounded.findings if f.tool == "tag" and f.fix}
    assert tag["/2/inputSchema/properties/names/anyOf/0/maxItems"].startswith("`Field(max_length=...)` on `names`")
    assert tag["/2/inputSchema/properties/site/anyOf/0/minLength"].startswith(
        'Pydantic writes "minLength": 1 for the type `AnyUrl` of argument `site`')
    # free-form maps, dict[str, Any] ("additionalProperties": true) as dict[str, int] (a schema for every key)
    maps = {(str(f.pointer), f.profile): f.fix.title for f in bounded.findings if f.tool == "report" and f.fix}
    for prop in ("data", "counts"):
        assert maps[f"/3/inputSchema/properties/{prop}/additionalProperties", "anthropic-strict"].startswith(
            "A `dict[str, ...]` annotation generates this free-form map"), maps
    # a Field(description=...) on a field of a model type: written beside its $ref, which OpenAI strict refuses
    beside = {str(f.pointer): f for f in lint_paths([rel(SERVERS / "typed_formats.py")],
                                                    Config(profiles=("openai-strict",))).findings if f.tool == "chart"}
    described = beside["/4/inputSchema/$defs/Series/properties/labels/description"]
    assert described.fix.title.startswith('The `description` of field `Series.labels` (its `Field(description=...)`) '
                                          'is written beside the "$ref" to `Labels`, which this target rejects: say '
                                          "it in the docstring of class `Labels` instead")
    assert tag["/2/inputSchema/properties/alias/maxLength"] == "Remove the bound and enforce it in the server (or say " \
                                                                "it in the description)"


@pytest.mark.slow
def test_package_server_lines_fixes_and_no_main_block():
    """A server inside a package (relative imports), models in a sibling module; its
    ``if __name__ == "__main__"`` block raises if run, so a clean load proves it was not."""
    server, models = rel(SERVERS / "app" / "server.py"), rel(SERVERS / "app" / "models.py")
    result = lint_paths([server], STRICT)
    assert not result.errors, [str(e) for e in result.errors]
    check_lines(result.findings)
    got = {(f.rule, str(f.pointer)): f for f in result.findings if f.profile in ("openai-strict", "gemini")}
    where = {k: (f.source.file, f.source.line, f.source.column) for k, f in got.items()}
    assert where[("DEC001", "/0/inputSchema/$defs/Customer")] == (models, 11, 1)
    assert where[("DEC002", "/0/inputSchema/$defs/Customer/properties/name/maxLength")] == (models, 12, 5)
    assert where[("DEC001", "/0/inputSchema/$defs/Customer/properties/email")] == (models, 13, 5)
    assert where[("DEC001", "/0/inputSchema/$defs/Window")] == (models, 25, 1)
    assert where[("DEC001", "/0/inputSchema/properties/limit")] == (server, 22, 5)
    assert where[("DEC001", "/0/inputSchema")] == (server, 19, 1)  # the arguments object: the def line
    assert where[("DEC001", "/1/inputSchema")] == (server, 30, 1)  # `async def`, renamed tool "register"
    assert where[("DEC002", "/2/inputSchema/$defs/Aliased/properties/fullName/maxLength")] == (models, 36, 5)
    # fixes in pydantic's words, naming the class or argument
    fix = {k: f.fix.title for k, f in got.items()}
    assert fix[("DEC001", "/0/inputSchema/$defs/Customer")].startswith(
        'Add `model_config = ConfigDict(extra="forbid")` to class `Customer`')
    assert "`@with_config(ConfigDict(extra=\"forbid\"))`" in fix[("DEC001", "/0/inputSchema/$defs/Window")]
    assert "`Field(max_length=...)` on `Customer.name`" in fix[
        ("DEC002", "/0/inputSchema/$defs/Customer/properties/name/maxLength")]
    assert "give argument `limit` no default and an `Optional[...]` type" in fix[
        ("DEC001", "/0/inputSchema/properties/limit")]
    assert "`dict[str, ...]`" in fix[("DEC001", "/0/inputSchema/$defs/Customer/properties/notes/additionalProperties")]
    anthropic = lint_paths([server], Config(profiles=("anthropic-strict",), select=("DEC001",))).findings
    rejected = next(f for f in anthropic if str(f.pointer) == "/0/inputSchema/$defs/Customer/properties/name/maxLength")
    assert rejected.consequence == "reject" and rejected.fix.title.startswith(
        '`Field(max_length=...)` on `Customer.name` writes "maxLength", which this target rejects: take it out')
    # the function's own arguments object: no class of the author's to configure, so the fix says
    # where the object is closed instead (the client), not the JSON edit nobody can make in Python
    assert fix[("DEC001", "/0/inputSchema")].startswith("The SDK writes this arguments object itself") and \
        "convert_schemas_to_strict=True" in fix[("DEC001", "/0/inputSchema")]
    # ... and where such a client does close it, nothing is lost and the fix says so (not "use that client");
    # search is the tool it converts (the others carry a bare $ref, so it sends them as written, non-strict)
    agents = lint_paths([server], Config(profiles=("openai-agents",), select=("DEC004",))).findings
    assert {f.tool for f in agents} == {"search"}
    # Region (Optional[str] = None) takes null for "left out", so requiring it changes nothing; maxResults does
    rewritten = {str(f.pointer): f.fix.title for f in agents if "properties" in str(f.pointer)}
    assert list(rewritten) == ["/3/inputSchema/properties/maxResults"]
    assert rewritten["/3/inputSchema/properties/maxResults"].startswith(
        "Type argument `max_results` as `Optional[...]` with the default `None`")
    closed = next(f for f in agents if str(f.pointer) == "/3/inputSchema")
    assert closed.fix.title.startswith("Nothing to change: the function takes only its named parameters")
    # ... so it is information, not a warning to act on (the schema's own finding stays a warning)
    assert closed.severity == Severity.INFO and maxresults_warns(agents)
    js = [f for f in lint_paths([server], Config(profiles=("openai-agents-js",), select=("DEC004",))).findings
          if str(f.pointer).endswith("/inputSchema")]
    assert js and all(f.severity == Severity.INFO for f in js)
    # a bare $ref, which openai-agents refuses and inlines once described: the description in pydantic's words
    refs = {str(f.pointer): f.fix.title for f in lint_paths([server], Config(profiles=("openai-agents",),
                                                                            select=("DEC002",))).findings}
    assert refs["/0/inputSchema/properties/customer/$ref"].startswith(
        "Annotate argument `customer` as `Annotated[Customer, Field(description=...)]`: pydantic writes")
    # a pydantic alias: the schema's name placed on the argument (or field) it renames, the fix naming
    # the Python name (mcp 2 takes the alias from the annotation's Field or from a Field default)
    assert where[("DEC001", "/3/inputSchema/properties/maxResults")] == (server, 44, 5)
    assert where[("DEC001", "/3/inputSchema/properties/Region")] == (server, 45, 5)
    assert "give argument `max_results` no default" in fix[("DEC001", "/3/inputSchema/properties/maxResults")]
    assert "argument `region`" in fix[("DEC001", "/3/inputSchema/properties/Region")]
    assert "on `Aliased.full_name`" in fix[("DEC002", "/2/inputSchema/$defs/Aliased/properties/fullName/maxLength")]
    # near miss: a model with extra="forbid" has additionalProperties false: no such finding on it
    assert ("DEC001", "/1/inputSchema/$defs/StrictCustomer") not in got


@pytest.mark.slow
def test_a_server_given_by_its_absolute_path_names_its_model_files_absolutely_too():
    """The files of one server are named one way: the models' file as the server's was given
    (absolute here), relative to the working directory when the server's is relative."""
    server = str((SERVERS / "app" / "server.py").resolve())
    files = {f.source.file for f in lint_paths([server], STRICT).findings if f.source is not None}
    assert files == {server, str((SERVERS / "app" / "models.py").resolve())}
    relative = {f.source.file for f in lint_paths([rel(SERVERS / "app" / "server.py")], STRICT).findings
                if f.source is not None}
    assert relative == {rel(SERVERS / "app" / "server.py"), rel(SERVERS / "app" / "models.py")}


@pytest.mark.slow
def test_text_report_shows_the_python_frame_and_keeps_the_servers_output_out():
    res = CliRunner().invoke(main, ["scan", rel(SERVERS / "app" / "server.py"), "--profile", "openai-strict",
                                    "--no-color", "-v"], catch_exceptions=False)
    assert res.exit_code == 1, res.output
    out = res.output
    assert "tests/pyservers/app/models.py:11:1" in out
    assert "      > 11 | class Customer(BaseModel):" in out
    assert "      at /0/inputSchema/$defs/Customer" in out
    assert "    22:5 " in out and "      > 22 |     limit: Annotated[int, Field(ge=1, le=50)] = 10," in out
    assert "server module imported" not in out and "a warning on stderr" not in out


@pytest.mark.slow
def test_json_sarif_and_github_place_findings_on_the_py_line():
    from conftest import sarif_validator

    server = rel(SERVERS / "app" / "server.py")
    result = lint_paths([server], Config(profiles=("openai-strict",)))
    doc = json.loads(render("json", result))
    first = next(f for f in doc["findings"] if f["pointer"] == "/0/inputSchema/properties/limit")
    assert (first["file"], first["line"], first["column"]) == (server, 22, 5)
    assert first["source"] == {"file": server, "line": 22, "column": 5, "what": "argument limit", "best_effort": False}
    assert first["generated_from"] == server
    log = json.loads(render("sarif", result))
    assert not list(sarif_validator().iter_errors(log))
    res = next(r for r in log["runs"][0]["results"] if r["properties"]["pointer"] == "/0/inputSchema/$defs/Customer")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "tests/pyservers/app/models.py"
    assert loc["region"] == {"startLine": 11, "startColumn": 1}
    assert res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "/0/inputSchema/$defs/Customer"
    assert "/0/inputSchema/$defs/Customer" in res["message"]["text"]
    gh = render("github", result).splitlines()
    line = next(x for x in gh if "/0/inputSchema/properties/limit]" in x)
    assert line.startswith(f"::error file={server},line=22,col=5,title=")
    assert "endLine" not in line


@pytest.mark.slow
def test_low_level_server_is_placed_by_its_tool_name_as_best_effort():
    result = lint_paths([rel(SERVERS / "lowlevel_server.py")], Config(profiles=("gemini",)))
    assert not result.errors
    (f,) = [f for f in result.findings if f.rule == "DEC002"]
    # the tool is found by its name; the keyword, in the schema written as a literal in its Tool(...)
    assert (f.source.line, f.source.column, f.source.best_effort) == (11, 90, True)
    assert _text_at(f.source.file, 11, 90).startswith('"maxLength": 100')
    doc = result.documents[0]
    assert doc.locate_code(Pointer((0, "description"))).line == 9  # no literal key for it: the name's line
    assert f.fix.title.startswith("Keep the check")  # no generator known: the fix is not restated
    text = render("text", result)
    assert "best effort" in text


def _venv_without_sdk(tmp_path) -> str:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    return str(tmp_path / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python")


@pytest.mark.slow
def test_bad_servers_are_located_errors_and_the_others_still_report(tmp_path):
    good = rel(SERVERS / "lowlevel_server.py")
    bad = [rel(SERVERS / n) for n in ("no_mcp.py", "raises.py", "factory.py", "lowlevel_prompts.py")]
    # a generous import timeout: on a busy machine the good server's import must not run out of time
    # (the module that hangs has a test of its own with a short one)
    res = CliRunner().invoke(main, ["scan", good, *bad, "--profile", "gemini", "--import-timeout", "120",
                                    "--format", "json"], catch_exceptions=False)
    assert res.exit_code == 2
    report = json.loads(res.stdout)
    # the good file is still reported (its `message` argument has no description: DSC002, information)
    assert sorted(f["rule"] for f in report["findings"]) == ["DEC002", "DSC002"]
    err = res.stderr
    # a module that is no server, among servers that were scanned: passed over, and named
    assert "no_mcp.py:1:1" not in err
    assert ("warning: skipped 2 Python modules with no MCP tools to check: tests/pyservers/lowlevel_prompts.py, "
            "tests/pyservers/no_mcp.py (scanned") in err
    assert "tests/pyservers/raises.py:8:1: input error: the server raised KeyError on import" in err
    assert "KeyError: 'DATABASE_URL'" in err and 'raises.py", line 11, in <module>' in err
    tb = err.split("Traceback (most recent call last):", 1)[1].split("KeyError: 'DATABASE_URL'")[0]
    assert "pysource" not in tb and "<string>" not in tb  # the server's traceback, not mcplint's
    assert ("tests/pyservers/factory.py:5:1: input error: the module defines no MCP server object at module level; "
            "create_server() looks like a factory that builds one: name it to have it called, "
            "`mcplint scan tests/pyservers/factory.py:create_server`") in err
    # a low-level Server that serves prompts and no tools: passed over beside the good file
    assert "lowlevel_prompts.py:10:1" not in err and "lowlevel_prompts.py" in err.split("warning: skipped")[1]
    assert err.count("Traceback (most recent call last):") == 1  # raises.py's own


@pytest.mark.slow
def test_a_module_that_hangs_is_a_located_error_after_the_import_timeout():
    res = CliRunner().invoke(main, ["scan", rel(SERVERS / "hangs.py"), "--import-timeout", "2", "--format", "json"],
                             catch_exceptions=False)
    assert res.exit_code == 2
    assert json.loads(res.stdout)["findings"] == []
    # located where the module was when its time ran out (on a busy machine that can be the SDK's import line)
    assert re.search(r"tests/pyservers/hangs\.py:[4-9]:1: input error: importing the module and listing its tools "
                     r"did not finish within 2 s", res.stderr), res.stderr


@pytest.mark.slow
def test_a_main_that_builds_a_server_and_returns_nothing_is_not_suggested_as_a_factory():
    from mcplint.pysource import factory_candidates

    demo = rel(SERVERS / "demo_main.py")
    assert factory_candidates(demo) == []
    assert [n for n, _, _, _ in factory_candidates(rel(SERVERS / "factories.py"))] == ["create_server", "make_app", "build"]
    (err,) = lint_paths([demo], Config()).errors
    assert err.line == 8 and err.message.startswith(
        "the module defines no MCP server object at module level: it builds one inside main(), which mcplint "
        "does not call (it returns no server); move the server to module level")
    assert "looks like a factory" not in err.message


@pytest.mark.slow
def test_interpreter_without_the_sdk_or_missing(tmp_path):
    server = rel(SERVERS / "app" / "server.py")
    python = _venv_without_sdk(tmp_path)
    res = CliRunner().invoke(main, ["scan", server, "--python", python], catch_exceptions=False)
    assert res.exit_code == 2
    assert f"{server}:7:1: input error: the interpreter {python} has no module 'mcp'" in res.stderr
    res = CliRunner().invoke(main, ["scan", server, "--python", str(tmp_path / "nope" / "python")],
                             catch_exceptions=False)
    assert res.exit_code == 2 and "cannot run the Python interpreter" in res.stderr and "no such file" in res.stderr
    # MCPLINT_SERVER_PYTHON names the interpreter when --python does not
    env_run = subprocess.run([sys.executable, "-m", "mcplint", "scan", server], capture_output=True, text=True,
                             env={**os.environ, "MCPLINT_SERVER_PYTHON": python, "PYTHONPATH": str(HERE.parent)})
    assert env_run.returncode == 2 and "has no module 'mcp'" in env_run.stderr


def test_directory_walk_leaves_python_files_alone(tmp_path):
    (tmp_path / "server.py").write_text((SERVERS / "raises.py").read_text())
    (tmp_path / "tools.json").write_text('[{"name": "a", "inputSchema": {"type": "object"}}]')
    result = lint_paths([str(tmp_path)], Config())
    assert not result.errors and result.files == 1


@pytest.mark.slow
def test_parallel_run_gives_the_same_findings():
    paths = [rel(SERVERS / "app" / "server.py"), rel(SERVERS / "lowlevel_server.py"),
             rel(SERVERS / "realistic_mcpserver.py"), rel(SERVERS / "no_mcp.py")]
    one = lint_paths(paths, STRICT, jobs=1)
    two = lint_paths(paths, STRICT, jobs=2)
    assert [(f.rule, f.file, f.line, str(f.pointer)) for f in one.findings] == \
        [(f.rule, f.file, f.line, str(f.pointer)) for f in two.findings]
    assert [str(e) for e in one.errors] == [str(e) for e in two.errors]


def test_locate_code_falls_back_to_the_nearest_known_ancestor():
    from mcplint.model import CodeLocation, CodeMap, Document, Source

    doc = Document(Source("s.py", "[]", "json"), [], code=CodeMap({
        (): CodeLocation("s.py", 3, 1), (0,): CodeLocation("s.py", 9, 1),
        (0, "inputSchema", "properties", "a"): CodeLocation("s.py", 10, 5)}))
    assert doc.locate_code(Pointer((0, "inputSchema", "properties", "a", "maxLength"))).line == 10
    assert doc.locate_code(Pointer((0, "inputSchema", "properties", "b"))).line == 9
    assert doc.locate_code(Pointer((1, "name"))).line == 3
    assert Document(Source("t.json", "[]", "json"), []).locate_code(Pointer((0,))) is None


@pytest.mark.slow
def test_pre_commit_hook_on_python_server_files(tmp_path):
    """``pre-commit try-repo`` with the mcplint-python hook: it picks server files by name, and
    reports on their Python lines with the server's interpreter (here through the environment,
    as try-repo takes no args); without one, with the repository's .venv."""
    import shutil

    from conftest import _git, hook_repo

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[ci-test]')")
    repo = hook_repo(tmp_path)
    work = tmp_path / "work"
    shutil.copytree(SERVERS / "app", work / "app", ignore=shutil.ignore_patterns("__pycache__"))
    (work / "app" / "utils.py").write_text("raise SystemExit('not a server file: never imported')\n")
    (work / "app" / "test_server.py").write_text("raise SystemExit('a test of the server: never imported')\n")
    (work / ".mcplint.yaml").write_text("profiles: [openai-strict]\n")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1",
           "MCPLINT_SERVER_PYTHON": sys.executable}
    env.pop("VIRTUAL_ENV", None)

    def try_repo(env, *files):
        return subprocess.run([str(pre_commit), "try-repo", str(repo), "mcplint-python", "--color", "never",
                               "--files", *files], cwd=work, capture_output=True, text=True, env=env, timeout=600)

    run = try_repo(env, "app/server.py", "app/models.py", "app/utils.py", "app/test_server.py")
    assert run.returncode == 1, run.stdout + run.stderr
    out = run.stdout
    assert "a test of the server" not in out
    assert "app/models.py:11:1  error   DEC001" in out and "> 11 | class Customer(BaseModel):" in out
    assert "22:5 properties/limit" in out  # the server's own lines, folded after one per profile
    assert "not a server file" not in out and "input error" not in out
    # named by nothing: the repository's .venv (here a script that runs this interpreter) is the
    # server's, though pre-commit runs the hook with its own environment active and first on PATH
    bare = {k: v for k, v in env.items() if k != "MCPLINT_SERVER_PYTHON"}
    (work / ".venv" / "bin").mkdir(parents=True)
    (work / ".venv" / "bin" / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (work / ".venv" / "bin" / "python").chmod(0o755)
    run = try_repo(bare, "app/server.py")
    assert run.returncode == 1 and "- exit code: 1" in run.stdout, run.stdout + run.stderr
    assert "DEC001" in run.stdout and "Imported with .venv/bin/python (the .venv of the project at" in run.stdout


@pytest.mark.slow
def test_action_lints_python_server_files(tmp_path, monkeypatch, capsys, run_action):
    """The Action's logic: a .py path in `paths`, imported by `server-python`; annotations and
    SARIF land on the Python lines."""
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(SERVERS / "app", ws / "app", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(ws)
    assert run_action(paths="app/server.py", profiles="openai-strict", sarif="mcplint.sarif",
                      server_python=sys.executable) == 1
    out = capsys.readouterr().out
    assert "::error file=app/models.py,line=11,col=1,title=DEC001 construct-rejected-by-profile::" in out
    assert "::error file=app/server.py,line=22,col=5," in out
    sarif = json.loads((ws / "mcplint.sarif").read_text())
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"app/models.py", "app/server.py"}
    assert "`app/models.py:11:1`" in (tmp_path / "summary.md").read_text()
    assert run_action(server_python=str(tmp_path / "no-python")) == 2
    out = capsys.readouterr().out  # one annotation, on the file
    assert "::error file=app/server.py,title=mcplint input error::cannot run the Python interpreter" in out
    assert out.count("cannot run the Python interpreter") == 1


ZOD = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
       "properties": {"path": {"type": "string", "maxLength": 200}, "tail": {"type": "number"},
                      "meta": {"type": "object", "additionalProperties": {"type": "string"}}},
       "required": ["path", "meta"]}


def test_zod_shaped_json_gets_fixes_in_zod_words_and_no_source(tmp_path):
    (tmp_path / "zod.tools.json").write_text(json.dumps({"tools": [{"name": "read", "inputSchema": ZOD}]}))
    result = lint_paths([str(tmp_path / "zod.tools.json")], STRICT)
    fixes = {(f.rule, str(f.pointer)): f.fix.title for f in result.findings if f.fix}
    assert all(f.source is None for f in result.findings)  # no source line is claimed for a JSON input
    assert fixes[("DEC001", "/tools/0/inputSchema")].startswith(
        "If this schema comes from zod, as its shape suggests: give the tool `inputSchema: z.strictObject({...})`")
    assert "use `.nullable()` instead of `.optional()` on `tail`" in fixes[("DEC001", "/tools/0/inputSchema/properties/tail")]
    assert "`z.record(...)`" in fixes[("DEC001", "/tools/0/inputSchema/properties/meta")]
    assert "`.max()` on `path`" in fixes[("DEC002", "/tools/0/inputSchema/properties/path/maxLength")]


ZOD_CAPTURE = HERE / "data" / "zod-capture" / "server.capture.json"  # the TypeScript SDK's own output


def test_a_probe_capture_of_a_zod_server_gets_fixes_in_zod_words():
    """What `mcplint probe` (and a scan of its --save) gives a TypeScript SDK server: a capture, not
    a tools/list file. The plain shape the SDK wraps gets the strictObject words at the root; a nested
    z.object gets them at its own line; the SDK's schema for a tool without input gets no zod words."""
    result = lint_paths([str(ZOD_CAPTURE)], STRICT)
    by = {}
    for f in result.findings:
        if f.rule == "DEC001" and f.profile == "openai-strict":
            by.setdefault((f.tool, str(f.pointer).split("/inputSchema", 1)[-1]), []).append(f.fix.title)
    assert any("give the tool `inputSchema: z.strictObject({...})`" in t and "in place of a plain shape or a `z.object({...})`" in t
               for t in by[("plain_shape", "")])
    assert any("give the tool `inputSchema: z.strictObject({...})`" in t for t in by[("plain_empty", "")])
    assert any("write this object as `z.strictObject({...})`" in t for t in by[("nested_open", "/properties/filter")])
    assert any("`.nullable()` instead of `.optional()` on `limit`" in t for t in by[("plain_shape", "/properties/limit")])
    assert any("`.default(...)` on `sort` writes \"default\", which this target rejects" in t
               for t in by[("with_default", "/properties/sort/default")])
    # optional because of its .default(...), not of an .optional() the code does not have
    assert any("`.default(...)` makes `sort` optional: write `.nullable()` in its place" in t
               for t in by[("with_default", "/properties/sort")])
    assert not any(".optional()" in t for t in by[("with_default", "/properties/sort")])
    assert not {tool for tool, _ in by} & {"strict_object", "dot_strict", "zod3_shape"}  # closed by zod
    assert by[("no_input", "")] and not any("zod" in t for t in by[("no_input", "")])


def test_a_zod_default_a_target_drops_is_said_in_describe():
    result = lint_paths([str(ZOD_CAPTURE)], Config(profiles=("codex-cli",)))
    [f] = [f for f in result.findings if f.tool == "with_default" and f.rule == "DEC005"]
    assert "zod still fills in `.default(...)` of `sort`" in f.fix.title and "`.describe(...)`" in f.fix.title


def test_the_sdk_successor_packages_zod_output_gets_the_same_words():
    """@modelcontextprotocol/server 2.x converts zod through Standard Schema to 2020-12."""
    result = lint_paths([str(ZOD_CAPTURE.with_name("server-v2.capture.json"))], STRICT)
    fixes = {(f.tool, str(f.pointer).split("/inputSchema", 1)[-1]): f.fix.title
             for f in result.findings if f.profile == "openai-strict" and f.fix}
    for tool in ("open_object", "plain_shape"):
        assert "give the tool `inputSchema: z.strictObject({...})`" in fixes[(tool, "")]
    assert "write this object as `z.strictObject({...})`" in fixes[("strict_object", "/properties/o")]
    assert "`.nullable()` instead of `.optional()` on `n`" in fixes[("open_object", "/properties/n")]
    assert "zod" not in fixes[("no_input", "")]


def _fix_titles(result, tool: str, rule: str = "DEC") -> dict:
    """{(profile, pointer below the first "properties"): fix title} of one tool's findings, for the
    rules whose ID starts with ``rule``."""
    return {(f.profile, str(f.pointer).split("/properties/", 1)[-1]): f.fix.title
            for f in result.findings if f.tool == tool and f.fix and f.rule.startswith(rule)}


def _zod_fixes(*profiles) -> dict:
    return _fix_titles(lint_paths([str(ZOD_CAPTURE)], Config(profiles=profiles)), "written_by_zod")


def test_what_zod_4_writes_by_itself_is_not_blamed_on_a_check_the_author_chained():
    """z.int() writes the safe-integer bounds, z.email() and z.iso.datetime() a pattern beside the
    format: the words name them, not `.max()` or `.regex()`; `.min(1)` is the author's own."""
    fixes = _zod_fixes("anthropic-strict", "openai-finetuned", "codex-cli")
    assert "`.int()` (zod 4's `z.int()` or `z.number().int()`) on `count` writes \"maximum\": 9007199254740991" in \
        fixes[("anthropic-strict", "count/maximum")]
    assert "`z.number().refine(Number.isInteger)`" in fixes[("anthropic-strict", "count/maximum")]
    assert "the zod check `.min()` on `page`" in fixes[("anthropic-strict", "page/minimum")]
    assert "`.int()`" in fixes[("anthropic-strict", "page/maximum")]
    assert "zod 4's `z.email()` on `email` writes this pattern" in fixes[("openai-finetuned", "email/pattern")]
    assert "`z.iso.datetime()` (`z.string().datetime()` in zod 3) on `since` writes \"format\": \"date-time\"" in \
        fixes[("openai-finetuned", "since/format")]
    assert "zod 4's `z.iso.datetime()` on `since` writes this pattern" in fixes[("codex-cli", "since/pattern")]
    assert "zod still checks it on the server" in fixes[("codex-cli", "email/format")]
    assert not any("`.regex()`" in t or "`.max()`" in t for t in fixes.values())
    # a target that drops the safe-integer bounds loses nothing (RFC 7493): no finding to word
    assert ("codex-cli", "count/maximum") not in fixes and ("codex-cli", "page/minimum") in fixes


def test_zods_own_constructs_get_their_own_words():
    """What a discriminated union, a tuple, a record, `.length(n)` and `z.any()` write, named as such."""
    result = lint_paths([str(ZOD_CAPTURE)], Config(profiles=("openai-strict", "anthropic-strict")))
    fixes = _fix_titles(result, "zod_constructs", "DEC001")
    assert "`z.discriminatedUnion(...)` (or `z.xor([...])`) on `pick` writes \"oneOf\"; write it as `z.union([...])`" in \
        fixes[("openai-strict", "pick/oneOf")]
    assert "`z.tuple([...])` on `pair` writes its positions in draft-07's form" in fixes[("openai-strict", "pair/items")]
    assert "`z.tuple([...])` on `pair` writes \"maxItems\" (its length)" in fixes[("anthropic-strict", "pair/maxItems")]
    assert "`z.record(...)` writes this key schema" in fixes[("openai-strict", "tally/propertyNames")]
    assert "`.length(5)` on `code`" in fixes[("anthropic-strict", "code/minLength")]
    assert "`z.any()` or `z.unknown()` on `anything` writes no type" in fixes[("openai-strict", "anything")]
    assert not any("`.min()`" in t or "`.max()`" in t for t in fixes.values())
    gemini = lint_paths([str(ZOD_CAPTURE)], Config(profiles=("gemini",)))
    [kind_a] = [f for f in gemini.findings if f.tool == "zod_constructs" and str(f.pointer).endswith("oneOf/0/properties/kind/const")]
    assert "`z.literal(...)` on `kind` writes \"const\", which this target ignores: write `z.enum([\"a\"])`" in kind_a.fix.title
    assert "write it as a one-value enum" in kind_a.fix.title  # the profile's own words, in brackets
    def recursion(run, profile):
        return [f.fix.title for f in run.findings if f.tool == "zod_constructs" and f.profile == profile
                and str(f.pointer).endswith("items/$ref") and "recursi" in f.message]
    [words] = recursion(gemini, "gemini")
    assert "zod writes this `$ref` for a schema that refers to itself" in words
    assert "zod still checks every level on the server" in words
    [words] = recursion(result, "anthropic-strict")
    assert "this target rejects recursion: nest a fixed number of levels instead" in words
    [defs] = [f for f in gemini.findings if f.tool == "zod_constructs" and str(f.pointer).endswith("inputSchema/definitions")]
    assert "`@modelcontextprotocol/server` 2.x converts it to 2020-12, which names them \"$defs\"" in defs.fix.title


def test_an_open_object_in_an_array_gets_the_closing_words(tmp_path):
    """firecrawl's `actions: z.array(z.object({...}))`: the finding points at `items`, the object."""
    item = {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"]}
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["actions"],
              "additionalProperties": False, "properties": {"actions": {"type": "array", "items": item}}}
    (tmp_path / "f.tools.json").write_text(json.dumps({"tools": [{"name": "scrape", "inputSchema": schema}]}))
    result = lint_paths([str(tmp_path / "f.tools.json")], Config(profiles=("openai-strict",)))
    [f] = [f for f in result.findings if str(f.pointer).endswith("actions/items")]
    assert "write this object as `z.strictObject({...})`" in f.fix.title


def test_zods_words_drop_the_hedge_where_the_tools_file_imports_zod(tmp_path):
    """A probe's --source-dir places a tool at its registerTool call; a file that imports zod
    settles that zod wrote the schema."""
    from dataclasses import replace

    from mcplint.load import load_text
    from mcplint.model import CodeLocation
    from mcplint.pysource.zod import zod_fix

    doc = load_text(ZOD_CAPTURE.read_text(), str(ZOD_CAPTURE), "json")
    result = lint_paths([str(ZOD_CAPTURE)], STRICT)
    [f] = [f for f in result.findings if f.tool == "plain_shape" and f.profile == "openai-strict"
           and str(f.pointer).endswith("inputSchema")]
    with_zod, without = tmp_path / "index.js", tmp_path / "other.js"
    with_zod.write_text('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport * as z from "zod/v4";\n')
    without.write_text('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n')
    placed = zod_fix(replace(f, source=CodeLocation(str(with_zod), 3, 1, best_effort=True)), doc)
    assert placed.startswith("in zod: give the tool `inputSchema: z.strictObject({...})`")
    assert zod_fix(replace(f, source=CodeLocation(str(without), 3, 1, best_effort=True)), doc).startswith(
        "if this schema comes from zod, as its shape suggests:")


def test_the_slot_a_pointer_lies_in_is_the_tools_own():
    from mcplint.load import load_text
    from mcplint.pysource.places import slot_root

    inner = {"type": "object", "properties": {"x": {"type": "string"}}}
    tool = {"name": "t", "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                         "anyOf": [{"inputSchema": inner}]}}
    for data, ptr in (({"tools": [tool]}, ("tools", 0)), (tool, ()), ({"result": {"tools": [tool]}}, ("result", "tools", 0))):
        doc = load_text(json.dumps(data), "t.json", "json")
        root = slot_root(doc, Pointer((*ptr, "inputSchema", "anyOf", 0, "inputSchema", "properties", "x")))
        assert root is tool["inputSchema"] or root == tool["inputSchema"]


# What z.toJSONSchema(z.email()) wrote before zod 4.6.0 (run with zod 4.0.0), which OpenAI refuses
# ("regex lookaround is not supported"); zod 4.6.0 dropped the lookahead.
ZOD_4_0_EMAIL = "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$"


def test_zod_email_lookahead_before_4_6_gets_the_upgrade(tmp_path):
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["to"],
              "additionalProperties": False,
              "properties": {"to": {"type": "string", "format": "email", "pattern": ZOD_4_0_EMAIL}}}
    (tmp_path / "z.tools.json").write_text(json.dumps({"tools": [{"name": "send", "inputSchema": schema}]}))
    [f] = [f for f in lint_paths([str(tmp_path / "z.tools.json")], Config(profiles=("openai-strict",))).findings
           if f.rule == "DEC001"]
    assert "lookaround" in f.message and "upgrade zod" in f.fix.title
    assert "`z.email({ pattern: z.regexes.html5Email })`" in f.fix.title


def test_a_zod_shaped_json_rpc_response_gets_the_root_words(tmp_path):
    (tmp_path / "r.json").write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {
        "tools": [{"name": "read", "inputSchema": ZOD}, {"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]}}))
    result = lint_paths([str(tmp_path / "r.json")], STRICT)
    fixes = {(f.rule, str(f.pointer)): f.fix.title for f in result.findings if f.fix and f.profile == "openai-strict"}
    assert "give the tool `inputSchema: z.strictObject({...})`" in fixes[("DEC001", "/result/tools/0/inputSchema")]
    assert "zod" not in fixes[("DEC001", "/result/tools/1/inputSchema")]


@pytest.mark.parametrize("change", [{"$schema": None}, {"title": "readArguments"}])
def test_not_zod_shaped_keeps_the_schema_terms_fix(tmp_path, change):
    schema = {**ZOD, **change}
    schema = {k: v for k, v in schema.items() if v is not None}
    (tmp_path / "t.tools.json").write_text(json.dumps({"tools": [{"name": "read", "inputSchema": schema}]}))
    result = lint_paths([str(tmp_path / "t.tools.json")], STRICT)
    titles = [f.fix.title for f in result.findings if f.fix]
    assert titles and not any("zod" in t or "pydantic" in t for t in titles)


@pytest.mark.slow
def test_a_server_that_does_not_parse_is_located_at_its_syntax_error(tmp_path):
    server = tmp_path / "server.py"
    server.write_text("from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('s')\ndef broken(:\n    pass\n")
    (err,) = lint_paths([str(server)], Config()).errors
    assert (err.line, err.col) == (4, 1) and "raised SyntaxError on import" in err.message
    assert "def broken(:" in err.message and '"<string>"' not in err.message and "<frozen" not in err.message


@pytest.mark.slow
def test_a_schema_set_by_the_servers_own_code_gets_no_pydantic_words(tmp_path):
    """server-everything (mcp 2) puts a hand-written inputSchema in place of the one the SDK wrote
    (through the tool manager): its properties are no function arguments, so the fixes are the
    schema's own words. Near miss: the same schema written by the SDK from real arguments."""
    body = ("from typing import Optional\n\nfrom mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('r')\n\n\n"
            "@mcp.tool()\ndef contact({args}) -> str:\n    return 'ok'\n")
    by_hand = tmp_path / "by_hand.py"
    by_hand.write_text(body.format(args="") + "\n\nmcp._tool_manager._tools['contact'].parameters = {\n"
                       "    'type': 'object', 'properties': {'name': {'type': 'string'}, 'email': {'type': 'string'}},\n"
                       "    'required': ['name']}\n", encoding="utf-8")
    by_sdk = tmp_path / "by_sdk.py"
    by_sdk.write_text(body.format(args="name: str, email: Optional[str] = None"), encoding="utf-8")
    for path, sdk_words in ((by_hand, False), (by_sdk, True)):
        result = lint_paths([str(path)], Config(profiles=("openai-strict",)))
        assert not result.errors, [str(e) for e in result.errors]
        fix = {str(f.pointer): f.fix.title for f in result.findings if f.rule == "DEC001"}
        assert fix["/0/inputSchema"].startswith("The SDK writes this arguments object itself") == sdk_words
        assert ("argument `email`" in fix["/0/inputSchema/properties/email"]) == sdk_words


@pytest.mark.slow
def test_bytes_is_named_as_the_type_that_writes_format_binary(tmp_path):
    """pydantic writes "format": "binary" for `bytes` (the SDK's audio example): each target's fix and
    the unknown-format finding name the type, not a `format` the author never wrote."""
    server = tmp_path / "audio.py"
    server.write_text("from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('a')\n\n\n@mcp.tool()\n"
                      "def transcribe(raw_audio: bytes, lang: str) -> str:\n    return lang\n", encoding="utf-8")
    result = lint_paths([str(server)], Config(profiles=("openai-strict", "gemini")))
    assert not result.errors, [str(e) for e in result.errors]
    fix = {(f.rule, f.profile): f.fix.title for f in result.findings
           if str(f.pointer) == "/0/inputSchema/properties/raw_audio/format"}
    said = 'Pydantic writes "format": "binary" for the type `bytes` of argument `raw_audio`'
    assert fix[("DEC001", "openai-strict")].startswith(said + " (no `Field` argument of yours does), and this target "
                                                       "rejects it")
    assert fix[("DEC002", "gemini")].startswith(said + " and still checks it when the tool is called")
    assert fix[("SCH110", None)].startswith(said) and "this target" not in fix[("SCH110", None)]


TS_SOURCE = """import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
console.log("search");  // the name, but not a registration

server.registerTool("search", { description: "Search the catalogue." }, async () => ({ content: [] }));
"""


def test_probe_source_dir_places_tools_where_their_name_is_registered(tmp_path):
    """`mcplint probe --source-dir`: the TypeScript-style registration line of each tool, best
    effort; a tool registered nowhere in the directory keeps no source."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "index.ts").write_text(TS_SOURCE)
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.js").write_text('x.tool("delete_all", {})\n')  # never searched
    server = HERE / "probe_servers" / "stdio_server.py"
    res = CliRunner().invoke(main, ["probe", "--no-config", "--source-dir", str(tmp_path), "--profile", "openai-strict",
                                    "--protocol-version", "2025-11-25", "--format", "json", "--",
                                    sys.executable, str(server)], catch_exceptions=False)
    assert res.exit_code == 1, res.output
    found = json.loads(res.stdout)["findings"]
    search = [f for f in found if f["tool"] == "search"]
    assert search and all(f["source"] == {"file": str(tmp_path / "src" / "index.ts"), "line": 4, "column": 21,
                                          "what": "tool name (best effort)", "best_effort": True} for f in search)
    assert all("source" not in f for f in found if f["tool"] == "delete_all")
    assert "1 of 2 tools placed where their name is registered" in res.stderr


@pytest.mark.parametrize("code, line, col", [
    ('const t = { name: "go" };\nserver.tool("go", "desc", {}, cb);\n', 2, 13),  # a call wins over a name: member
    ("@mcp.tool(name='go')\ndef run(): ...\n", 1, 16),
    ("tools = [\n  {\n    name: `go`,\n  },\n]\n", 3, 11),
    ('server.tool("gopher", {})\n', None, None),  # another name that starts the same: near miss
    # the TypeScript SDK's task tools (server-everything's simulate-research-query)
    ('const t = { name: "go" };\nserver.experimental.tasks.registerToolTask(\n  "go",\n  {},\n);\n', 3, 3),
])
def test_find_sites_patterns(tmp_path, code, line, col):
    from mcplint.pysource.sites import find_sites

    (tmp_path / "server.ts").write_text(code)
    site = find_sites(["go"], str(tmp_path)).get("go")
    if line is None:
        assert site is None
    else:
        assert (site.line, site.column, site.best_effort) == (line, col, True)


def test_the_helper_program_uses_only_the_standard_library_and_defines_every_name_it_reads():
    """The two parts of the program run in the server's interpreter (nothing of mcplint is there):
    only standard-library imports (and the server's SDK), no `from __future__` (it would have to open the whole program),
    and every global either part reads is defined by one of them or is a builtin."""
    import ast
    import builtins

    from mcplint.pysource import CHILD_PARTS

    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in CHILD_PARTS]
    defined = set(dir(builtins))
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                # (and the SDK the server itself imports, inside the functions that list its tools;
                # mcp 2 keeps its types, the protocol versions among them, in mcp_types)
                assert all(n.split(".")[0] in sys.stdlib_module_names | {"mcp", "mcp_types", "fastmcp"}
                           for n in names), names
                assert not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
                defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                defined.add(node.name)
    read = {n.id for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert read <= defined, read - defined
    compile("\n\n".join(p.read_text(encoding="utf-8") for p in CHILD_PARTS), "<string>", "exec")


def test_a_zod_object_a_client_closes_loses_nothing(tmp_path):
    """zod's z.object strips the keys it does not name before the handler sees the arguments (the
    SDK parses them with the tool's schema; checked with zod 4.6.7), so the Agents SDKs closing it
    changes nothing for the server: where the tool's file settles that zod wrote it, the finding is
    information only; where only the schema's shape suggests it, it stays a warning with the words."""
    from dataclasses import replace

    from mcplint.load import load_text
    from mcplint.model import CodeLocation
    from mcplint.pysource.fixes import restate_all

    doc = load_text(ZOD_CAPTURE.read_text(), str(ZOD_CAPTURE), "json")
    closed = [f for f in lint_paths([str(ZOD_CAPTURE)], Config(profiles=("openai-agents-js",), select=("DEC004",))).findings
              if "additionalProperties: false" in f.message]
    assert {f.tool for f in closed} >= {"plain_shape", "nested_open"}
    for f in closed:
        assert f.severity == Severity.WARNING and f.fix.title.startswith(
            "If this schema comes from zod, as its shape suggests: nothing to change: zod's `z.object` strips")
    with_zod = tmp_path / "index.js"
    with_zod.write_text('import * as z from "zod/v4";\n')
    raw = [f for f in lint_paths([str(ZOD_CAPTURE)], Config(profiles=("openai-agents-js",), select=("DEC004",)),
                                 ).findings if f.tool == "plain_shape"]
    [placed] = restate_all([replace(raw[0], source=CodeLocation(str(with_zod), 1, 1, best_effort=True))], doc)
    assert placed.severity == Severity.INFO and placed.fix.title.startswith("Nothing to change: zod's `z.object`")
    # a target that rejects the open object still asks for z.strictObject, as a warning or error
    strict = [f for f in lint_paths([str(ZOD_CAPTURE)], STRICT).findings
              if f.tool == "plain_shape" and str(f.pointer).endswith("inputSchema") and f.profile == "openai-strict"]
    assert strict and "z.strictObject" in strict[0].fix.title and strict[0].severity != Severity.INFO


@pytest.mark.slow
def test_a_tool_name_is_placed_where_the_code_names_the_tool():
    """DEC007 (Azure OpenAI's 64 characters and characters) on the function the SDK names a tool
    after, on a decorator's ``name=`` and on ``add_tool(fn, name=...)``, each with the fix in the
    code's terms; a long function given a short ``name=``, and a short one, are no finding."""
    path = SERVERS / "tool_names.py"
    result = lint_paths([rel(path)], Config(profiles=("azure-openai",), select=("DEC007",)))
    assert not result.errors, [str(e) for e in result.errors]
    got = {f.tool: f for f in result.findings}
    long_fn = "fetch_the_weather_forecast_for_a_city_for_the_next_seven_days_in_detail"
    assert set(got) == {long_fn, "get.weather", "list.items"}  # not alerts, not ping
    lines = path.read_text().splitlines()
    at = {tool: lines[f.source.line - 1][f.source.column - 1:] for tool, f in got.items()}
    assert at[long_fn].startswith(long_fn + "(city")  # the function's name in its def
    assert at["get.weather"].startswith('"get.weather")') and lines[got["get.weather"].source.line - 1].startswith(
        "@server.tool(")
    assert at["list.items"].startswith('"list.items")') and lines[got["list.items"].source.line - 1].startswith(
        "server.add_tool(items")
    assert got[long_fn].fix.title.startswith(f"The SDK names the tool after the function `{long_fn}`: rename the "
                                             "function, or give the tool decorator a `name=` that fits")
    for tool, fn in (("get.weather", "get_weather"), ("list.items", "items")):
        assert got[tool].fix.title.startswith(f"Change the `name=` given for `{fn}` [in the generated schema: "
                                              "Rename the tool"), got[tool].fix.title
