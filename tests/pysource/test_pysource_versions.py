"""`mcplint scan server.py` on the SDK versions users run: the official SDK's 1.x API
(``mcp.server.fastmcp.FastMCP``, the low-level ``Server`` of mcp 1) and standalone fastmcp 2.x and 3.x,
each in an interpreter of its own; plus servers built by a factory (``server.py:NAME``) and the
``python`` configuration key, on the interpreter running the tests.

No SDK is installed at test time: the other interpreters are named by ``MCPLINT_TEST_PYTHONS``
(paths separated by ``os.pathsep``; ``.ci/run`` makes them, one with ``mcp<2``, one with
``fastmcp<3`` and one with fastmcp 3.x). A test that needs a version no named interpreter has is skipped, saying so."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config, load_config
from mcplint.engine import lint_paths
from mcplint.errors import ConfigError
from mcplint.load import py_target
from mcplint.model import Pointer
from .common import HERE, REALISTIC, SERVERS, check_lines, rel

STRICT = ("openai-strict", "gemini")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)
    monkeypatch.delenv("MCPLINT_SERVER_PYTHON", raising=False)


@functools.lru_cache(maxsize=None)
def _sdks(python: str) -> dict:
    code = ("import json, importlib.metadata as m\nout = {}\nfor d in ('mcp', 'fastmcp'):\n    try:\n"
            "        out[d] = m.version(d)\n    except m.PackageNotFoundError:\n        pass\nprint(json.dumps(out))")
    try:
        run = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except OSError:
        return {}
    return json.loads(run.stdout) if run.returncode == 0 else {}


def interpreter(dist: str, major: int) -> str:
    """The first interpreter of MCPLINT_TEST_PYTHONS whose ``dist`` is ``major``.x, else skip."""
    for python in filter(None, os.environ.get("MCPLINT_TEST_PYTHONS", "").split(os.pathsep)):
        version = _sdks(python).get(dist, "")
        if version.split(".")[0] == str(major):
            return python
    pytest.skip(f"no interpreter with {dist} {major}.x in MCPLINT_TEST_PYTHONS (.ci/run makes them)")


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that contains ``text``."""
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


def at(result) -> dict:
    return {(f.rule, str(f.pointer), f.profile): (f.source.file, f.source.line, f.source.column)
            for f in result.findings}


# ------------------------------------------------------------------ mcp 1.x


def test_mcp1_fastmcp_server_every_line_and_fixes():
    python = interpreter("mcp", 1)
    server = SERVERS / "v1" / "bookings.py"
    result = lint_paths([rel(server)], Config(profiles=STRICT, python=python))
    assert not result.errors, [str(e) for e in result.errors]
    doc = result.documents[0]
    assert [t["name"] for t in doc.data] == ["quote_stay", "availability", "book", "count_bookings"]
    assert sorted(doc.data[1]["inputSchema"]["properties"]) == ["day", "floor"]  # ctx: Context is the SDK's
    assert "outputSchema" in doc.data[0]  # mcp 1.x structured output from the return annotation
    assert check_lines(result.findings) == len(result.findings) > 20
    got, f = at(result), rel(server)
    assert got[("DEC001", "/0/inputSchema/$defs/Guest", "openai-strict")] == (f, line_of(server, "class Guest("), 1)
    assert got[("DEC001", "/0/inputSchema/$defs/Guest/properties/email", "openai-strict")] == \
        (f, line_of(server, "    email: Optional[str]"), 5)
    assert got[("DEC001", "/1/inputSchema/properties/floor", "openai-strict")][1] == \
        line_of(server, "async def room_availability(")
    assert got[("DEC001", "/2/inputSchema", "openai-strict")] == (f, line_of(server, "def book("), 1)
    fixes = {(str(x.pointer), x.profile): x.fix.title for x in result.findings if x.fix}
    assert fixes[("/0/inputSchema/$defs/Stay", "openai-strict")].startswith(
        'Add `model_config = ConfigDict(extra="forbid")` to class `Stay`')
    assert fixes[("/0/inputSchema/$defs/Guest/properties/name/maxLength", "openai-strict")].startswith(
        '`Field(max_length=...)` on `Guest.name` writes "maxLength"')
    assert fixes[("/2/inputSchema/properties/confirm/default", "openai-strict")].startswith(
        'The default of argument `confirm` (`= ...` or `Field(default=...)`) writes "default"')


