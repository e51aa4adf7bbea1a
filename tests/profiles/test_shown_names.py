"""Clients that show the model a name of their own for each tool (mcp_<server>_<tool>): the cut
is reported on that name when the server's name is known, and characters the client replaces are
not reported at all (it maps the call back).

The gemini-cli names below are what ``generateValidName`` of @google/gemini-cli-core 0.61.0
(npm, dist/src/tools/mcp-tool.js) returned for ``${server}_${tool}``, run under node 20 on
2026-12-03; Codex's are what @openai/codex 0.171.0 showed the model when run here on 2026-12-07
(tests/data/codex/record.json, names): mcp__<server>__<tool> kept whole up to 128 characters."""

from __future__ import annotations

import json

import pytest

from mcplint.probe.snapshot import snapshot_text
from mcplint.capture import capture_collections
from mcplint.config import Config, load_config
from mcplint.engine import lint_document
from mcplint.errors import ConfigError
from mcplint.load import load_text
from tests.conftest import lint_json

LONG = "a_very_long_tool_name_that_goes_on_and_on_and_on_beyond_sixty_four_chars"  # 72
FIFTY_FIVE = "fifty_five_characters_long_tool_name_xxxxxxxxxxxxxxxxxx"
MIDDLING = "manage_agentcore_runtime_configuration"  # 38

# (server, tool) -> the name gemini-cli shows, as the package computed it
GEMINI_CLI_SHOWN = {
    ("aws-bedrock-agentcore", FIFTY_FIVE): "mcp_aws-bedrock-agentcore_fift...g_tool_name_xxxxxxxxxxxxxxxxxx",
    ("aws-bedrock-agentcore", MIDDLING): "mcp_aws-bedrock-agentcore_mana...gentcore_runtime_configuration",
    ("x", "a" * 58): "mcp_x_aaaaaaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
}
GEMINI_CLI_KEPT = [("x", "a" * 57), ("x", "get.weather"), ("aws", MIDDLING)]  # shown whole (mcp_x_get.weather, ...)


