"""`mcplint server` driven by a real LSP client (pytest-lsp) over stdio: one server process for
the module. Diagnostics on open and change, quick fixes and "fix all" (the text `--fix` writes),
suppression, hover, invalid JSON mid-typing, a configuration change, a Python server file
that hangs on import."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from mcplint.autofix.patch import splice  # noqa: E402

HERE = Path(__file__).resolve().parent.parent

TOOLS = """{
  "tools": [
    {
      "name": "get_weather",
      "description": "Weather for a city",
      "inputSchema": {
        "type": "object",
        "properties": {
          "city": {"type": "string", "nullable": false},
          "days": {"type": "integer", "example": 3}
        },
        "required": ["city"],
        "additionalProperties": false
      },
      "annotations": {"readOnlyHint": true, "category": "weather"}
    }
  ]
}
"""
# `mcplint scan --fix` on TOOLS: the two safe fixes (SCH104), nothing else touched
FIXED = TOOLS.replace(', "nullable": false}', "}").replace('"example": 3}', '"examples": [3]}')


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    (root / ".mcplint.yaml").write_text("profiles: [openai-strict, anthropic-strict]\n"
                                        "protocol-versions: [2025-11-25]\n")
    return root


class Counted(dict):
    """The client's last diagnostics per file, counting how many times each was published."""

    def __init__(self, *args):
        super().__init__(*args)
        self.publishes: dict = {}

    def __setitem__(self, uri, value):
        self.publishes[uri] = self.publishes.get(uri, 0) + 1
        super().__setitem__(uri, value)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "mcplint", "server"]),
                    scope="module")
async def client(lsp_client: LanguageClient, workspace):
    lsp_client.registrations = []
    lsp_client.diagnostics = Counted(lsp_client.diagnostics)  # (the client stores each file's last here)

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        lsp_client.registrations += params.registrations

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=workspace.as_uri(),
        initialization_options={"debounce": 0.05, "importTimeout": 120, "python": sys.executable}))
    yield
    await lsp_client.shutdown_session()


async def published(client, uri: str, action=None) -> list:
    """Do ``action`` and return the next diagnostics published for ``uri`` (the client keeps the
    last of each file; a burst of them, one per open file, comes in one read)."""
    client.diagnostics.pop(uri, None)
    if action is not None:
        action()
    for _ in range(2000):  # 100 s at most
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics published for {uri}")


def open_doc(client, uri: str, text: str, language="json"):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


def change(client, uri: str, text: str, version: int):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def rng(d) -> tuple:
    return (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)


def offset(text: str, pos: types.Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:pos.line]) + pos.character


def apply(text: str, edits) -> str:
    return splice(text, [(offset(text, e.range.start), offset(text, e.range.end), e.new_text) for e in edits])


def edits_of(action, uri: str) -> list:
    if action.edit.changes:
        return action.edit.changes[uri]
    return [e for dc in action.edit.document_changes if isinstance(dc, types.TextDocumentEdit)
            and dc.text_document.uri == uri for e in dc.edits]


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_code_range_link_and_related(client, workspace):
    uri = (workspace / "open.tools.json").as_uri()
    diags = await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    by_code = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d)
    assert set(by_code) == {"SCH104", "MCP112", "DEC001", "DSC002"}
    # the two arguments without a description: information on each property, on by default
    assert sorted(rng(d)[0] for d in by_code["DSC002"]) == [8, 9]
    assert {d.severity for d in by_code["DSC002"]} == {types.DiagnosticSeverity.Information}
    assert sorted(rng(d) for d in by_code["SCH104"]) == [(8, 37, 8, 54), (9, 38, 9, 50)]  # the keys and values
    (cat,) = by_code["MCP112"]
    assert rng(cat) == (14, 44, 14, 65)  # "category": "weather"
    assert TOOLS.split("\n")[14][44:65] == '"category": "weather"'
    assert cat.severity == types.DiagnosticSeverity.Error and cat.source == "mcplint"
    assert cat.code_description.href.endswith("docs/rules.md#mcp112")
    # the configuration's profile applies: OpenAI strict's finding on the optional property
    (dec,) = by_code["DEC001"]
    assert rng(dec)[0] == 9 and "[openai-strict]" in dec.message