def test_mcp1_factory_is_suggested_then_called_when_named():
    python = interpreter("mcp", 1)
    server = SERVERS / "v1" / "factory.py"
    plain = lint_paths([rel(server)], Config(python=python))
    (err,) = plain.errors
    assert (err.line, err.col) == (line_of(server, "def create_server("), 1)
    assert f"`mcplint scan {rel(server)}:create_server`" in err.message
    named = lint_paths([rel(server) + ":create_server"], Config(profiles=("openai-strict",), python=python))
    assert not named.errors, [str(e) for e in named.errors]
    assert [t["name"] for t in named.documents[0].data] == ["search"]
    assert check_lines(named.findings) == len(named.findings) > 3
    got = at(named)
    assert got[("DEC001", "/0/inputSchema/$defs/Query", "openai-strict")][1:] == (line_of(server, "class Query("), 1)
    assert got[("DEC001", "/0/inputSchema", "openai-strict")][1:] == (line_of(server, "    def search("), 5)
    assert {x.file for x in named.findings} == {rel(server)}  # the file, not "file.py:create_server"


def test_mcp1_low_level_server_every_page():
    python = interpreter("mcp", 1)
    server = SERVERS / "v1" / "lowlevel_paged.py"
    result = lint_paths([rel(server)], Config(profiles=("gemini",), python=python))
    assert not result.errors, [str(e) for e in result.errors]
    assert [t["name"] for t in result.documents[0].data] == ["alpha", "beta", "gamma"]  # three pages of two
    (f,) = [x for x in result.findings if x.rule == "DEC002"]
    assert str(f.pointer) == "/2/inputSchema/properties/q/maxLength"
    gamma = line_of(server, 'name="gamma"')  # the literal of its inputSchema starts on the next line
    assert (f.source.line, f.source.best_effort) == (gamma + 1, True)
    assert server.read_text().splitlines()[gamma][f.source.column - 1:].startswith('"maxLength": 10')


def test_sdk_major_version_mismatch_says_which_the_server_needs():
    python = interpreter("mcp", 1)
    v2_server = rel(SERVERS / "app" / "server.py")
    (err,) = lint_paths([v2_server], Config(python=python)).errors
    assert "has no module 'mcp.server.mcpserver'" in err.message
    assert "it has mcp 1." in err.message and "written for mcp 2 (MCPServer)" in err.message


@pytest.mark.slow
def test_mcp1_server_on_mcp2_says_it_is_written_for_mcp1():
    pytest.importorskip("mcp.server.mcpserver")
    (err,) = lint_paths([rel(SERVERS / "v1" / "bookings.py")], Config()).errors
    assert err.line == line_of(SERVERS / "v1" / "bookings.py", "from mcp.server.fastmcp import")
    assert "has no module 'mcp.server.fastmcp'" in err.message
    assert "this server is written for mcp 1.x" in err.message and "mcp<2" in err.message