def _tools(*names):
    return {"tools": [{"name": n, "description": "d",
                       "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False}}
                      for n in names]}


def _names(findings, profile):
    return {f.tool: f for f in findings if f.rule == "DEC007" and f.profile == profile}


@pytest.mark.parametrize(("server", "tool"), sorted(GEMINI_CLI_SHOWN))
def test_gemini_cli_reports_the_cut_name_it_shows(server, tool):
    got = _names(lint_json(_tools(tool), profiles=["gemini-cli"], select=["DEC"], **{"server-name": server}),
                 "gemini-cli")
    assert tool in got, got
    f = got[tool]
    assert f"'{GEMINI_CLI_SHOWN[server, tool]}'" in f.message
    assert f.severity.name == "WARNING" and f.consequence == "rewrite"
    assert str(f.pointer) == "/tools/0/name"


@pytest.mark.parametrize(("server", "tool"), GEMINI_CLI_KEPT)
def test_gemini_cli_name_that_fits_is_not_reported(server, tool):
    assert not _names(lint_json(_tools(tool), profiles=["gemini-cli"], select=["DEC"], **{"server-name": server}),
                      "gemini-cli")


def test_without_the_server_name_only_names_cut_whatever_it_is_called_are_reported():
    findings = lint_json(_tools("a" * 57, "a" * 58, MIDDLING, "get weather", "a" * 120, "a" * 121, "a" * 122),
                         profiles=["gemini-cli", "codex-cli"], select=["DEC"])
    assert set(_names(findings, "gemini-cli")) == {"a" * 58, "a" * 120, "a" * 121, "a" * 122}
    assert set(_names(findings, "codex-cli")) == {"a" * 121, "a" * 122}  # mcp__ + one character + __ + 121 = 129
    assert all("whatever the server is called" in f.message for f in findings if f.rule == "DEC007")


def test_codex_names_its_tools_so_no_name_fails_its_request():
    over = "x" * 129
    findings = lint_json(_tools("get.weather", "set alert", LONG, over), profiles=["codex-cli"], select=["DEC"])
    assert not [f for f in findings if f.consequence == "reject"], [f.message for f in findings]
    got = _names(findings, "codex-cli")
    assert set(got) == {over}  # LONG (72) is shown whole: mcp__<server>__ + 72 fits in 128
    assert got[over].severity.name == "INFO" and got[over].consequence == "annotation"
    # the same names straight to the OpenAI API: the dot fails it, and so does a name over 128
    # characters; one of 72 is past only the documented 64 (information)
    direct = _names(lint_json(_tools("get.weather", LONG, over), profiles=["openai-api"], select=["DEC"]),
                    "openai-api")
    assert set(direct) == {"get.weather", LONG, over}
    assert direct["get.weather"].consequence == direct[over].consequence == "reject"
    assert direct[LONG].consequence == "annotation" and direct[LONG].severity.name == "INFO"


def test_codex_cut_depends_on_the_server_name():
    # mcp__ + 21 + __ + 101 = 129 > 128; with a three-letter server, 111
    tool = MIDDLING + "_" + "x" * 62
    long_server = _names(lint_json(_tools(tool), profiles=["codex-cli"], select=["DEC"],
                                   **{"server-name": "aws-bedrock-agentcore"}), "codex-cli")
    assert tool in long_server
    # cut as Codex cut mcp__<70 k>__<70 t> (the record): the name up to 128 less _ and a 12-digit hash
    assert f"'mcp__aws_bedrock_agentcore__{tool[:87]}...<hash>'" in long_server[tool].message
    assert not _names(lint_json(_tools(tool), profiles=["codex-cli"], select=["DEC"], **{"server-name": "aws"}),
                      "codex-cli")
    # what Codex 0.171.0 showed for a 38-character name under a 21-character server: the whole name
    assert not _names(lint_json(_tools(MIDDLING), profiles=["codex-cli"], select=["DEC"],
                                **{"server-name": "aws-bedrock-agentcore"}), "codex-cli")


def test_a_capture_keeps_the_server_name_for_a_later_scan():
    transcript = {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": _tools(MIDDLING)}}]}
    text = snapshot_text({"2025-06-18": transcript}, "node server.js", server_name="aws-bedrock-agentcore")
    assert json.loads(text)["serverName"] == "aws-bedrock-agentcore"
    doc = load_text(text, "capture.json", "json")
    _, findings = lint_document(doc, Config(profiles=("gemini-cli",), select=("DEC",)))
    assert [c.server_name for c in capture_collections(doc, ())] == ["aws-bedrock-agentcore"]
    assert [f.tool for f in findings if f.rule == "DEC007"] == [MIDDLING]
    # the same capture without the name: 38 characters are cut by no client whatever the server is called
    bare = load_text(snapshot_text({"2025-06-18": transcript}, "node server.js"), "capture.json", "json")
    assert "serverName" not in bare.data
    assert not [f for f in lint_document(bare, Config(profiles=("gemini-cli",), select=("DEC",)))[1]
                if f.rule == "DEC007"]


def test_server_name_in_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".mcplint.yaml").write_text("server-name: github\n")
    assert load_config(None).server_name == "github"
    (tmp_path / ".mcplint.yaml").write_text("profiles: [gemini-cli]\nserver-name: 7\n")
    with pytest.raises(ConfigError) as e:
        load_config(None)
    assert "server-name" in str(e.value) and ":2:" in str(e.value)


def test_server_name_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from mcplint.cli import main

    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_tools(MIDDLING)))
    args = ["scan", "--no-config", str(path), "--profile", "gemini-cli", "--select", "DEC", "--output-format", "concise"]
    named = CliRunner().invoke(main, [*args, "--server-name", "aws-bedrock-agentcore"])
    assert named.exit_code == 0 and "mcp_aws-bedrock-agentcore_mana...gentcore_runtime_configuration" in named.stdout
    assert "DEC007" not in CliRunner().invoke(main, args).stdout
    empty = CliRunner().invoke(main, [*args, "--server-name", " "])
    assert empty.exit_code == 2 and "--server-name" in empty.stderr