@pytest.mark.asyncio(loop_scope="module")
async def test_other_profiles_are_related_information_at_the_same_place(client, workspace):
    uri = (workspace / "related.tools.json").as_uri()
    text = TOOLS.replace('"nullable": false', '"minLength": 2')
    diags = await published(client, uri, lambda: open_doc(client, uri, text))
    (d,) = [d for d in diags if d.code == "DEC001" and rng(d)[0] == 8]
    assert text.split("\n")[8][rng(d)[1]:rng(d)[3]] == '"minLength": 2'
    assert "[anthropic-strict]" in d.message  # the worst first; OpenAI's (one severity lower) is related
    (other,) = d.related_information
    assert other.location.uri == uri and other.location.range == d.range
    assert other.message.startswith("profile openai-strict; MCP 2025-11-25: OpenAI strict rejects")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_change_relints_and_bad_json_is_one_located_diagnostic(client, workspace):
    uri = (workspace / "typing.tools.json").as_uri()
    await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    fixed = TOOLS.replace(', "category": "weather"', "")
    diags = await published(client, uri, lambda: change(client, uri, fixed, 2))
    assert "MCP112" not in {d.code for d in diags} and "SCH104" in {d.code for d in diags}
    broken = fixed.replace('"required": ["city"],', '"required": ["city"')  # mid-typing
    diags = await published(client, uri, lambda: change(client, uri, broken, 3))
    assert len(diags) == 1 and diags[0].code is None
    # where `mcplint scan` puts it (line 13, column 9: the next member, where the comma is missing)
    assert diags[0].message == "invalid JSON: Expecting ',' delimiter" and rng(diags[0]) == (12, 8, 12, 9)
    diags = await published(client, uri, lambda: change(client, uri, TOOLS, 4))  # alive, and back
    assert "MCP112" in {d.code for d in diags}


@pytest.mark.asyncio(loop_scope="module")
async def test_changes_in_quick_succession_are_linted_once_as_the_last_left_it(client, workspace):
    uri = (workspace / "burst.tools.json").as_uri()
    await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    before = client.diagnostics.publishes[uri]

    def burst():
        for v in range(2, 7):  # typing: five changes well inside the debounce interval
            change(client, uri, TOOLS.replace('"weather"', '"w' + "x" * v + '"') if v < 6 else
                   TOOLS.replace(', "category": "weather"', ""), v)

    diags = await published(client, uri, burst)
    await asyncio.sleep(0.5)  # (ten debounce intervals: any other lint would have been published)
    assert client.diagnostics.publishes[uri] == before + 1
    assert "MCP112" not in {d.code for d in diags} and "SCH104" in {d.code for d in diags}


@pytest.mark.asyncio(loop_scope="module")
async def test_json_and_yaml_files_that_are_not_tools_get_no_diagnostic(client, workspace):
    for name, text, language in (("data.json", "[1, 2, 3]", "json"),
                                 ("tsconfig.json", '{\n  // comments: JSON with comments\n  "a": 1\n}', "jsonc"),
                                 ("site.yaml", "- name: install\n  apt: {name: git}\n", "yaml"),
                                 ("package.json", '{"name": "x", "description": "y"}', "json")):
        uri = (workspace / name).as_uri()
        assert not await published(client, uri, lambda: open_doc(client, uri, text, language))
    # a file that held tools once (its name says nothing) shows the error when an edit breaks it
    uri = (workspace / "plain.yaml").as_uri()
    yaml_tools = "- name: a\n  inputSchema: {type: object, nullable: true}\n"
    diags = await published(client, uri, lambda: open_doc(client, uri, yaml_tools, "yaml"))
    assert "SCH104" in {d.code for d in diags}
    diags = await published(client, uri, lambda: change(client, uri, yaml_tools.replace("}", ""), 2))
    assert len(diags) == 1 and diags[0].message.startswith("invalid YAML") and diags[0].code is None