@pytest.mark.slow
def test_mcp1_low_level_decorators_on_mcp2_say_the_server_needs_mcp1(tmp_path):
    """arxiv-mcp-server requires ``mcp>=1.27`` and decorates a low-level Server (``@server.list_prompts()``):
    pip gives it mcp 2, where the decorators are gone. The error at the decorator says so, with mcp 2's
    name for the handler; an AttributeError about anything else is the server's own, with no hint."""
    pytest.importorskip("mcp.server.mcpserver")
    for file, decorator, handler in (("lowlevel_paged.py", "list_tools", "on_list_tools"),
                                     ("lowlevel_prompts.py", "list_prompts", "on_list_prompts")):
        path = SERVERS / "v1" / file
        (err,) = lint_paths([rel(path)], Config()).errors
        assert err.line == line_of(path, f"@server.{decorator}()")
        assert err.expected.startswith(f"mcp 1.x, for which this server is written: `@server.{decorator}()` is mcp "
                                       f"1.x's low-level API, which mcp 2 replaced with `Server(..., {handler}=...)`")
        assert "has mcp 2." in err.expected and "name an interpreter with mcp<2" in err.expected
    named = tmp_path / "obsidian_like.py"  # mcp-obsidian names its server `app`
    named.write_text("from mcp.server.lowlevel import Server\n\napp = Server('x')\n\n\n@app.list_tools()\n"
                     "async def tools():\n    return []\n")
    (err,) = lint_paths([str(named)], Config()).errors
    assert err.line == 6 and "`@app.list_tools()` is mcp 1.x's low-level API" in err.expected
    other = tmp_path / "own_error.py"
    other.write_text("from mcp.server.lowlevel import Server\n\nserver = Server('x')\nserver.lookup_tools()\n")
    (err,) = lint_paths([str(other)], Config()).errors
    assert err.line == 4 and "'Server' object has no attribute 'lookup_tools'" in err.message
    assert err.expected is None


# ------------------------------------------------------------------ fastmcp 2.x


def test_fastmcp2_server_lists_what_clients_get_on_the_right_lines():
    python = interpreter("fastmcp", 2)
    server = SERVERS / "fastmcp2" / "notes.py"
    for target in (rel(server), rel(server) + ":create_server"):  # the module's object; its async factory
        result = lint_paths([target], Config(profiles=("openai-strict",), python=python))
        assert not result.errors, [str(e) for e in result.errors]
        doc = result.documents[0]
        assert [t["name"] for t in doc.data] == ["save_note", "find_notes"]  # purge_everything is disabled
        assert sorted(doc.data[0]["inputSchema"]["properties"]) == ["folder", "note"]
        meta = [f for f in result.findings if f.rule == "MCP126"]
        rest = [f for f in result.findings if f.rule != "MCP126"]
        assert check_lines(rest) == len(rest) > 8
        # fastmcp 2.x's own _meta key: on the line that creates the server, fixed in fastmcp's words,
        # once for both tools it is written on (one change fixes them all)
        assert [str(f.pointer) for f in meta] == ["/0/_meta/_fastmcp"]
        assert meta[0].message.endswith("; on all 2 tools (save_note, find_notes)")
        assert {f.source.line for f in meta} == {line_of(server, 'mcp = FastMCP("Notes")')}
        assert meta[0].fix.title.startswith("Pass `include_fastmcp_meta=False` to `FastMCP(...)`")
        got = at(result)
        assert got[("DEC001", "/0/inputSchema/properties/note/properties/title/maxLength", "openai-strict")][1:] == \
            (line_of(server, "    title: Annotated"), 5)


def test_fastmcp2_mounted_server_is_served_by_the_module_that_mounts_it(tmp_path):
    """fastmcp 2's ``mount(server, prefix=...)``: the mounted tool is listed once, as served
    (``jira_get_issue``), at its lines in jira.py; the imported server not served is passed over."""
    python = interpreter("fastmcp", 2)
    package = tmp_path / "pkg"
    package.mkdir()
    for name in ("__init__.py", "jira.py", "other.py"):
        (package / name).write_text((SERVERS / "mounted" / name).read_text())
    main_py = package / "main.py"
    main_py.write_text((SERVERS / "mounted" / "main.py").read_text().replace('namespace="jira"', 'prefix="jira"'))
    result = lint_paths([str(main_py)], Config(python=python, profiles=("openai-strict",)))
    assert result.errors == [] and [t["name"] for t in result.documents[0].data] == ["status", "jira_get_issue"]
    limit = [f for f in result.findings if str(f.pointer) == "/1/inputSchema/properties/limit"]
    # (openai-strict's finding, and DSC002's: the parameter has no description) all at jira.py's line
    assert limit and {(f.source.file, f.source.line) for f in limit} == {(str(package / "jira.py"), 9)}
    assert len(result.notes) == 1 and "passed over server other" in result.notes[0]


