"""Input stays data in every output: hostile strings in every field a report prints (a tool's
name, a property key inside a pointer, an enum member and a format quoted in messages, a file
path, an input error, a server's stderr, a configuration's suppress entry, a ``--from`` server's
label) run through every format, the Action and the hooks, and the output must parse as
mcplint's own lines only:

* a CI log (GitHub Actions): every line that starts with ``::`` (after blanks) is a workflow
  command mcplint wrote, well formed, and no line holds ``##[`` (the legacy form, read anywhere
  in a line);
* a terminal: no control character, C1 control, line separator or bidirectional control of the
  input (with ``--color``, only the SGR colour codes rich writes), and rich markup printed as
  written;
* a Markdown summary: no raw ``<`` (but mcplint's ``<details>``), ``](`` or autolinked URL of the
  input outside code spans, and every table row has the header's cells;
* JSON and SARIF: the same data, with nothing a log or a terminal would act on.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import fake_action_runner
from mcplint import precommit
from mcplint.cli import main
from mcplint.textsafe import inline

# One string per class of attack; every field gets them all.
CLASSES = {
    "workflow": "w\n::warning file=README.md,line=1,title=Security::Your token leaked - rotate it\n::add-mask::Found",
    "carriage": "c\r::error::after a carriage return",
    "legacy": " l ##[error]legacy form mid-line ##[add-mask]x",
    "terminal": " t \x1b]8;;https://evil.example/\x07click\x1b]8;;\x07 \x1b]0;title\x07 \x1b[2J \x1b[8m"
                " \x9b31m \u202eevil \u2028 \x85 \x00 \x7f",
    "markdown": ' m <img src="https://evil.example/p.png"> [Approve this PR](https://evil.example/) '
                "![i](https://evil.example/i.png) www.evil.example ``` `` ` \\| | <script>x</script>",
    "rich": " [bold red]markup[/bold red] [link=https://evil.example/]l[/link]",
}
PAYLOAD = "".join(CLASSES.values())
START = "::error::starts the line " + PAYLOAD  # for fields that may begin a line (a file path)
# a file name holds anything but / and NUL, in 255 bytes
FILE_PAYLOAD = ("::error::f\n::add-mask::x\r ##[error]y \x1b]0;t\x07\x1b[2J\x9b1m\u202e <img src=x>"
                " [a](https:__evil.example) www.evil.example `` | [bold]b[_bold]")

CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
SGR = re.compile("\x1b\\[[0-9;]*m")  # the colour codes rich writes, the only escapes allowed
COMMAND = re.compile(r"::(error|warning|notice|group|endgroup)( [^:]*)?::(.*)")
PROPERTIES = {"file", "line", "col", "endLine", "endColumn", "title"}


def _unescape_property(value: str) -> str:
    return value.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r") \
        .replace("%25", "%")


def assert_log_safe(text: str, commands: bool = False, files: tuple = ()) -> None:
    """``text`` printed to a CI log or a terminal acts as mcplint's lines only. ``commands``: the
    workflow commands mcplint writes are allowed (each well formed, its ``file`` one of ``files``)."""
    assert "##[" not in text
    for line in text.split("\n"):
        plain = SGR.sub("", line)
        assert not CONTROL.search(plain), repr(line)
        if not plain.lstrip().startswith("::"):
            continue
        assert commands, f"a line of input origin read as a workflow command: {line!r}"
        m = COMMAND.fullmatch(plain)
        assert m, f"not a command mcplint writes: {line!r}"
        for prop in filter(None, (m.group(2) or "").strip().split(",")):
            key, _, value = prop.partition("=")
            assert key in PROPERTIES, f"a property of input origin: {prop!r} in {line!r}"
            if key == "file":  # one of the files, its name shown as escapes where it has control characters
                assert _unescape_property(value).removeprefix("./") in {inline(f, False) for f in files}, value


def _code_spans_removed(line: str) -> str:
    """The line with its code spans cut out (a run of n backticks to the next run of exactly n;
    a backslash-escaped backtick opens none)."""
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\":
            out.append(line[i:i + 2])
            i += 2
            continue
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            close = re.compile(f"(?<!`)`{{{j - i}}}(?!`)").search(line, j)
            if close:
                out.append(" <code> ")
                i = close.end()
                continue
            out.append(line[i:j])
            i = j
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


def _cells(row: str) -> int:
    """The cells of a GitHub table row (a pipe preceded by a backslash is part of a cell)."""
    return len(re.findall(r"(?<!\\)\|", row)) - 1


def assert_markdown_inert(text: str) -> None:
    assert_log_safe(text)  # (a summary is also printed in logs)
    header = None
    for line in text.split("\n"):
        outside = _code_spans_removed(line).replace(" <code> ", " ")
        for tag in ("<details>", "<summary>", "</summary>", "</details>"):
            outside = outside.replace(tag, "")
        assert "<" not in outside, line
        assert "](" not in outside, line
        assert "://evil" not in outside and "www.evil" not in outside, line
        if line.startswith("|"):
            header = header if header is not None and not line.startswith("| Rule |") \
                and not line.startswith("| Tool |") else _cells(line)
            assert _cells(line) == header, line
        else:
            header = None


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A directory with a tools file whose every printed field is hostile, under a hostile file
    name, an unreadable file with a hostile name, and a config whose suppress entry is hostile."""
    root = tmp_path_factory.mktemp("hostile")
    tools = {"tools": [{
        "name": PAYLOAD, "description": PAYLOAD,
        "inputSchema": {"type": "object", "properties": {
            PAYLOAD: {"type": "string"},
            "n": {"type": "integer", "enum": [PAYLOAD]},
            "f": {"type": "string", "format": PAYLOAD},
            "r": {"$ref": "#/$defs/" + PAYLOAD},
        }}}]}
    good = root / (FILE_PAYLOAD + ".tools.json")
    good.write_text(json.dumps(tools), encoding="utf-8")
    bad = root / (FILE_PAYLOAD + ".broken.json")
    bad.write_text('{"tools": [', encoding="utf-8")
    config = root / ".mcplint.yaml"
    config.write_text(json.dumps({"suppress": [{"rule": "SCH101", "pointer": "/" + PAYLOAD}]}), encoding="utf-8")
    return root, str(good), str(bad), str(config)