# Cursor counts the server's key and the tool's name together and leaves the tool out at 60:
# "g: GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER – Combined server and tool name
# length (60) exceeds 60 characters" (github.com/ComposioHQ/composio/issues/2788), and awslabs'
# research tools behind the key its README suggests (github.com/awslabs/mcp/issues/1283).
@pytest.mark.parametrize(("server", "tool", "left_out"), [
    ("g", "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER", True),  # 60
    ("g", "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTE", False),  # 59
    ("awslabs.git-repo-research-mcp-server", "search_research_repository", True),  # 62
    ("git-research", "search_research_repository", False),  # 38
])
def test_cursor_leaves_out_a_tool_when_server_and_tool_names_reach_60(server, tool, left_out):
    got = _names(lint_json(_tools(tool), profiles=["cursor"], select=["DEC"], **{"server-name": server}), "cursor")
    assert (tool in got) is left_out, got
    if left_out:
        f = got[tool]
        assert f.consequence == "drop" and f.severity.name == "ERROR"
        assert f"({len(server) + len(tool)}) exceeds 60 characters" in f.message
        assert f.message.startswith("Cursor leaves this tool out")


def test_cursor_without_the_server_name_reports_what_no_server_name_saves():
    got = _names(lint_json(_tools("a" * 58, "a" * 59, "search_research_repository"), profiles=["cursor"],
                           select=["DEC"]), "cursor")
    assert set(got) == {"a" * 59}


# Claude Code sends mcp__<server>__<tool> (normalizeMcpServerName: a-zA-Z0-9_- kept) and the Claude API
# refuses a name over 128 characters, failing every request (anthropics/claude-code#96152).
BILLING = "awslabs.billing-cost-management-mcp-server"  # 42: mcp__ + 42 + __ = 49


@pytest.mark.parametrize(("server", "length", "fails"), [
    (BILLING, 79, False),  # 128
    (BILLING, 80, True),  # 129
    (None, 120, False),  # 128 behind a one-letter server
    (None, 121, True),
])
def test_claude_code_judges_the_name_it_sends(server, length, fails):
    tool = "t" * length
    settings = {"server-name": server} if server else {}
    got = _names(lint_json(_tools(tool), profiles=["claude-code"], select=["DEC"], **settings), "claude-code")
    assert (tool in got) is fails, got
    if fails:
        f = got[tool]
        assert f.consequence == "reject" and f.severity.name == "ERROR"
        assert "String should have at most 128 characters" in f.message
        if server:
            assert "mcp__awslabs.billing-cost-management-mcp-server__<name>, 129 characters" in f.message


def test_claude_code_replaces_characters_instead_of_failing():
    findings = lint_json(_tools("get.weather", "set alert"), profiles=["claude-code", "anthropic-strict"],
                         select=["DEC007"], **{"server-name": "my server"})
    # the strict API rule on characters is the Claude API's own (a direct client); Claude Code never trips it
    assert {f.profile for f in findings} == {"anthropic-strict"}