def test_fastmcp2_recursive_model_is_a_located_error_naming_the_tool():
    """fastmcp 2.14 writes a recursive model out in place of its $ref: the schema contains
    itself and the SDK cannot serialize it, so a client's tools/list fails."""
    python = interpreter("fastmcp", 2)
    server = SERVERS / "fastmcp2" / "tree.py"
    (err,) = lint_paths([rel(server)], Config(python=python)).errors
    assert (err.origin, err.line) == (rel(server), line_of(server, "def count("))
    assert "tools/list fails for every client: the SDK cannot send tool 'count'" in err.message
    assert "the inputSchema the SDK built contains itself" in err.message and "fastmcp 3 keeps the $ref" in err.message
    (err,) = lint_paths([rel(REALISTIC)], Config(python=python)).errors  # the corpus's server, the same way
    assert err.line == line_of(REALISTIC, "def build_category_tree(") and "'build_category_tree'" in err.message


# ------------------------------------------------------------------ fastmcp 3.x


def test_fastmcp3_realistic_server_every_line():
    """The corpus's FastMCP server on fastmcp 3.x (between the 2.x above and the 4.x of the test
    venv): every tool listed as the captured tools/list lists it, every finding on its line; its
    recursive model kept as a $ref (2.14 wrote it out in place), so it is a finding, not an error."""
    python = interpreter("fastmcp", 3)
    result = lint_paths([rel(REALISTIC)], Config(profiles=STRICT, python=python))
    assert not result.errors, [str(e) for e in result.errors]
    captured = json.loads((HERE / "data" / "corpus" / "fastmcp-realistic.tools.json").read_text())["tools"]
    assert [t["name"] for t in result.documents[0].data] == [t["name"] for t in captured]
    assert check_lines(result.findings) == len(result.findings) > 50
    recursive = {(f.source.line, f.tool) for f in result.findings if f.rule == "SEC104"}
    assert recursive == {(line_of(REALISTIC, "    children: list[\"TreeNode\"]"), "build_category_tree")}
    # a fastmcp 2.x server that uses an argument fastmcp 3 dropped: a located error with the SDK's words
    (err,) = lint_paths([rel(SERVERS / "fastmcp2" / "notes.py")], Config(python=python)).errors
    assert err.line == line_of(SERVERS / "fastmcp2" / "notes.py", "@mcp.tool(enabled=False)")
    assert "the server raised TypeError on import" in err.message and "'enabled'" in err.message


# ------------------------------------------------------------------ factories (the running interpreter)

FACTORIES = SERVERS / "factories.py"


@pytest.fixture
def official():
    pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")


@pytest.mark.slow
def test_factory_named_is_called_sync_and_async(official):
    f = rel(FACTORIES)
    result = lint_paths([f + ":create_server", f + ":make_app"], Config(profiles=("openai-strict",)))
    assert not result.errors, [str(e) for e in result.errors]
    assert [[t["name"] for t in d.data] for d in result.documents] == [["restock"], ["count"]]
    assert check_lines(result.findings) == len(result.findings) > 5
    lines = {str(x.pointer): x.source.line for x in result.findings if x.profile == "openai-strict"}
    assert lines["/0/inputSchema/$defs/Item"] == line_of(FACTORIES, "class Item(")
    assert lines["/0/inputSchema/properties/warehouse"] == line_of(FACTORIES, "    def restock(")


@pytest.mark.parametrize("name, message, line", [
    ("build", "the factory build() needs arguments (name): give them as literals, `factories.py:build(name=...)`",
     "def build("),
    ("not_a_server", "the factory not_a_server() returned int, not an MCP server", "def not_a_server("),
    ("settings", "'settings' is a dict, not an MCP server or a function that returns one", "settings = "),
    ("create_sever", "the module has no 'create_sever'; did you mean 'create_server'?", None),
])
@pytest.mark.slow
def test_factory_that_cannot_be_used_is_a_located_error(official, name, message, line):
    res = CliRunner().invoke(main, ["scan", f"{rel(FACTORIES)}:{name}"], catch_exceptions=False)
    assert res.exit_code == 2
    where = line_of(FACTORIES, line) if line else 1
    assert f"{rel(FACTORIES)}:{where}:1: input error: {message}" in res.stderr


