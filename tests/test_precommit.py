"""The pre-commit hooks: the hook file's shape, the probe hook's wiring, and a real
``pre-commit try-repo`` run against this repository (slow: it builds the hook's venv)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml

from conftest import _git, hook_repo  # noqa: F401 (shared with the Python-server tests)
from mcplint import precommit

ROOT = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
BAD = '{"tools": [{"name": "search",\n  "inputSchema": {"type": "object", "type": "object"}}]}\n'
GOOD = '{"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}\n'


def hook(hook_id: str) -> dict:
    return next(h for h in HOOKS if h["id"] == hook_id)


@pytest.mark.parametrize("name,matches", [
    ("tools.json", True), ("mcp/tools.yaml", True), ("servers/weather.tools.json", True),
    ("mcp-tools.yml", True), ("api.mcpdesc.json", True), ("server_tools.yaml", True),
    ("package.json", False), ("devtools.json", False), ("tools.json.bak", False),
    ("tools.schema.json", False), ("tools_v2.json", False), ("mcpdesc.json", False),
    ("server.json", True), ("servers/weather/server.json", True), ("server.yaml", False), ("my-server.json", False),
    ("server.json.bak", False),
    # MCP client configurations, linted by the CFG rules
    (".mcp.json", True), (".vscode/mcp.json", True), ("app/.cursor/mcp.json", True), (".gemini/settings.json", True),
    ("mcp_config.json", True), (".codex/config.toml", True), ("config.toml", False), (".vscode/settings.json", False), ("settings.json", False), ("x.mcp.json.bak", False),
])
def test_scan_hook_file_pattern(name, matches):
    h = hook("mcplint")
    assert h["language"] == "python" and h["types_or"] == ["json", "yaml", "toml"]
    assert h.get("pass_filenames", True) is True
    assert bool(re.search(h["files"], name)) is matches


def test_probe_hook_is_manual_and_takes_no_filenames():
    h = hook("mcplint-probe")
    assert h["stages"] == ["manual"] and h["pass_filenames"] is False and h["always_run"] is True
    assert h["entry"] == "python -m mcplint.precommit"


def test_split_args():
    assert precommit.split_args(["--save", "s.json", "--fail-on", "warning", "--", "node", "srv.js"]) == (
        "s.json", ["--fail-on", "warning"], ["node", "srv.js"])
    assert precommit.split_args(["--", "python", "-m", "srv"]) == ("mcp-tools.json", [], ["python", "-m", "srv"])
    assert precommit.split_args(["--no-config", "--protocol-version", "2025-06-18", "--", "srv"]) == (
        "mcp-tools.json", ["--no-config", "--protocol-version", "2025-06-18"], ["srv"])
    assert precommit.parse(["--no-config", "--protocol-version", "2025-06-18", "--", "srv"]).probe == [
        "--no-config", "--protocol-version", "2025-06-18"]
    for bad in ([], ["--save", "x"], ["--"], ["--save"]):
        with pytest.raises(ValueError):
            precommit.split_args(bad)


# A stand-in with the probe command's interface (`probe --save FILE -- CMD`): it runs CMD
# and saves what it prints, which here is a tools/list result.
@click.command("probe")
@click.option("--save", required=True)
@click.option("--no-config", is_flag=True)  # (the hook hands these to the probe as well as to the scan)
@click.option("--protocol-version", multiple=True)
@click.argument("cmd", nargs=-1, required=True)
def fake_probe(save, cmd, no_config, protocol_version):
    out = subprocess.run(list(cmd), capture_output=True, text=True)
    if out.returncode:
        click.echo(f"server exited {out.returncode}", err=True)
        sys.exit(2)
    Path(save).write_text(out.stdout)
    click.echo("probe report that the hook keeps quiet")


@pytest.fixture
def with_probe(monkeypatch):
    from mcplint import cli

    monkeypatch.setitem(cli.COMMANDS, "probe", (__name__, "fake_probe", "probe"))


def test_probe_hook_probes_then_scans(with_probe, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    server = [sys.executable, "-c", f"print({BAD!r})"]
    assert precommit.main(["--save", "snap.json", "--no-config", "--select", "DOC001", "--format", "json", "--",
                           *server]) == 1
    out = capsys.readouterr().out
    assert "keeps quiet" not in out
    findings = json.loads(out)["findings"]
    assert [(f["rule"], f["file"], f["line"]) for f in findings] == [("DOC001", "snap.json", 2)]
    assert (tmp_path / "snap.json").read_text().strip() == BAD.strip()
    good = [sys.executable, "-c", f"print({GOOD!r})"]
    assert precommit.main(["--no-config", "--select", "DOC001", "--", *good]) == 0  # default snapshot name
    assert (tmp_path / "mcp-tools.json").exists()


def test_probe_hook_reports_a_failed_probe(with_probe, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert precommit.main(["--", sys.executable, "-c", "raise SystemExit(3)"]) == 2
    err = capsys.readouterr().err
    assert "server exited 3" in err and "failed (exit 2)" in err


def test_probe_hook_without_probe_command(monkeypatch, capsys):
    from mcplint import cli

    monkeypatch.delitem(cli.COMMANDS, "probe", raising=False)
    assert precommit.main(["--", "true"]) == 2
    assert "no `probe` command" in capsys.readouterr().err


@pytest.mark.slow
def test_pre_commit_try_repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[ci-test]')")
    repo = hook_repo(tmp_path)
    work = tmp_path / "work"
    (work / "servers").mkdir(parents=True)
    (work / "servers" / "bad.tools.json").write_text(BAD)
    (work / "tools.yaml").write_text("tools:\n  - name: search\n    inputSchema: {type: object}\n")
    (work / "package.json").write_text('{"name": "x", "name": "y"}')  # not a tools file: never linted
    (work / ".mcplint.yaml").write_text("select: [DOC001]\n")  # exact expectations: only this rule
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)

    def try_repo(*files):
        return subprocess.run([str(pre_commit), "try-repo", str(repo), "mcplint", "--color", "never",
                               "--files", *files], cwd=work, capture_output=True, text=True, env=env, timeout=600)

    bad = try_repo("servers/bad.tools.json", "tools.yaml", "package.json")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "servers/bad.tools.json" in bad.stdout and "DOC001" in bad.stdout and "duplicate-key" in bad.stdout
    assert "2:37" in bad.stdout  # line:column of the repeated key
    assert "package.json" not in bad.stdout.split("- hook id: mcplint", 1)[1]
    good = try_repo("tools.yaml", "package.json")
    assert good.returncode == 0, good.stdout + good.stderr
    assert re.search(r"mcplint\.+Passed", good.stdout)
    # the manual probe hook resolves its entry in the hook's venv (it needs args naming a server)
    probe = subprocess.run([str(pre_commit), "try-repo", str(repo), "mcplint-probe", "--hook-stage", "manual",
                            "--color", "never"], cwd=work, capture_output=True, text=True, env=env, timeout=600)
    assert probe.returncode == 1 and "mcplint-probe: no server" in probe.stdout, probe.stdout