def test_a_user_profile_naming_tools_needs_the_length_it_cuts_at(tmp_path):
    from mcplint.profiles import load_profile

    head = ("id: my-client\nextends: anthropic-api\ntitle: My client\ndisplay: My client\nkind: client\n"
            "summary: names tools mcp_<server>_<tool>\n"
            "source: {url: 'https://example.com/docs', seen: '2026-12-03', confidence: high, tag: D}\n")
    path = tmp_path / "client.yaml"
    path.write_text(head + "tool_name:\n  pattern: '^.{1,50}$'\n  shown_as: 'mcp_{server}_{tool}'\n")
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert "client.yaml:10:3:" in str(e.value) and "max_shown" in str(e.value), str(e.value)
    path.write_text(head + "tool_name:\n  pattern: '^.{1,50}$'\n  shown_as: 'mcp_{server}_{tool}'\n"
                    "  max_shown: 60\n  action: reject\n")
    findings = lint_json(_tools("t" * 52, "u" * 53), profiles=[str(path)], select=["DEC"], **{"server-name": "abc"})
    assert set(_names(findings, "my-client")) == {"u" * 53}  # mcp_abc_ + 53 = 61; + 52 = 60 fits


# gemini-cli keeps one tool per name it shows, the later (registerTool: "Tool with name ... is already
# registered. Overwriting."). generateValidName("github-enterprise_" + t) gave, for the three list_*
# names, "mcp_github-enterprise_list_pul...view_comments_for_a_repository" each, and
# "mcp_github-enterprise_get_weather" for both "get weather" and "get_weather" (node, 0.61.0).
COLLIDING = ["get weather", "get_weather", "get.weather",
             "list_pull_aaaa_request_review_comments_for_a_repository",
             "list_pull_bbbb_request_review_comments_for_a_repository",
             "list_pull_request_review_comments_for_a_repository"]


def _left_out(findings, profile="gemini-cli"):
    return {f.tool: f for f in findings if f.rule == "DEC007" and f.profile == profile and f.consequence == "drop"}


def test_gemini_cli_two_tools_under_one_name_the_earlier_is_left_out():
    named = _left_out(lint_json(_tools(*COLLIDING), profiles=["gemini-cli"], select=["DEC"],
                                **{"server-name": "github-enterprise"}))
    assert set(named) == {"get weather", COLLIDING[3], COLLIDING[4]}  # get.weather keeps its dot
    f = named["get weather"]
    assert "'mcp_github-enterprise_get_weather'" in f.message and "'get_weather'" in f.message
    assert f.severity.name == "ERROR" and str(f.pointer) == "/tools/0/name"
    assert "'mcp_github-enterprise_list_pul...view_comments_for_a_repository'" in named[COLLIDING[3]].message
    # a tool left out is not also reported as renamed; the one kept still is
    cut = [f for f in lint_json(_tools(*COLLIDING), profiles=["gemini-cli"], select=["DEC007"],
                                **{"server-name": "github-enterprise"}) if f.consequence == "rewrite"]
    assert [f.tool for f in cut] == [COLLIDING[5]]


def test_gemini_cli_collisions_without_the_server_name_are_those_of_any_name():
    bare = _left_out(lint_json(_tools(*COLLIDING), profiles=["gemini-cli"], select=["DEC"]))
    assert set(bare) == {"get weather"}  # the cut ones depend on the server's name
    assert "'mcp_<server>_get_weather'" in bare["get weather"].message
    assert not _left_out(lint_json(_tools("get weather", "get.weather"), profiles=["gemini-cli"], select=["DEC"]))
    # Codex gives colliding names a hash instead (codex-rs/codex-mcp/src/tools.rs): nothing is left out
    assert not _left_out(lint_json(_tools(*COLLIDING), profiles=["codex-cli"], select=["DEC"],
                                   **{"server-name": "github-enterprise"}), "codex-cli")


def test_a_capture_with_a_server_name_that_is_not_one_is_a_located_error(tmp_path):
    from click.testing import CliRunner

    from mcplint.cli import main

    path = tmp_path / "capture.json"
    path.write_text('{\n  "mcplintCapture": 1,\n  "server": "x",\n  "serverName": 5,\n  "captures": []\n}\n')
    r = CliRunner().invoke(main, ["scan", "--no-config", str(path)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"{path}:4:3: input error" in r.stderr and '"serverName" must be' in r.stderr