@pytest.mark.slow
def test_no_server_suggests_the_factory_and_never_calls_one(official, tmp_path):
    marker = tmp_path / "called"
    res = CliRunner().invoke(main, ["scan", rel(FACTORIES)], catch_exceptions=False)
    assert res.exit_code == 2
    assert (f"{rel(FACTORIES)}:{line_of(FACTORIES, 'def create_server(')}:1: input error: the module defines no MCP "
            f"server object at module level; create_server() looks like a factory that builds one: name it to have "
            f"it called, `mcplint scan {rel(FACTORIES)}:create_server`") in res.stderr
    # a module with a server object and a factory: the object is used, the factory never called
    server = tmp_path / "both.py"
    server.write_text("from pathlib import Path\nfrom mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('m')\n\n\n"
                      "@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n\n\n"
                      f"def create_server() -> MCPServer:\n    Path({str(marker)!r}).write_text('called')\n    return mcp\n")
    result = lint_paths([str(server)], Config())
    assert not result.errors and [t["name"] for t in result.documents[0].data] == ["ping"]
    assert not marker.exists()
    result = lint_paths([f"{server}:create_server"], Config())
    assert not result.errors and marker.read_text() == "called"  # called only when named


@pytest.mark.slow
def test_a_function_annotated_to_return_a_web_app_is_not_suggested_as_a_factory(official, tmp_path):
    """The SDK's stories build the server inside ``def build_app() -> Starlette`` and return its app:
    naming it would only fail ("returned Starlette, not an MCP server"), so it is not suggested (the
    server factory beside it is), and alone the error says it returns something else."""
    server = tmp_path / "story.py"
    server.write_text("from mcp.server.mcpserver import MCPServer\nfrom starlette.applications import Starlette\n\n\n"
                      "def build_server() -> MCPServer:\n    return MCPServer('s')\n\n\n"
                      "def build_app() -> Starlette:\n    mcp = MCPServer('s')\n    return mcp.streamable_http_app()\n")
    (err,) = lint_paths([str(server)], Config()).errors
    assert "build_server() looks like a factory" in err.message and "build_app" not in err.message
    server.write_text(server.read_text().replace("def build_server() -> MCPServer:\n    return MCPServer('s')\n\n\n", ""))
    (err,) = lint_paths([str(server)], Config()).errors
    assert err.message == ("the module defines no MCP server object at module level; build_app() builds one but "
                           "returns `Starlette`, not the server: move the server to module level, or into a factory "
                           "that returns it")
    assert (err.line, err.col) == (5, 1)


@pytest.mark.slow
def test_server_built_and_run_in_main_says_why_it_cannot_be_called(official, tmp_path):
    """The SDK's example servers build their server inside a click ``main(port, transport)`` that
    also runs it: nothing mcplint may call; the error says what to change, at that function."""
    server = tmp_path / "server.py"
    server.write_text("from mcp.server.lowlevel import Server\n\n\ndef main(port: int) -> int:\n"
                      "    app = Server('x')\n    app.run()\n    return 0\n")
    (err,) = lint_paths([str(server)], Config()).errors
    assert (err.line, err.col) == (4, 1)
    assert "main() builds one but takes arguments, so mcplint cannot call it: move the server to module level, " \
           "or into a factory that takes none and returns it" in err.message