@pytest.mark.asyncio(loop_scope="module")
async def test_client_configurations_are_linted_as_scan_reads_them(client, workspace):
    vscode = workspace / "proj" / ".vscode" / "mcp.json"
    codex = workspace / "proj" / ".codex" / "config.toml"
    server = '"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"],},'
    texts = {vscode: '{\n  // JSON with comments\n  "servers": {\n    ' + server + '\n  },\n}\n',
             codex: '[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-filesystem"]\n'}
    for path, text in texts.items():
        path.parent.mkdir(parents=True)
        path.write_text(text)
        uri = path.as_uri()
        diags = await published(client, uri, lambda: open_doc(client, uri, text, "jsonc" if path == vscode else "toml"))
        (d,) = [d for d in diags if d.code == "CFG005"]  # npx without a version, on the package's name
        line = text.split("\n")[rng(d)[0]]
        assert line[rng(d)[1]:rng(d)[3]] == '"@modelcontextprotocol/server-filesystem"'
        ctx = types.CodeActionContext(diagnostics=[], only=["source.fixAll.mcplint"])
        whole = types.Range(types.Position(0, 0), types.Position(9, 0))
        assert not await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), whole, ctx))  # --fix edits neither


@pytest.mark.asyncio(loop_scope="module")
async def test_fix_all_writes_what_fix_writes_and_quick_fixes_apply(client, workspace):
    from click.testing import CliRunner

    from mcplint.cli import main

    uri = (workspace / "fix.tools.json").as_uri()
    diags = await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    disk = workspace / "ondisk.tools.json"
    disk.write_text(TOOLS)
    CliRunner().invoke(main, ["scan", "--fix", "-q", str(disk)])
    assert disk.read_text() == FIXED  # the CLI's own text, with the workspace configuration
    whole = types.Range(types.Position(0, 0), types.Position(len(TOOLS.split("\n")), 0))
    ctx = types.CodeActionContext(diagnostics=[], only=["source.fixAll.mcplint"])
    (fix_all,) = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), whole, ctx))
    assert fix_all.kind == "source.fixAll.mcplint"
    assert apply(TOOLS, edits_of(fix_all, uri)) == disk.read_text()
    (cat,) = [d for d in diags if d.code == "MCP112"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), cat.range, types.CodeActionContext(diagnostics=[cat])))
    (quick,) = [a for a in actions if a.title.startswith("MCP112")]
    assert quick.kind == types.CodeActionKind.QuickFix and "unsafe" in quick.title and not quick.is_preferred
    assert apply(TOOLS, edits_of(quick, uri)) == TOOLS.replace(', "category": "weather"', "")
    (nullable,) = [d for d in diags if d.code == "SCH104" and rng(d)[0] == 8]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), nullable.range, types.CodeActionContext(diagnostics=[nullable])))
    (quick,) = [a for a in actions if a.title.startswith("SCH104")]
    assert quick.is_preferred and apply(TOOLS, edits_of(quick, uri)) == TOOLS.replace(', "nullable": false}', "}")


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_the_rule_docs(client, workspace):
    from mcplint.docs import rule_markdown
    from mcplint.registry import get

    uri = (workspace / "hover.tools.json").as_uri()
    await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(14, 50)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value == rule_markdown(get("MCP112"))
    nothing = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(3, 5)))
    assert nothing is None


@pytest.mark.asyncio(loop_scope="module")
async def test_suppression_edits_the_configuration_and_a_config_change_relints(client, workspace):
    uri = (workspace / "suppress.tools.json").as_uri()
    diags = await published(client, uri, lambda: open_doc(client, uri, TOOLS))
    (cat,) = [d for d in diags if d.code == "MCP112"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), cat.range, types.CodeActionContext(diagnostics=[cat])))
    (sup,) = [a for a in actions if a.title.startswith("Suppress MCP112")]
    config = workspace / ".mcplint.yaml"
    (reg,) = client.registrations  # the server asked to hear of changes to configuration files
    assert reg.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert reg.register_options["watchers"][0]["globPattern"] == "**/{.mcplint.yaml,.mcplint.yml,pyproject.toml}"
    before = config.read_text()
    after = apply(before, edits_of(sup, config.as_uri()))
    assert after == before + ('suppress: [{"rule": "MCP112", "pointer": "/tools/0/annotations/category", '
                              '"file": "suppress.tools.json"}]\n')
    config.write_text(after)
    try:
        diags = await published(client, uri, lambda: client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams([types.FileEvent(config.as_uri(), types.FileChangeType.Changed)])))
        assert "MCP112" not in {d.code for d in diags} and "SCH104" in {d.code for d in diags}
    finally:
        config.write_text(before)


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_a_python_server_that_hangs_on_import_is_cut_by_the_timeout(client, workspace):
    path = workspace / "hangs.py"
    shutil.copy(HERE / "pyservers" / "hangs.py", path)
    uri = path.as_uri()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams({"mcplint": {"importTimeout": 2}}))
    try:
        diags = await published(client, uri, lambda: open_doc(client, uri, path.read_text(), "python"))
    finally:
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams({"importTimeout": 120}))
    (d,) = diags
    assert "did not finish within 2 s" in d.message and d.severity == types.DiagnosticSeverity.Error
    diags = await published(client, (workspace / "hover.tools.json").as_uri(), lambda: change(
        client, (workspace / "hover.tools.json").as_uri(), TOOLS + " ", 2))  # still serving
    assert "MCP112" in {x.code for x in diags}


