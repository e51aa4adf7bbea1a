"""Python modules with no MCP tools to check (a package's ``__init__.py``, a helper, a test that
imports ``mcp.types``, a ``python -m`` entry point, a server of prompts or resources only),
reached by a glob such as ``mcplint scan src/*.py`` or by a pre-commit hook's files: passed over
with a warning naming them when a server beside them was scanned; an input error (exit 2) when
nothing else was, so that a scan never passes on no server at all. A module that builds a server
mcplint cannot reach, or a server whose tools come only at start-up, stays an error wherever it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.errors import NotAServer

HERE = Path(__file__).parent.parent
SERVERS = HERE / "pyservers"

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
# Every test imports Python modules in a server's interpreter (a process each, 3 to 12 s): out of
# the fast lane (pytest -m "not slow").
pytestmark = pytest.mark.slow


def rel(p: Path) -> str:
    return os.path.relpath(p)


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)


NOT_SERVERS = [rel(SERVERS / "no_mcp.py"), rel(SERVERS / "uses_types.py")]
ENTRY = rel(SERVERS / "entry" / "__main__.py")
WEB_APP = rel(SERVERS / "web_app.py")  # calls a `Server` imported from wsgiref, and imports mcp.types


def test_modules_that_are_not_servers_are_skipped_beside_a_server_and_named():
    server = rel(SERVERS / "lowlevel_server.py")
    alone = lint_paths([server], Config(profiles=("gemini",)))
    result = lint_paths([*NOT_SERVERS, server], Config(profiles=("gemini",)))
    assert result.errors == [] and result.files == 1
    assert [(f.rule, str(f.pointer)) for f in result.findings] == [(f.rule, str(f.pointer)) for f in alone.findings] != []
    (note,) = result.notes
    assert note == (f"skipped 2 Python modules with no MCP tools to check: {NOT_SERVERS[0]}, {NOT_SERVERS[1]} "
                    "(scanned alone, each says why)")
    res = CliRunner().invoke(main, ["scan", *NOT_SERVERS, server, "--profile", "gemini", "--fail-on", "warning"],
                             catch_exceptions=False)
    assert res.exit_code == 1 and "input error" not in res.stderr  # the server's finding decides
    assert "DEC002" in res.stdout
    assert "warning: skipped 2 Python modules" in res.stderr


def test_modules_that_are_not_servers_alone_are_input_errors():
    result = lint_paths(NOT_SERVERS, Config())
    assert [type(e) for e in result.errors] == [NotAServer, NotAServer] and result.notes == []
    assert [(e.origin, e.line) for e in result.errors] == [(NOT_SERVERS[0], 1), (NOT_SERVERS[1], 1)]
    assert "imports no MCP SDK" in result.errors[0].message
    assert "defines no MCP server object at module level" in result.errors[1].message
    res = CliRunner().invoke(main, ["scan", *NOT_SERVERS], catch_exceptions=False)
    assert res.exit_code == 2 and f"{NOT_SERVERS[1]}:1:1: input error: the module defines no MCP server" in res.stderr


def test_a_module_that_builds_a_server_out_of_reach_stays_an_error_beside_a_server():
    """demo_main.py builds its server inside main(): not at module level, yet a server."""
    demo, server = rel(SERVERS / "demo_main.py"), rel(SERVERS / "lowlevel_server.py")
    result = lint_paths([demo, server], Config())
    (err,) = result.errors
    assert type(err) is not NotAServer and err.origin == demo and result.notes == []


def test_a_directory_of_python_modules_names_a_server_to_scan(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "util.py").write_text("X = 1\n")
    (tmp_path / "weather_server.py").write_text("")
    result = lint_paths([str(tmp_path)], Config())
    (err,) = result.errors
    assert err.message == ("no *.json, *.yaml or *.yml files to scan in this directory; it holds 3 *.py files: "
                           "a Python server is scanned when named, as in "
                           f"`mcplint scan {tmp_path / 'weather_server.py'}` (the modules of a directory are never "
                           "imported)")
    (tmp_path / "weather_server.py").unlink()
    (err,) = lint_paths([str(tmp_path)], Config()).errors
    assert "holds 2 *.py files" in err.message and f"`mcplint scan {tmp_path / '__init__.py'}`" in err.message
    empty = tmp_path / "empty"
    empty.mkdir()
    (err,) = lint_paths([str(empty)], Config()).errors
    assert err.message == "no *.json, *.yaml or *.yml files to scan in this directory"


def test_the_warning_names_ten_modules_and_counts_the_rest():
    errors = [NotAServer("x", origin=f"m{i:02}.py") for i in range(12)]
    assert NotAServer.skipped(errors).endswith(": m00.py, m01.py, m02.py, m03.py, m04.py, m05.py, m06.py, m07.py, "
                                                "m08.py, m09.py and 2 more (scanned alone, each says why)")


def test_the_action_shows_the_warning(capsys, run_action):
    import sys

    paths = " ".join([*NOT_SERVERS, rel(SERVERS / "lowlevel_server.py")])
    assert run_action(paths=paths, profiles="gemini", server_python=sys.executable) == 0
    out = capsys.readouterr().out
    assert "::warning title=mcplint::skipped 2 Python modules with no MCP tools to check" in out
    assert "input error" not in out


def test_a_package_entry_point_is_never_imported():
    """``sys.exit(main())`` at the top of a ``__main__.py`` would start the program."""
    (err,) = lint_paths([ENTRY], Config()).errors
    assert type(err) is NotAServer and (err.line, err.col) == (6, 1)
    assert err.message == ("this is a package's entry point (`python -m`), which runs its program when imported "
                           "(line 6), so mcplint does not import it")
    result = lint_paths([ENTRY, WEB_APP, rel(SERVERS / "lowlevel_server.py")], Config())
    assert result.errors == [] and result.files == 1
    assert result.notes == [f"skipped 2 Python modules with no MCP tools to check: {ENTRY}, {WEB_APP} "
                            "(scanned alone, each says why)"]


def test_a_class_named_server_from_elsewhere_is_not_the_sdks():
    from mcplint.pysource import server_builds

    assert server_builds(WEB_APP) == []
    # and a client's own `class Server:`, as the SDK's chatbot example has:
    client = SERVERS / "client_servers.py"
    assert server_builds(rel(client)) == []
    (err,) = lint_paths([rel(client)], Config()).errors
    assert type(err) is NotAServer
    assert server_builds(rel(SERVERS / "lowlevel_server.py")) != []
    (err,) = lint_paths([WEB_APP], Config()).errors
    assert type(err) is NotAServer and "defines no MCP server object" in err.message


@pytest.mark.parametrize("source, line, says", [
    ('from mcp.server.mcpserver import MCPServer\nif __name__ == "__main__":\n    MCPServer("x").run()\n', 3,
     'it builds one under `if __name__ == "__main__":`, which does not run on import; move the server to module level'),
    ("from mcp.server import lowlevel\nclass App:\n    server = lowlevel.Server('x')\n", 3,
     "it builds one in the body of class App; move the server"),
    ("import mcp.server.mcpserver as m\nSERVERS = [m.MCPServer('x')]\n", 2,
     "it builds one but keeps it in no module-level name; assign it to a module-level name"),
])
def test_a_server_built_out_of_reach_is_located_where_it_is_built(tmp_path, source, line, says):
    path = tmp_path / "built_server.py"
    path.write_text(source)
    (err,) = lint_paths([str(path), rel(SERVERS / "lowlevel_server.py")], Config()).errors
    assert type(err) is not NotAServer and err.line == line
    assert err.message.startswith("the module defines no MCP server object at module level: " + says), err.message


def test_a_server_of_prompts_and_resources_only_has_no_tools_to_check():
    prompts, server = rel(SERVERS / "prompts_only.py"), rel(SERVERS / "lowlevel_server.py")
    (err,) = lint_paths([prompts], Config()).errors
    assert type(err) is NotAServer and (err.origin, err.line) == (prompts, 4)
    assert err.message == ("the server (mcp) serves 1 prompt, 1 resource, 1 resource template and no tools: "
                           "nothing for mcplint to check")
    (err,) = lint_paths([rel(SERVERS / "lowlevel_prompts.py")], Config()).errors
    assert type(err) is NotAServer and err.message.startswith("the low-level Server (server) serves prompts and no tools")
    result = lint_paths([prompts, rel(SERVERS / "lowlevel_prompts.py"), server], Config())
    assert result.errors == [] and len(result.notes) == 1 and "skipped 2 Python modules" in result.notes[0]


def test_a_server_whose_tools_come_at_start_up_stays_an_error():
    """Nothing listed after import and nothing else served: its tools may be registered in main()."""
    later, server = rel(SERVERS / "no_tools_yet.py"), rel(SERVERS / "lowlevel_server.py")
    (err,) = lint_paths([later, server], Config()).errors
    assert type(err) is not NotAServer and err.line == 4
    assert err.message.startswith("the server (mcp) lists no tools after import: a tool registered later")


def test_a_dependency_the_interpreter_lacks_says_where_it_should_be(tmp_path):
    import sys

    path = tmp_path / "needs_server.py"
    path.write_text("import mcp\nimport asyncpg_not_installed_here\n")
    (err,) = lint_paths([str(path)], Config(python=sys.executable)).errors
    assert err.line == 2 and err.message.startswith("the server raised ModuleNotFoundError on import")
    assert err.expected == (f"the server's dependencies (asyncpg_not_installed_here) installed in {sys.executable}, "
                            "or the server's own interpreter as --python PATH")


REEXPORT = SERVERS / "reexport"


def test_a_module_that_imports_its_server_is_reported_once_beside_the_module_that_assigns_it():
    """A package's __init__.py re-exporting ``mcp`` (and a main.py importing it as ``app``) lists
    the same tools, at the same lines: scanned with server.py, only server.py reports them."""
    init, main_py, server = (rel(REEXPORT / n) for n in ("__init__.py", "main.py", "server.py"))
    strict = Config(profiles=("openai-strict",))
    alone = lint_paths([server], strict)
    assert alone.findings and {f.source.file for f in alone.findings} == {server}
    both = lint_paths([init, main_py, server], strict)
    assert both.errors == [] and both.files == 1 and both.tools == 1
    assert [(f.rule, f.source.file, f.source.line) for f in both.findings] == \
        [(f.rule, f.source.file, f.source.line) for f in alone.findings]
    assert both.notes == [f"{p}: passed over: it imports its server from {server}, scanned too (the findings "
                          "would be the same, twice)" for p in (init, main_py)]
    # a module that imports the server and adds a tool to it lists more than server.py: linted
    tools_py = rel(REEXPORT / "tools.py")
    more = lint_paths([server, tools_py], strict)
    assert more.notes == [] and more.files == 2
    assert {f.source.file for f in more.findings if f.origin == tools_py} == {server, tools_py}
    # without the file that assigns the server, nothing waits: the files keep the run's order
    json_file = rel(HERE / "data" / "corpus" / "time.tools.json")
    ordered = lint_paths([init, json_file], strict)
    assert [d.source.origin for d in ordered.documents] == [init, json_file]
    # on its own, the module that imports the server is scanned as usual: the findings are server.py's
    only = lint_paths([init], strict)
    assert only.notes == [] and [(f.rule, f.source.file, f.source.line) for f in only.findings] == \
        [(f.rule, f.source.file, f.source.line) for f in alone.findings]


MOUNTED = SERVERS / "mounted"


def test_a_module_with_a_server_of_its_own_serves_that_one_and_its_mounted_servers():
    """main.py builds ``main``, mounts jira.py's server under ``jira_`` and imports other.py's: it is
    linted as ``main`` lists its tools (the mounted tool placed at its own lines in jira.py, not at
    the server), jira's tools are not listed a second time unprefixed, and ``other``, which it does
    not serve, is passed over with a warning that names its file."""
    pytest.importorskip("fastmcp.server.providers", reason="fastmcp 3 or later")
    main_py, jira_py, other_py = (rel(MOUNTED / n) for n in ("main.py", "jira.py", "other.py"))
    result = lint_paths([main_py], Config(profiles=("openai-strict",)))
    assert result.errors == [] and result.tools == 2
    assert [t["name"] for t in result.documents[0].data] == ["status", "jira_get_issue"]  # as main lists them
    limit = [f for f in result.findings if str(f.pointer).endswith("/properties/limit")]
    # (openai-strict's finding, and DSC002's: the parameter has no description) all at jira.py's line
    assert limit and {(f.tool, f.source.file, f.source.line, f.source.column) for f in limit} == {
        ("jira_get_issue", jira_py, 9, 15)}
    assert result.notes == [f"{main_py}: passed over server other, imported from {other_py}: the module builds a "
                            "server of its own and does not serve that one's tools; scan its file for them"]
    # the component on its own is its own server, unprefixed
    alone = lint_paths([jira_py], Config(profiles=("openai-strict",)))
    assert [t["name"] for t in alone.documents[0].data] == ["get_issue"] and alone.notes == []


def test_a_low_level_server_with_no_tools_handler_has_no_tools_to_check(tmp_path):
    """Nothing but custom methods (the official SDK's stories/custom_methods): no tools/list handler."""
    path = tmp_path / "custom_server.py"
    path.write_text("from mcp.server.lowlevel import Server\n\nserver = Server('custom')\n")
    (err,) = lint_paths([str(path)], Config()).errors
    assert type(err) is NotAServer and err.line == 3
    assert err.message == "the low-level Server (server) has no tools/list handler: it serves no tools"
    result = lint_paths([str(path), rel(SERVERS / "lowlevel_server.py")], Config())
    assert result.errors == [] and "skipped 1 Python module" in result.notes[0]


def test_each_server_of_a_module_is_its_own_tools_list():
    """MCP120 compares names within one server: `health` on two servers is no clash; listed twice by one, it is."""
    result = lint_paths([rel(SERVERS / "two_servers.py")], Config())
    assert result.errors == [] and len(result.documents[0].data) == 3
    dups = [f for f in result.findings if f.rule == "MCP120"]
    assert [(str(f.pointer), f.tool) for f in dups] == [("/2/name", "health")]
    assert "first at /1" in dups[0].message


def test_fastmcp_versions_of_a_tool_are_linted_as_tools_list_sends_them():
    """fastmcp's list_tools() holds every version; a client gets the highest (dedupe_with_versions)."""
    pytest.importorskip("fastmcp.utilities.versions", reason="fastmcp 3 or later")
    result = lint_paths([rel(SERVERS / "fastmcp_versions.py")], Config(profiles=("openai-strict",)))
    assert result.errors == [] and result.tools == 1
    assert not [f for f in result.findings if f.rule == "MCP120"]
    assert {str(f.pointer) for f in result.findings if f.rule == "DEC001"} >= {"/0/inputSchema/properties/y"}


def test_a_tool_the_sdk_builds_is_placed_at_the_server_with_a_fix_that_can_be_done_here():
    """A finding on a tool fastmcp's transform adds would point into site-packages, with a fix that
    edits fastmcp's arguments; it is placed at the server, and says the schema is the SDK's."""
    pytest.importorskip("fastmcp.server.transforms", reason="fastmcp 3 or later")
    path = rel(SERVERS / "fastmcp_transform.py")
    result = lint_paths([path], Config(profiles=("openai-strict",)))
    assert result.errors == [] and result.findings
    assert {(f.source.file, f.source.line) for f in result.findings} == {(path, 6)}  # mcp = FastMCP(...)
    assert all("site-packages" not in f.source.file for f in result.findings)
    fixes = {f.fix.title for f in result.findings if f.fix}
    assert fixes and all(t.startswith("This tool is built by the SDK (fastmcp/server/transforms/prompts_as_tools.py:")
                         for t in fixes), fixes
    assert all("site-packages" not in text for text in result.documents[0].code.texts)


def test_the_reports_carry_the_warning():
    """JSON (`notes`), SARIF (a warning notification) and the Markdown summary show what stderr does."""
    import json

    from mcplint.report import render

    result = lint_paths([*NOT_SERVERS, rel(SERVERS / "lowlevel_server.py")], Config())
    (note,) = result.notes
    assert json.loads(render("json", result))["notes"] == [note]
    (inv,) = json.loads(render("sarif", result))["runs"][0]["invocations"]
    assert inv["executionSuccessful"] is True
    assert inv["toolExecutionNotifications"] == [{"level": "warning", "message": {"text": note},
                                                  "descriptor": {"id": "run-warning"}}]
    assert f"- ⚠️ {note}" in render("markdown", result)
    assert json.loads(render("json", lint_paths([rel(SERVERS / "lowlevel_server.py")], Config())))["notes"] == []


def test_only_the_sdks_own_functions_make_a_tool_the_sdks():
    """An installed server (mcp-server-git in site-packages) is its own code, not the SDK's."""
    from mcplint.pysource import _library_place

    site = "/venv/lib/python3.11/site-packages"
    assert _library_place([f"{site}/fastmcp/server/transforms/search/base.py", 366, 5, "function"]) == \
        "fastmcp/server/transforms/search/base.py:366"
    assert _library_place([f"{site}/mcp/server/x.py", 3, 1, "function"]) == "mcp/server/x.py:3"
    assert _library_place([f"{site}/mcp_server_git/server.py", 641, 5, "function"]) is None
    assert _library_place(["app/server.py", 4, 1, "function"]) is None and _library_place(None) is None


def test_a_mounted_tools_findings_are_shown_once_in_the_text_report():
    """jira.py and main.py scanned together list get_issue twice (jira's own, main's jira_get_issue):
    the JSON keeps both (two tools are served), the text shows the findings once and says so; with
    --verbose both are listed."""
    pytest.importorskip("fastmcp.server.providers", reason="fastmcp 3 or later")
    from mcplint.report.text import build

    main_py, jira_py = rel(MOUNTED / "main.py"), rel(MOUNTED / "jira.py")
    result = lint_paths([jira_py, main_py], Config(profiles=("openai-strict",)))
    tools = {f.tool for f in result.findings if str(f.pointer).endswith("/properties/limit")}
    assert tools == {"get_issue", "jira_get_issue"}

    class Options:
        verbose, show_fixes, context_lines, unsafe_fixes, quiet = False, False, 0, False, True

    text = ["".join(t for t, _ in line) for line in build(result, Options)]
    folded = [t for t in text if "on the same code, as tool get_issue in " + jira_py in t]
    words = " ".join(" ".join(text).split())  # (a long message wraps over lines)
    assert len(folded) == 1 and words.count("Missing 'limit'") == 1
    Options.verbose = True
    assert " ".join(" ".join(build_text(build(result, Options))).split()).count("Missing 'limit'") == 2


def build_text(lines) -> list:
    return ["".join(t for t, _ in line) for line in lines]