@pytest.mark.slow
def test_factory_of_an_object_no_literal_gives_says_to_build_it_in_a_module(official, tmp_path):
    """excel-mcp-server's ``create_server(settings: Settings) -> MCPServer``: no literal makes a
    Settings, so the error says to build the server in a module of one's own. A factory of literal
    types (mcp-server-time's ``local_tz: str | None``) keeps the literal suggestion."""
    server = tmp_path / "server.py"
    server.write_text("from dataclasses import dataclass\nfrom typing import Optional\n\n"
                      "from mcp.server.mcpserver import MCPServer\n\n\n@dataclass\nclass Settings:\n    debug: bool = False\n\n\n"
                      "def create_server(settings: Settings, name: Optional[str]) -> MCPServer:\n    return MCPServer('x')\n")
    (err,) = lint_paths([str(server)], Config()).errors
    assert err.line == 12 and err.message.endswith(
        "create_server() builds one but takes `settings: Settings`, which no literal argument can give: build the "
        "server in a module of your own (`server = create_server(settings=..., name=...)`, with create_server "
        "imported from here) and scan that file")
    literal = tmp_path / "literal.py"
    literal.write_text(server.read_text().replace("settings: Settings, ", ""))
    (err,) = lint_paths([str(literal)], Config()).errors
    assert f"give them as literals, `mcplint scan '{literal}:create_server(name=...)'`" in err.message


@pytest.mark.slow
def test_named_object_picks_one_of_several_servers(official, tmp_path):
    server = tmp_path / "two.py"
    server.write_text("from mcp.server.mcpserver import MCPServer\n\na = MCPServer('a')\nb = MCPServer('b')\n\n\n"
                      "@a.tool()\ndef first(x: int) -> int:\n    return x\n\n\n"
                      "@b.tool()\ndef second(y: str) -> str:\n    return y\n")
    both = lint_paths([str(server)], Config())
    assert [t["name"] for t in both.documents[0].data] == ["first", "second"]
    only_b = lint_paths([f"{server}:b"], Config())
    assert [t["name"] for t in only_b.documents[0].data] == ["second"]
    assert only_b.documents[0].code.locations[()].line == 4  # the document's own place: `b = MCPServer('b')`


@pytest.mark.slow
def test_low_level_mcp2_server_every_page(official, tmp_path):
    server = tmp_path / "paged.py"
    server.write_text(
        "from mcp import types\nfrom mcp.server.lowlevel import Server\n\n"
        "TOOLS = [types.Tool(name=f't{i}', input_schema={'type': 'object', 'properties': {}}) for i in range(5)]\n\n\n"
        "async def list_tools(ctx, params):\n"
        "    start = int(params.cursor) if params and params.cursor else 0\n"
        "    nxt = str(start + 2) if start + 2 < len(TOOLS) else None\n"
        "    return types.ListToolsResult(tools=TOOLS[start:start + 2], next_cursor=nxt)\n\n\n"
        "server = Server('paged', on_list_tools=list_tools)\n")
    result = lint_paths([str(server)], Config())
    assert not result.errors, [str(e) for e in result.errors]
    assert [t["name"] for t in result.documents[0].data] == ["t0", "t1", "t2", "t3", "t4"]


@pytest.mark.slow
def test_low_level_tool_is_placed_where_its_name_is_given_not_compared(official, tmp_path):
    """A handler that compares ``name == "echo"`` at a shallower depth than the ``Tool(name="echo")``
    that defines it: the best-effort place is the definition."""
    server = tmp_path / "server.py"
    server.write_text(
        "from mcp import types\nfrom mcp.server.lowlevel import Server\n\n\n"
        "async def call_tool(ctx, params):\n    if params.name == 'echo':\n        return None\n\n\n"
        "async def list_tools(ctx, params):\n    return types.ListToolsResult(tools=[\n"
        "        types.Tool(\n            name='echo',\n"
        "            input_schema={'type': 'object', 'properties': {'m': {'type': 'string', 'maxLength': 9}}},\n"
        "        ),\n    ])\n\n\nserver = Server('s', on_list_tools=list_tools, on_call_tool=call_tool)\n")
    result = lint_paths([str(server)], Config(profiles=("gemini",)))
    (f,) = [x for x in result.findings if x.rule == "DEC002"]
    assert (f.source.line, f.source.best_effort) == (14, True)
    assert server.read_text().splitlines()[13][f.source.column - 1:].startswith("'maxLength': 9")  # its key
    assert result.documents[0].locate_code(Pointer((0, "name"))).line == 13  # name='echo', not the comparison


