"""``probe --from`` and the environment: a configuration (perhaps from a pull request) names
``${VAR}`` in its URLs, headers, commands, cwd and env. Only the variables the user allows are
expanded (secret-looking names need ``--allow-env``; ``--env-expansion allowed``, the Action's
and the hook's default, expands nothing else), a refused one is a located error of that server
alone, and every value that was expanded is redacted from all that mcplint prints or saves."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from mcplint import action, precommit
from mcplint.cli import main
from conftest import STDIO

PY = sys.executable
KEY = "sk-live-Q7ZfW2kR9xPm"
PLAIN = "plain-but-private-4471"
CLOSED = "http://127.0.0.1:9"  # nothing listens there: connection refused at once
ENV = {"MY_API_KEY": KEY, "PLAINVAR": PLAIN}


def run(*args, env=ENV):
    return CliRunner(env=env).invoke(main, ["probe", "--format", "json", *args], catch_exceptions=False)


def servers(r) -> dict:
    return {s["name"]: s for s in json.loads(r.stdout)["summary"]["servers"]}


def line_of(cfg, text: str) -> int:
    return next(i for i, t in enumerate(cfg.read_text().splitlines(), 1) if text in t)


def test_every_expanded_value_is_redacted_in_every_output(tmp_path, tag):  # noqa: F811
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "remote": {"url": CLOSED + "/mcp?api_key=${MY_API_KEY}", "headers": {"X-Id": "${PLAINVAR}"}},
        "in-dir": {"command": PY, "cwd": "/no/such/${PLAINVAR}"},
        "missing": {"command": "/no/such/${PLAINVAR}/server"},
        "ok": {"command": "${PYBIN}", "args": [STDIO, "--tag", tag], "env": {"X": "${PLAINVAR}"}},
    }}, indent=2))
    env = {**ENV, "PYBIN": PY}
    saves = tmp_path / "captures"
    for fmt in ("json", "text", "sarif"):
        r = CliRunner(env=env).invoke(main, ["probe", "--no-config", "--format", fmt, "--allow-env", "MY_API_KEY",
                                             "--from", str(cfg), "--save", str(saves)], catch_exceptions=False)
        assert r.exit_code == 2, r.output
        shown = r.stdout + r.stderr
        for secret in (KEY, PLAIN, PY):
            assert secret not in shown, (fmt, secret)
        assert "api_key=***" in shown and "/no/such/***" in shown
    got = servers(run("--no-config", "--allow-env", "MY_API_KEY", "--from", str(cfg), "--save", str(saves), env=env))
    assert got["ok"]["status"] == "probed"  # the others' errors stop none but themselves
    assert {n for n, s in got.items() if s["status"] == "error"} == {"remote", "in-dir", "missing"}
    saved = (saves / "ok.json").read_text()
    assert PY not in saved and "***" in saved  # the capture names the server by its redacted command


def test_secret_looking_names_are_refused_unless_allowed(tmp_path):
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "keyed": {"url": CLOSED + "/mcp?api_key=${MY_API_KEY}"},
        "plain": {"url": CLOSED + "/${PLAINVAR}"},
    }}, indent=2))
    r = run("--no-config", "--from", str(cfg))
    got = servers(r)
    err = got["keyed"]["error"]
    assert err.startswith(f"{cfg}:{line_of(cfg, 'api_key')}:") and "input error: server 'keyed'" in err
    assert "environment variable MY_API_KEY is not expanded: its name looks like a secret's" in err
    assert "--allow-env MY_API_KEY" in err and KEY not in r.stdout + r.stderr
    assert "cannot connect" in got["plain"]["error"]  # a plain name is expanded, as the client would (and redacted)

    for how in (["--allow-env", "MY_API_KEY"], ["--config", "allow"]):
        if how[0] == "--config":
            how = ["--config", str(tmp_path / "allow.yaml")]
            (tmp_path / "allow.yaml").write_text("allow-env: [MY_API_KEY]\n")
        else:
            how = ["--no-config", *how]
        got = servers(run(*how, "--from", str(cfg)))
        assert "cannot connect" in got["keyed"]["error"] and "api_key=***" in got["keyed"]["error"]

    # allowed: nothing but the --allow-env names, whatever the repository's configuration says
    r = run("--config", str(tmp_path / "allow.yaml"), "--env-expansion", "allowed", "--from", str(cfg))
    got = servers(r)
    assert "MY_API_KEY is not expanded: only the variables named with --allow-env are" in got["keyed"]["error"]
    assert "PLAINVAR is not expanded" in got["plain"]["error"]
    got = servers(run("--no-config", "--env-expansion", "allowed", "--allow-env", "PLAINVAR,MY_API_KEY",
                      "--from", str(cfg)))
    assert all("cannot connect" in s["error"] for s in got.values())
    # an unset variable is still said to be unset (the near miss of a refusal)
    r = run("--no-config", "--from", str(cfg), env={"PLAINVAR": PLAIN, "MY_API_KEY": None})
    assert "MY_API_KEY is not set" in servers(r)["keyed"]["error"]


def test_gemini_and_codex_forms_obey_the_same_policy(tmp_path):
    gem = tmp_path / ".gemini" / "settings.json"
    gem.parent.mkdir()
    gem.write_text(json.dumps({"mcpServers": {"g": {"httpUrl": CLOSED + "/$MY_API_KEY"}}}))
    assert "MY_API_KEY is not expanded" in servers(run("--no-config", "--from", str(gem)))["g"]["error"]
    pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")
    codex = tmp_path / ".codex" / "config.toml"
    codex.parent.mkdir()
    codex.write_text(f'[mcp_servers.k]\nurl = "{CLOSED}/mcp"\nbearer_token_env_var = "PLAINVAR"\n')
    err = servers(run("--no-config", "--from", str(codex)))["k"]["error"]
    assert "PLAINVAR is not expanded: bearer_token_env_var sends its value as a credential" in err
    err = servers(run("--no-config", "--allow-env", "PLAINVAR", "--from", str(codex)))["k"]["error"]
    assert "cannot connect" in err and PLAIN not in err


def test_allow_env_config_key_is_checked(tmp_path):
    bad = tmp_path / "c.yaml"
    bad.write_text("allow-env: [GITHUB_TOKEN, 'not a name']\n")
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"a": {"url": CLOSED}}}))
    r = run("--config", str(bad), "--from", str(cfg))
    assert r.exit_code == 2 and f"{bad}:1:" in r.output and "must be the name of an environment variable" in r.output
    r = CliRunner().invoke(main, ["probe", "--allow-env", "X", "--", PY, STDIO])
    assert r.exit_code == 2 and "go with --from CONFIG" in r.output


def test_the_hook_expands_only_what_its_args_allow(tmp_path, monkeypatch, capsys):
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"plain": {"url": CLOSED + "/${PLAINVAR}"}}}))
    monkeypatch.setenv("PLAINVAR", PLAIN)
    monkeypatch.chdir(tmp_path)
    assert precommit.main(["--from", str(cfg), "--no-config"]) == 2
    out = capsys.readouterr()
    assert "PLAINVAR is not expanded: only the variables named with --allow-env are" in out.out + out.err
    assert precommit.main(["--from", str(cfg), "--no-config", "--allow-env", "PLAINVAR"]) == 2
    out = capsys.readouterr()
    assert "cannot connect" in out.out + out.err and PLAIN not in out.out + out.err


def test_the_action_expands_only_its_allow_env_input(tmp_path, monkeypatch, capsys):
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"plain": {"url": CLOSED + "/${PLAINVAR}"}}}))
    (tmp_path / ".mcplint.yaml").write_text("allow-env: [PLAINVAR]\n")  # the repository's: not honoured
    monkeypatch.chdir(tmp_path)
    for k in [k for k in __import__("os").environ if k.startswith("MCPLINT_") or k == "GITHUB_EVENT_NAME"]:
        monkeypatch.delenv(k)
    monkeypatch.setenv("PLAINVAR", PLAIN)
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "out"))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.setenv("MCPLINT_PROBE_FROM", ".mcp.json")
    assert action.main() == 2
    out = capsys.readouterr().out
    assert "PLAINVAR is not expanded" in out
    monkeypatch.setenv("MCPLINT_ALLOW_ENV", "PLAINVAR")
    assert action.main() == 2
    out = capsys.readouterr().out
    assert "cannot connect" in out and PLAIN not in out + (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("inputs, refused", [
    ({"PROBE_FROM": ".mcp.json"}, "`probe-from`"),
    ({"PROBE_COMMAND": "python server.py"}, "`probe-command`"),
    ({"PATHS": "app/server.py tools.json"}, "Python server files in `paths`"),
    ({"PATHS": "tools.json"}, None),  # the near miss: nothing runs
    ({"PROBE_FROM": ".mcp.json", "RUN_UNTRUSTED": "true"}, None),
])
def test_the_action_runs_no_checkout_code_in_a_privileged_workflow(monkeypatch, inputs, refused):
    from mcplint.errors import ConfigError

    for k in [k for k in __import__("os").environ if k.startswith("MCPLINT_")]:
        monkeypatch.delenv(k)
    for k, v in inputs.items():
        monkeypatch.setenv("MCPLINT_" + k, v)
    for event in ("pull_request_target", "workflow_run", "pull_request"):
        monkeypatch.setenv("GITHUB_EVENT_NAME", event)
        if refused and event != "pull_request":
            with pytest.raises(ConfigError) as e:
                action.refuse_untrusted_code()
            assert refused in str(e.value) and f"`{event}` workflow" in str(e.value)
            assert "run-untrusted: true" in str(e.value)
        else:
            action.refuse_untrusted_code()
