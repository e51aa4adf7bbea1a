"""The GitHub Action without GitHub: ``action.yml`` against the action metadata schema,
its logic (``mcplint.action``) with fake ``GITHUB_STEP_SUMMARY``/``GITHUB_OUTPUT`` files,
and (slow) every shell step of ``action.yml`` run the way a runner runs them."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import yaml

from .common import BAD, CONFIG, GOOD, outputs  # noqa: F401 (the files the runner fixture writes)


ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMAS = Path(__file__).parent.parent / "data" / "schemas"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())


def test_action_yml_is_valid_action_metadata():
    schema = json.loads((SCHEMAS / "github-action.json").read_text())
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(ACTION))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    assert ACTION["runs"]["using"] == "composite"
    assert {"paths", "probe-command", "profiles", "protocol-versions", "fail-on", "config", "sarif"} <= set(ACTION["inputs"])


def test_inputs_never_reach_a_shell_line():
    """Inputs go through env: (no script injection); every input is passed to the lint step."""
    steps = ACTION["runs"]["steps"]
    for step in steps:
        assert "${{" not in step.get("run", ""), step["name"]
    lint = next(s for s in steps if s.get("id") == "lint")
    passed = {m for v in lint["env"].values() for m in re.findall(r"inputs\.([\w-]+)", v)}
    install = next(s for s in steps if "Install" in s["name"])
    passed |= {m for v in install["env"].values() for m in re.findall(r"inputs\.([\w-]+)", v)}
    assert passed == set(ACTION["inputs"])
    assert install["env"]["MCPLINT_ACTION_PATH"] == "${{ github.action_path }}"


def test_action_logic_bad_file(runner, capsys):
    run, files, ws = runner
    assert run(paths="mcp/", sarif="out/mcplint.sarif", config=".none.yaml") == 2  # a missing config file
    assert "cannot read config file" in files["summary"].read_text()
    files["summary"].unlink()
    files["output"].unlink()
    capsys.readouterr()
    assert run(paths="mcp/", sarif="out/mcplint.sarif", config="", profiles="", protocol_versions="2025-11-25,2026-07-28") == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=mcp/bad.tools.json,line=2,col=56,")
    assert "title=DOC001 duplicate-key::" in out
    assert outputs(files["output"]) == {"sarif-file": "out/mcplint.sarif", "exit-code": "1", "findings": "1",
                                        "errors": "1", "warnings": "0", "infos": "0"}
    summary = files["summary"].read_text()
    assert summary.startswith("## mcplint\n\n❌ 1 error in 2 files, 2 tools.")
    assert "| `DOC001` duplicate-key | 🔴 error | `search` | `mcp/bad.tools.json` | 1 | 2:56" in summary
    sarif = json.loads((ws / "out" / "mcplint.sarif").read_text())
    loc = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "mcp/bad.tools.json" and loc["region"]["startLine"] == 2
    assert sarif["runs"][0]["results"][0]["properties"]["protocolVersion"] == "2025-11-25,2026-07-28"


def test_action_logic_options(runner, capsys):
    run, files, ws = runner
    # fail-on and annotations off; summary off
    (ws / ".mcplint.yaml").write_text(CONFIG + "severity: {DOC001: warning}\n")
    assert run(paths="mcp/good.tools.json mcp/bad.tools.json", annotations="false", summary="false") == 0
    assert "::warning" not in capsys.readouterr().out and not files["summary"].exists()
    assert run(paths=f"mcp/good.tools.json, {ws / 'mcp' / 'bad.tools.json'}", fail_on="warning",
               annotations="true") == 1
    assert "::warning file=mcp/bad.tools.json," in capsys.readouterr().out  # absolute input, relative annotation
    assert outputs(files["output"])["warnings"] == "1"


def test_action_logic_baseline_and_nothing_to_do(runner, capsys):
    run, files, ws = runner
    from mcplint import baseline
    from mcplint.config import Config
    from mcplint.engine import lint_paths

    baseline.write("mcplint-baseline.json", lint_paths(["mcp/"], Config(select=("DOC001",))))
    assert run(paths="mcp/", baseline="mcplint-baseline.json") == 0
    assert "✅ No findings" in files["summary"].read_text()
    assert run(paths="", baseline="") == 2
    assert "nothing to lint" in capsys.readouterr().out


@pytest.mark.parametrize("inputs,message", [
    ({"protocol_versions": "2025-11-25 2099-01-01"}, "unknown protocol version '2099-01-01'"),
    ({"fail_on": "critical"}, "unknown severity 'critical'"),
])
def test_action_logic_bad_inputs_are_refused(runner, capsys, inputs, message):
    run, files, ws = runner
    assert run(paths="mcp/", **inputs) == 2
    assert message in capsys.readouterr().out and message in files["summary"].read_text()
    assert outputs(files["output"])["exit-code"] == "2"


@pytest.fixture
def with_probe(monkeypatch):
    from mcplint import cli

    monkeypatch.setitem(cli.COMMANDS, "probe", ("test_precommit", "fake_probe", "probe"))


def test_action_logic_probe_then_lint(runner, with_probe, capsys):
    run, files, ws = runner
    server = f"{sys.executable} -c 'print(open(\"mcp/bad.tools.json\").read())'"
    assert run(probe_command=server, snapshot="snap.json", sarif="out.sarif") == 1
    out = capsys.readouterr().out
    assert "::group::mcplint probe --save snap.json" in out and "keeps quiet" not in out
    assert "::error file=snap.json,line=2,col=56," in out  # annotations point at the saved snapshot
    assert (ws / "snap.json").exists() and "`snap.json`" in files["summary"].read_text()


def test_action_logic_probe_failure(runner, with_probe, capsys):
    """A server that cannot be probed fails the step with exit 2 and says so in the summary."""
    run, files, ws = runner
    assert run(probe_command=f"{sys.executable} -c 'raise SystemExit(5)'", snapshot="snap/tools.json") == 2
    assert "server exited 5" in capsys.readouterr().out
    assert "Could not probe the server" in files["summary"].read_text()
    assert outputs(files["output"])["exit-code"] == "2"


def test_action_protocol_versions_narrow_the_probe(runner, capsys):
    """``protocol-versions`` is passed to the (real) probe: the server is asked under those
    versions only, so the snapshot and the lint agree on what was checked."""
    run, files, ws = runner
    (ws / ".mcplint.yaml").write_text("select: [PRB]\nfail-on: warning\n")
    stdio = Path(__file__).parent.parent / "probe_servers" / "stdio_server.py"
    server = f"{shlex.quote(sys.executable)} {shlex.quote(str(stdio))} --only-in 2025-03-26"
    assert run(probe_command=server, snapshot="all.json") == 1  # 'beta' is missing under the others
    assert "PRB102" in capsys.readouterr().out
    snap = json.loads((ws / "all.json").read_text())
    assert {v for c in snap["captures"] for v in c["protocolVersions"]} >= {"2025-03-26", "2025-11-25"}
    assert run(probe_command=server, snapshot="one.json", protocol_versions="2025-11-25") == 0
    out = capsys.readouterr().out
    assert "::group::mcplint probe --save one.json --protocol-version 2025-11-25 --" in out and "PRB102" not in out
    snap = json.loads((ws / "one.json").read_text())
    assert [c["protocolVersions"] for c in snap["captures"]] == [["2025-11-25"]]
    assert list(snap["captures"][0]["transcripts"]) == ["2025-11-25"]
    # a bad version is refused before any server is started
    assert run(probe_command=server, snapshot="bad.json", protocol_versions="2099-01-01") == 2
    assert not (ws / "bad.json").exists()


def test_action_logic_without_probe_command(runner, monkeypatch, capsys):
    from mcplint import cli

    monkeypatch.delitem(cli.COMMANDS, "probe", raising=False)
    run, files, ws = runner
    assert run(probe_command="node server.js") == 2
    assert "no `probe` command" in capsys.readouterr().out


def expand(value: str, inputs: dict, github: dict, runner_ctx: dict) -> str:
    def sub(m):
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[7:]]
        if expr.startswith("github."):
            return github.get(expr.split("||")[0].strip()[7:], "")
        if expr.startswith("runner."):
            return runner_ctx[expr[7:]]
        raise AssertionError(f"unexpected expression {expr}")

    return re.sub(r"\$\{\{(.*?)\}\}", sub, str(value))


@pytest.mark.slow
def test_action_steps_run_like_a_runner(tmp_path):
    """Run each `run:` step of action.yml with bash as GitHub does (env from `env:` with
    inputs substituted, $GITHUB_ENV carried between steps), then check what they wrote."""
    ws = tmp_path / "ws"
    (ws / "mcp").mkdir(parents=True)
    (ws / "mcp" / "bad.tools.json").write_text(BAD)
    (ws / "mcp" / "good.tools.json").write_text(GOOD)
    (ws / ".mcplint.yaml").write_text(CONFIG)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    gh = {name: tmp_path / name for name in ("summary.md", "output", "env")}
    for p in gh.values():
        p.touch()
    inputs = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    inputs.update({"paths": "mcp", "sarif": "mcplint.sarif", "python": sys.executable})
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("MCPLINT_", "VIRTUAL_ENV"))}
    base_env.update({"GITHUB_STEP_SUMMARY": str(gh["summary.md"]), "GITHUB_OUTPUT": str(gh["output"]),
                     "GITHUB_ENV": str(gh["env"]), "RUNNER_TEMP": str(temp), "GITHUB_ACTION_PATH": str(ROOT),
                     "GITHUB_WORKSPACE": str(ws)})
    results = []
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            assert step["uses"].startswith("actions/cache@")
            continue
        env = dict(base_env)
        env.update(line.split("=", 1) for line in gh["env"].read_text().splitlines() if "=" in line)
        env.update({k: expand(v, inputs, {"action_path": str(ROOT)}, {"temp": str(temp)})
                    for k, v in step.get("env", {}).items()})
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=ws, env=env, capture_output=True, text=True, timeout=600)
        results.append(proc)
        if step.get("id") != "lint":
            assert proc.returncode == 0, proc.stdout + proc.stderr
    install, lint = results
    assert "mcplint, version" in install.stdout
    assert str(temp / "mcplint-venv") in gh["env"].read_text()
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "::error file=mcp/bad.tools.json,line=2,col=56" in lint.stdout
    assert outputs(gh["output"])["exit-code"] == "1"
    assert "### Findings by rule and tool" in gh["summary.md"].read_text()
    log = json.loads((ws / "mcplint.sarif").read_text())
    schema = json.loads((SCHEMAS / "sarif-2.1.0.json").read_text())
    jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "mcp/bad.tools.json"


@pytest.mark.parametrize("path,server,uri", [
    ("/home/runner/work/_actions/acme/mcplint/4f2a9c1", "", "https://github.com/acme/mcplint/tree/4f2a9c1#readme"),
    ("/home/runner/work/_actions/acme/mcplint/v1/", "https://ghe.example.com",
     "https://ghe.example.com/acme/mcplint/tree/v1#readme"),
    (r"D:\a\_actions\acme\mcplint\main", "", "https://github.com/acme/mcplint/tree/main#readme"),  # Windows runner
    ("/home/runner/work/app/app", "", None),  # `uses: ./`: a local action says nothing of where it came from
    ("/home/runner/work/_actions/acme/mcplint/v1/sub", "", None),  # not the layout of this action at a repo root
    ("/home/runner/work/_actions/acme/mcplint/v1", "http://plain.example.com", None),
    ("", "", None),  # not in an Action
])
def test_action_sarif_points_at_the_readme_it_was_fetched_from(runner, monkeypatch, path, server, uri):
    run, files, ws = runner
    monkeypatch.delenv("GITHUB_ACTION_PATH", raising=False)
    monkeypatch.delenv("GITHUB_SERVER_URL", raising=False)
    if server:
        monkeypatch.setenv("GITHUB_SERVER_URL", server)
    monkeypatch.setattr("mcplint.about.homepage", lambda metadata=None: None)  # nothing declared
    run(paths="mcp/", sarif="out.sarif", action_path=path, annotations="false", summary="false")
    log = json.loads((ws / "out.sarif").read_text())
    driver = log["runs"][0]["tool"]["driver"]
    assert driver.get("informationUri") == uri
    schema = json.loads((SCHEMAS / "sarif-2.1.0.json").read_text())
    assert not list(jsonschema.Draft7Validator(schema).iter_errors(log))


def test_lint_step_passes_the_action_path():
    lint = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "lint")
    assert lint["env"]["MCPLINT_ACTION_PATH"] == "${{ github.action_path }}"


def test_action_server_name_input(runner, capsys):
    run, files, ws = runner
    name = "manage_agentcore_runtime_configuration"  # cut by gemini-cli only behind a long server name
    (ws / "mcp" / "named.tools.json").write_text(json.dumps({"tools": [{"name": name, "inputSchema": {
        "type": "object", "properties": {}, "additionalProperties": False}}]}))
    (ws / "dec.yaml").write_text("select: [DEC]\n")
    assert run(paths="mcp/named.tools.json", profiles="gemini-cli", config="dec.yaml", summary="false") == 0
    assert "DEC007" not in capsys.readouterr().out
    assert run(paths="mcp/named.tools.json", profiles="gemini-cli", config="dec.yaml", summary="false",
               server_name="aws-bedrock-agentcore") == 0  # (a warning)
    assert "mcp_aws-bedrock-agentcore_mana...gentcore_runtime_configuration" in capsys.readouterr().out