@pytest.mark.slow
def test_low_level_schema_bound_to_a_module_name_is_followed(official, tmp_path):
    server = tmp_path / "server.py"
    server.write_text(
        "from mcp import types\nfrom mcp.server.lowlevel import Server\n\nSCHEMA = {\n    'type': 'object',\n"
        "    'properties': {'q': {'type': 'string', 'pattern': '^a'}},\n}\n\n\n"
        "async def list_tools(ctx, params):\n"
        "    return types.ListToolsResult(tools=[types.Tool(name='find', input_schema=SCHEMA)])\n\n\n"
        "server = Server('s', on_list_tools=list_tools)\n")
    doc = lint_paths([str(server)], Config()).documents[0]
    assert doc.locate_code(Pointer((0, "inputSchema", "properties", "q", "pattern"))).line == 6
    assert doc.locate_code(Pointer((0, "inputSchema"))).line == 4  # SCHEMA = {
    assert doc.locate_code(Pointer((0,))).line == 11  # name='find'


@pytest.mark.parametrize("arg, expected", [
    ("server.py", ("server.py", None)),
    ("app/server.py:create_server", ("app/server.py", "create_server")),
    ("app/server.py:app.mcp", ("app/server.py", "app.mcp")),
    (r"C:\work\server.py", (r"C:\work\server.py", None)),
    (r"C:\work\server.py:mcp", (r"C:\work\server.py", "mcp")),
    ("tools.json", None),
    ("server.py:", None),
    ("server.py:1x", None),
])
def test_py_target(arg, expected):
    assert py_target(arg) == expected


# ------------------------------------------------------------------ the `python` configuration key


def test_config_python_is_resolved_against_the_config_file(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / ".mcplint.yaml").write_text("python: .venv/bin/python\n")
    assert load_config(start=tmp_path / "sub").python == str(tmp_path / ".venv" / "bin" / "python")
    (tmp_path / ".mcplint.yaml").write_text("python: python3\n")  # a command name: looked up on PATH
    assert load_config(start=tmp_path).python == "python3"
    (tmp_path / ".mcplint.yaml").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.mcplint]\npython = "env/bin/python"\n')
    assert load_config(start=tmp_path / "sub").python == str(tmp_path / "env" / "bin" / "python")


@pytest.mark.parametrize("text, message, line", [
    ("pyhton: .venv/bin/python\n", "unknown configuration key 'pyhton'; did you mean `python`?", 1),
    ("fail-on: error\npython: 3\n", "must be the path of a Python interpreter", 2),
    ("python: ''\n", "must be the path of a Python interpreter", 1),
])
def test_config_python_errors_are_located(tmp_path, text, message, line):
    (tmp_path / ".mcplint.yaml").write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(start=tmp_path)
    assert message in e.value.message and e.value.line == line


@pytest.mark.slow
def test_flag_then_environment_then_config_choose_the_interpreter(tmp_path, monkeypatch):
    pytest.importorskip("mcp.server.mcpserver")
    server = SERVERS / "lowlevel_server.py"
    config = tmp_path / ".mcplint.yaml"
    config.write_text("python: nowhere/python\n")
    run = ["scan", str(server), "--config", str(config)]
    res = CliRunner().invoke(main, run, catch_exceptions=False)  # the config's: resolved next to it, missing
    assert res.exit_code == 2 and f"cannot run the Python interpreter {str(tmp_path / 'nowhere' / 'python')!r}" \
        in res.stderr and "`python:` in the configuration" in res.stderr
    assert CliRunner().invoke(main, [*run, "--python", sys.executable], catch_exceptions=False).exit_code == 0
    monkeypatch.setenv("MCPLINT_SERVER_PYTHON", sys.executable)
    assert CliRunner().invoke(main, run, catch_exceptions=False).exit_code == 0
    res = CliRunner().invoke(main, [*run, "--python", str(tmp_path / "flag")], catch_exceptions=False)
    assert res.exit_code == 2 and str(tmp_path / "flag") in res.stderr