@pytest.mark.asyncio(loop_scope="module")
async def test_ranges_count_utf16_code_units(client, workspace):
    uri = (workspace / "emoji.tools.json").as_uri()
    text = TOOLS.replace('{"readOnlyHint": true, "category"', '{"title": "\U0001F327 rain", "category"')
    diags = await published(client, uri, lambda: open_doc(client, uri, text))
    (cat,) = [d for d in diags if d.code == "MCP112"]
    line = text.split("\n")[14]
    start = line.index('"category"')
    assert rng(cat) == (14, start + 1, 14, start + 1 + len('"category": "weather"'))  # the emoji is 2 units


@pytest.mark.asyncio(loop_scope="module")
async def test_a_python_server_is_linted_on_save_on_its_code_line(client, workspace):
    path = workspace / "quickstart.py"
    shutil.copy(HERE / "pyservers" / "quickstart.py", path)
    uri = path.as_uri()
    diags = await published(client, uri, lambda: open_doc(client, uri, path.read_text(), "python"))
    (d,) = diags  # OpenAI strict (the configuration's profile): the arguments' object is not closed
    assert d.code == "DEC001" and rng(d) == (7, 0, 7, 31) and "additionalProperties" in d.message
    assert [r.message.split(":")[0] for r in d.related_information] == ["profile openai-strict; MCP 2025-11-25"]
    new = path.read_text().replace("def add(a: int, b: int)", "def add(a: int, b: int, c: int = 0)")
    change(client, uri, new, 2)  # not linted as it is typed (that would import it): only on save
    path.write_text(new)
    diags = await published(client, uri, lambda: client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))))
    assert sorted(rng(x)[:2] for x in diags) == [(7, 0), (7, 24), (7, 24)]  # the function; the argument `c`
    assert any("'c' is optional" in x.message for x in diags)


def test_the_vscode_extension_sends_only_settings_the_server_reads():
    import json
    import re

    ext = HERE.parent / "editors" / "vscode"
    settings = json.loads((ext / "package.json").read_text())["contributes"]["configuration"]["properties"]
    sent = set(re.findall(r"^\s+(\w+): ", (ext / "src" / "extension.ts").read_text().split("initializationOptions")[1]
                          .split("}")[0], re.M))
    server = (HERE.parent / "mcplint" / "lsp" / "server.py").read_text() + (
        HERE.parent / "mcplint" / "lsp" / "actions.py").read_text()
    read = set(re.findall(r"settings\.get\(\"(\w+)\"", server))
    assert sent == {name.split(".", 1)[1] for name in settings} == read - {"debounce"}


def test_a_finding_on_the_whole_document_stands_on_its_first_line():
    from mcplint.config import Config
    from mcplint.lsp import analysis

    text = (HERE.parent / "examples" / "weather-server.tools.json").read_text()
    _, findings = analysis.lint_text("w.tools.json", text, "json", Config())
    (root,) = [d for d in analysis.diagnostics("w.tools.json", text, findings) if d.rule == "MCP128"]
    assert root.range == (0, 0, 0, 1)  # "{", not lines 1 to 54 (under every other finding and hover)
    (cat,) = [d for d in analysis.diagnostics("w.tools.json", text, findings) if d.rule == "MCP112"]
    assert cat.range == (31, 70, 31, 91)  # a member keeps its exact range