def test_the_fixture_puts_input_in_every_field_a_report_prints(hostile):
    """The findings really quote the hostile text (else the checks below prove nothing)."""
    from mcplint.config import Config
    from mcplint.engine import lint_paths

    _, good, bad, _ = hostile
    result = lint_paths([good, bad], Config(profiles=("openai-strict",)))
    assert result.errors and PAYLOAD.replace("/", "_") not in str(result.errors[0])
    assert FILE_PAYLOAD in result.errors[0].origin
    assert any(f.tool == PAYLOAD for f in result.findings)
    assert any(PAYLOAD in f.message for f in result.findings)  # raw, in a message (the format's value)
    assert any(PAYLOAD.replace("~", "~0").replace("/", "~1") in str(f.pointer) for f in result.findings)
    assert any(json.dumps(PAYLOAD, ensure_ascii=False)[1:20] in f.message for f in result.findings)  # the enum


FORMATS = ["text", "full", "concise", "github", "markdown", "json", "sarif"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("color", [False, True])
def test_every_format_prints_input_as_data(hostile, fmt, color):
    root, good, bad, config = hostile
    args = ["scan", "--config", config, "--profile", "openai-strict", "--format", fmt, good]
    res = CliRunner().invoke(main, args + (["--color"] if color else ["--no-color"]))
    assert res.exit_code == 1, res.output
    out, err = res.stdout, res.stderr
    assert "suppress entry 1" in err and "add-mask" in err  # the config's entry, quoted as data
    assert_log_safe(err)
    if fmt in ("json", "sarif"):
        assert_log_safe(out)
        data = json.loads(out)
        if fmt == "json":  # the same data: the names as the file has them
            assert {f["tool"] for f in data["findings"]} - {None} == {PAYLOAD}
            assert {f["file"] for f in data["findings"]} == {good}
        else:
            texts = [r["message"]["text"] for r in data["runs"][0]["results"]]
            assert any(PAYLOAD in t for t in texts)
        return
    if fmt == "markdown":
        assert_markdown_inert(out)
        assert "## mcplint" in out and "Approve this PR" in out
        return
    assert_log_safe(out, commands=fmt == "github", files=(good,))
    if fmt == "github":
        assert len(out.splitlines()) == out.count("\n::") + 1 > 3  # one command a line
    if fmt in ("text", "full"):
        assert "[bold red]markup[/bold red]" in SGR.sub("", out)  # rich markup printed as written
        assert "\\x1b]8;;https://evil.example/\\x07" in out  # the escape shown, not run
    if color and fmt in ("text", "full"):
        assert SGR.search(out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_input_error_prints_its_file_as_data(hostile, fmt):
    """An unreadable file with a hostile name: its error on stderr and in the format's errors."""
    root, good, bad, config = hostile
    res = CliRunner().invoke(main, ["scan", "--no-config", "--format", fmt, bad])
    assert res.exit_code == 2, res.output
    assert "unexpected end of file" in res.stderr and "add-mask" in res.stderr
    assert len(res.stderr.splitlines()) == 1  # the file's name does not break the line
    assert_log_safe(res.stderr)
    if fmt == "markdown":
        assert_markdown_inert(res.stdout)
    elif fmt in ("json", "sarif"):
        assert_log_safe(res.stdout)
        assert FILE_PAYLOAD in res.stdout.encode().decode("unicode_escape", "ignore") or json.loads(res.stdout)
    else:
        assert_log_safe(res.stdout, commands=fmt == "github", files=(bad,))


def test_statistics_print_a_hostile_profile_as_data(tmp_path, hostile):
    """A decoder profile given as a path is input too: its name in the statistics."""
    root, good, _, _ = hostile
    import shutil

    prof = tmp_path / ("p" + FILE_PAYLOAD[:60] + ".yaml")
    shutil.copy(Path(__file__).resolve().parent.parent / "profiles" / "openai-strict.yaml", prof)
    for fmt in ("text", "json"):
        res = CliRunner().invoke(main, ["scan", "--no-config", "--statistics", "--output-format", fmt,
                                        "--profile", str(prof), good])
        assert res.exit_code == 1, res.output
        assert_log_safe(res.stdout)
        assert_log_safe(res.stderr)


def test_the_code_frame_shows_the_files_control_characters_as_escapes(tmp_path):
    """A line of the file itself (a JSON string may hold raw C1 controls, DEL and bidirectional
    controls) is input as well; the caret still points at the finding's column, past the escapes."""
    path = tmp_path / "t.tools.json"
    path.write_text('{"tools": [{"name": "a", "description": "\x9b2J \x7f \u202e ##[x", '
                    '"inputSchema": {"type": "objec"}}]}\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["scan", "--no-config", "--no-color", str(path)])
    assert_log_safe(res.stdout)
    frame = res.stdout.splitlines()
    at = next(i for i, line in enumerate(frame) if "> 1 |" in line and i + 1 < len(frame) and "^" in frame[i + 1]
              and frame[i + 1].index("^") > 20)
    assert "\\x9b2J \\x7f \\u202e #\\x23[x" in frame[at]
    assert frame[at + 1].index("^") == frame[at].index('"type"')  # (MCP106: at the root's type)


def test_a_servers_stderr_in_a_probe_error_is_data(tmp_path):
    """The last lines of a server's stderr, quoted when it cannot be probed: in every format's
    errors and on stderr, through the CLI and the probe hook."""
    script = tmp_path / "srv.py"
    script.write_text(f"import sys\nsys.stderr.write({PAYLOAD!r} + '\\n' + {START!r})\nsys.exit(3)\n")
    cmd = [sys.executable, str(script)]
    for fmt in ("text", "github", "markdown", "json"):
        res = CliRunner().invoke(main, ["probe", "--no-config", "--timeout", "20", "--format", fmt, "--", *cmd])
        assert res.exit_code == 2, res.output
        assert "stderr" in res.stderr and "add-mask" in res.stderr  # quoted, as data
        assert_log_safe(res.stderr)
        if fmt == "markdown":
            assert_markdown_inert(res.stdout)
        else:
            assert_log_safe(res.stdout, commands=fmt == "github", files=())


def test_the_probe_hook_prints_a_servers_stderr_as_data(tmp_path, capsys):
    script = tmp_path / "srv.py"
    script.write_text(f"import sys\nsys.stderr.write({START!r})\nsys.exit(3)\n")
    code = precommit.main(["--save", str(tmp_path / "snap.json"), "--no-config", "--", sys.executable, str(script)])
    assert code == 2
    out = capsys.readouterr()
    assert "add-mask" in out.err
    assert_log_safe(out.out)
    assert_log_safe(out.err)


def test_probe_from_prints_a_servers_label_as_data(tmp_path):
    """A server's name in a client's configuration (``probe --from``) is input: in the errors, on
    stderr and in every format."""
    conf = tmp_path / ".mcp.json"
    conf.write_text(json.dumps({"mcpServers": {START: {"command": str(tmp_path / "no-such-server")}}}),
                    encoding="utf-8")
    for fmt in ("text", "concise", "github", "markdown", "json"):
        res = CliRunner().invoke(main, ["probe", "--no-config", "--from", str(conf), "--format", fmt])
        assert res.exit_code == 2, res.output
        assert_log_safe(res.stderr)
        if fmt == "markdown":
            assert_markdown_inert(res.stdout)
        else:
            assert_log_safe(res.stdout, commands=fmt == "github", files=(str(conf),))


@pytest.fixture
def workspace(tmp_path, monkeypatch, hostile):
    """A fake runner's workspace holding the hostile files; ``run(**inputs)`` runs the Action's logic."""
    import shutil

    root, good, bad, config = hostile
    ws = tmp_path / "ws"
    ws.mkdir()
    for p in (good, bad, config):
        shutil.copy(p, ws / Path(p).name)
    monkeypatch.chdir(ws)
    run, files = fake_action_runner(tmp_path, monkeypatch)
    return run, files, ws


def test_the_action_prints_input_as_data(workspace, hostile, capsys):
    """Annotations, the notes (a suppress entry of the repository's config) and the Markdown
    summary of the Action, with hostile files, tool names and config."""
    run, files, ws = workspace
    root, good, bad, config = hostile
    names = tuple(p.name for p in ws.iterdir())
    import shlex

    assert run(paths=shlex.quote(Path(good).name), profiles="openai-strict", sarif="out.sarif") == 1
    out = capsys.readouterr().out
    assert_log_safe(out, commands=True, files=names)
    assert "::warning title=mcplint::suppress entry 1" in out
    # (a notice: the file names no protocol version, and the name rule is 2025-11-25's on)
    assert any(line.startswith(("::warning file=", "::notice file=")) and "tool-name" in line
               for line in out.splitlines())
    summary = files["summary"].read_text(encoding="utf-8")
    assert_markdown_inert(summary)
    assert "Approve this PR" in summary  # shown, as text
    sarif = json.loads((ws / "out.sarif").read_text(encoding="utf-8"))
    assert any(PAYLOAD in r["message"]["text"] for r in sarif["runs"][0]["results"])
    files["summary"].unlink()
    assert run(paths=".", sarif="") == 2  # and the file that cannot be read
    out = capsys.readouterr().out
    assert_log_safe(out, commands=True, files=names)
    assert "unexpected end of file" in out
    assert_markdown_inert(files["summary"].read_text(encoding="utf-8"))


def test_the_action_prints_a_refused_config_as_data(workspace, capsys):
    """A configuration error quoting the repository's config is printed in one command and the summary."""
    run, files, ws = workspace
    (ws / ".mcplint.yaml").write_text(json.dumps({"select": [PAYLOAD]}), encoding="utf-8")
    assert run(paths=".") == 2
    assert_log_safe(capsys.readouterr().out, commands=True)
    assert_markdown_inert(files["summary"].read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", list(CLASSES.values()) + [START, "", "plain_name", "a`b", "x\\|y"])
def test_the_escapes_are_idempotent_and_keep_ordinary_text(text):
    from mcplint import textsafe

    for f in (textsafe.inline, textsafe.lines, textsafe.md_code, textsafe.md_text):
        once = f(text)
        assert not CONTROL.search(once.replace("\n", "") if f is textsafe.lines else once)
    for f in (textsafe.inline, textsafe.lines):
        assert f(f(text)) == f(text)
    if text.isascii() and text.isprintable() and "##[" not in text and not text.startswith("::"):
        assert textsafe.inline(text) == textsafe.lines(text) == text
    assert json.loads(textsafe.json_text(json.dumps(text, ensure_ascii=False))) == text


def test_a_code_span_holds_any_run_of_backticks():
    from mcplint.textsafe import md_code

    for text in ("a", "a`b", "``x``", "` lead", "trail `", "a ```` b"):
        span = md_code(text)
        fence = re.match("`+", span).group()
        assert span.endswith(fence) and fence not in span[len(fence):-len(fence)].replace("`" * (len(fence) + 1), "")
        assert _code_spans_removed(span).strip() == "<code>"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_the_other_commands_print_input_as_data(tmp_path, hostile):
    """``diff``, ``validate``, ``scan --diff`` and a usage error quoting a configuration's server names:
    the input they quote stays data, in text and JSON."""
    root, good, _, _ = hostile
    old = {"tools": [{"name": PAYLOAD, "inputSchema": {"type": "object", "properties": {PAYLOAD: {"type": "string"}}}}]}
    new = {"tools": [{"name": PAYLOAD, "inputSchema": {"type": "object", "properties": {PAYLOAD: {"type": "integer"}},
                                                       "required": [PAYLOAD]}}]}
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    (tmp_path / "args.json").write_text(json.dumps({PAYLOAD: PAYLOAD}), encoding="utf-8")
    runs = [(["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json")], 1),
            (["validate", str(tmp_path / "new.json"), "--arguments", str(tmp_path / "args.json")], 1),
            (["scan", "--no-config", "--diff", "--protocol-version", "2026-07-28", "--select", "MCP128", good], 1)]
    for args, code in runs:
        for fmt in ([] if args[0] == "scan" else ["json"]) + ["text"]:
            res = CliRunner().invoke(main, args + (["--format", fmt] if args[0] != "scan" else []))
            assert res.exit_code == code, (args, res.output)
            assert_log_safe(res.stdout)
            assert_log_safe(res.stderr)
            if fmt == "json":
                assert any(PAYLOAD in text for text in _strings(json.loads(res.stdout))), args  # the same data
    conf = tmp_path / ".mcp.json"
    conf.write_text(json.dumps({"mcpServers": {START: {"command": "x"}}}), encoding="utf-8")
    res = CliRunner().invoke(main, ["probe", "--no-config", "--from", str(conf), "--server", "other"])
    assert res.exit_code == 2 and "no server named" in res.stderr
    assert_log_safe(res.stderr)


def test_a_profile_files_text_is_printed_as_data(tmp_path):
    """``mcplint profile FILE`` shows a profile someone else wrote: its title and summary are input."""
    import yaml

    src = Path(__file__).resolve().parent.parent / "profiles" / "openai-strict.yaml"
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    data.update(title="T " + PAYLOAD.replace("\x00", ""), summary="S " + PAYLOAD.replace("\x00", ""))
    prof = tmp_path / "mine.yaml"
    prof.write_text(json.dumps(data), encoding="utf-8")
    for fmt in ("text", "json"):
        res = CliRunner().invoke(main, ["profile", str(prof), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert "add-mask" in res.stdout  # shown, as text
        assert_log_safe(res.stdout)


def test_two_segments_of_a_text_line_cannot_make_a_command_together():
    """The text report escapes each segment, and then the line they make: a blank segment before
    one that starts with ``::``, or ``##`` ending one segment and ``[`` starting the next."""
    from mcplint.report.text import _inert

    lines = list(_inert([[("  ", ""), ("::x", "bold")], [("a ##", "dim"), ("[y", "bold")], [("ok", "dim"), (" [*]", "")]]))
    for line in lines:
        assert_log_safe("".join(t for t, _ in line))
    assert lines[2] == [("ok", "dim"), (" [*]", "")]  # ordinary lines keep their styles


def test_a_probed_servers_tool_names_are_data(tmp_path):
    """A live server chooses its tools' names (``probe -- CMD``, ``probe --url``): the probe's report in
    every format, with the capture not saved (the annotations then name no file)."""
    servers = Path(__file__).resolve().parent / "probe_servers"
    script = tmp_path / "hostile_server.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(servers)!r})\nimport stdio_server as s\n"
                      f"s.SEARCH['name'] = {PAYLOAD!r}\ns.SEARCH['inputSchema']['properties'] = {{{PAYLOAD!r}: "
                      "{'type': 'strin'}}\nsys.argv[1:] = ['--legacy', '2025-11-25']\ns.main()\n", encoding="utf-8")
    for fmt in ("text", "concise", "github", "markdown", "json", "sarif"):
        res = CliRunner().invoke(main, ["probe", "--no-config", "--protocol-version", "2025-11-25", "--format", fmt,
                                        "--", sys.executable, str(script)])
        assert res.exit_code == 1, res.output
        assert_log_safe(res.stderr)
        if fmt == "markdown":
            assert_markdown_inert(res.stdout)
        elif fmt in ("json", "sarif"):
            assert_log_safe(res.stdout)
            assert any(PAYLOAD in text for text in _strings(json.loads(res.stdout)))
        else:
            assert_log_safe(res.stdout, commands=fmt == "github", files=())
            assert "add-mask" in res.stdout