@pytest.mark.parametrize("dist, major, file, says", [
    ("mcp", 1, "v1/prompts_only.py", "the server (mcp) serves 1 prompt, 1 resource and no tools"),
    ("mcp", 1, "v1/lowlevel_prompts.py", "the low-level Server (server) serves prompts and no tools"),
    ("fastmcp", 2, "fastmcp2/prompts_only.py", "the server (mcp) serves 1 prompt, 1 resource template and no tools"),
    ("fastmcp", 3, "fastmcp2/prompts_only.py", "the server (mcp) serves 1 prompt, 1 resource template and no tools"),
])
def test_a_server_of_prompts_or_resources_has_no_tools_to_check_on_each_sdk(dist, major, file, says):
    from mcplint.errors import NotAServer

    python = interpreter(dist, major)
    path = rel(SERVERS / file)
    (err,) = lint_paths([path], Config(python=python)).errors
    assert type(err) is NotAServer and err.message.startswith(says), err.message
    assert err.line == line_of(SERVERS / file, "= FastMCP(" if "FastMCP" in (SERVERS / file).read_text() else "= Server(")


def test_fastmcp2_tool_names_are_placed_where_the_code_names_them():
    python = interpreter("fastmcp", 2)
    server = SERVERS / "fastmcp2" / "names.py"
    result = lint_paths([rel(server)], Config(profiles=("azure-openai",), select=("DEC007",), python=python))
    assert not result.errors, [str(e) for e in result.errors]
    got = {f.tool: f for f in result.findings}
    long_fn = "fetch_the_weather_forecast_for_a_city_for_the_next_seven_days_in_detail"
    assert set(got) == {"get.weather", long_fn}
    assert (got["get.weather"].source.line, got["get.weather"].source.column) == \
        (line_of(server, '@mcp.tool("get.weather")'), len('@mcp.tool(') + 1)
    assert got["get.weather"].fix.title.startswith("Change the name the tool decorator gives `get_weather`")
    assert (got[long_fn].source.line, got[long_fn].source.column) == (line_of(server, f"def {long_fn}"), 5)
    assert got[long_fn].fix.title.startswith(f"The SDK names the tool after the function `{long_fn}`")


# ------------------------------------------------------------------ the protocol versions the SDK serves

TASK_SERVER = '''import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("tasks")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="long_job", description="Runs a while", inputSchema={"type": "object", "properties": {}},
                       execution=types.ToolExecution(taskSupport="optional"))]
'''


def test_a_server_is_checked_as_the_newest_version_its_sdk_serves(tmp_path):
    """mcp 1.x serves up to 2025-11-25, where a Tool's execution member exists: no error that it
    was removed in 2026-07-28, a version this server never serves; a version chosen still wins."""
    python = interpreter("mcp", 1)
    ok = subprocess.run([python, "-c", "import mcp.types as t; t.ToolExecution"], capture_output=True)
    if ok.returncode:
        pytest.skip("this mcp 1.x has no ToolExecution")
    server = tmp_path / "tasks.py"
    server.write_text(TASK_SERVER, encoding="utf-8")
    result = lint_paths([str(server)], Config(python=python))
    assert not result.errors, [str(e) for e in result.errors]
    assert result.documents[0].code.sdk_versions == ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
    assert result.findings and {f.protocol_version for f in result.findings} == {"2025-11-25"}
    assert "MCP105" not in {f.rule for f in result.findings}
    chosen = lint_paths([str(server)], Config(python=python, protocol_versions=("2026-07-28",), versions_chosen=True))
    assert [(f.rule, str(f.pointer)) for f in chosen.findings if f.rule == "MCP105"] == [("MCP105", "/0/execution")]
    r = CliRunner().invoke(main, ["scan", "--no-config", "--python", python, str(server)])
    assert "(the Python server checked as protocol 2025-11-25, the newest its SDK serves; --protocol-version to " \
           "choose)" in r.output


def test_an_mcp2_server_is_checked_as_2026_07_28(official):
    result = lint_paths([rel(SERVERS / "app" / "server.py")], Config(profiles=("openai-strict",)))
    assert not result.errors, [str(e) for e in result.errors]
    assert result.documents[0].code.sdk_versions[-1] == "2026-07-28"
    assert {f.protocol_version for f in result.findings} == {"2026-07-28"}
