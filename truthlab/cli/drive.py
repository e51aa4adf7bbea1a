"""Run a real coding agent (the Codex CLI or opencode) once over MCP servers that list given tools,
with its model endpoint pointed at a recorder on 127.0.0.1, and return the model request it made.

    from drive import Recorder, run_codex, run_opencode
    with Recorder() as rec:
        request = run_codex(binary, {"srv": [tool, ...]}, rec)

Each server is serve.py over stdio, under the given key. The recorder answers every request with a
400 error, so the agent gives up after its first turn, and every other HTTP request goes to a proxy
on 127.0.0.1 that is not there (OFFLINE: opencode's first run in a home would otherwise look up its
plugin package on the npm registry; neither client needs the network): nothing leaves the machine.
The returned request is the first one that carries tools (the JSON body as sent)."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVE = HERE / "serve.py"
NODE_MODULES = HERE / "node_modules"
CODEX = NODE_MODULES / "@openai" / "codex-linux-x64" / "vendor" / "x86_64-unknown-linux-musl" / "bin" / "codex"
OPENCODE = NODE_MODULES / "opencode-linux-x64" / "bin" / "opencode"


# every HTTP request but those to 127.0.0.1 (the recorder) goes to port 9 there, where nothing listens
_DEAD = "http://127.0.0.1:9"
OFFLINE = {"HTTP_PROXY": _DEAD, "HTTPS_PROXY": _DEAD, "ALL_PROXY": _DEAD, "NO_PROXY": "127.0.0.1,localhost",
           "http_proxy": _DEAD, "https_proxy": _DEAD, "all_proxy": _DEAD, "no_proxy": "127.0.0.1,localhost"}


class Recorder:
    """An HTTP server on 127.0.0.1 that keeps every POST body and answers 400."""

    def __init__(self) -> None:
        bodies: list = []
        self.bodies = bodies

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                bodies.append((self.path, body))
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"error": {"message": "recorded", "type": "invalid_request_error"}}')

            def do_GET(self):
                self.send_response(404)
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def __enter__(self) -> Recorder:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def take(self) -> list:
        out = [(p, json.loads(b)) for p, b in self.bodies]
        self.bodies.clear()
        return out


def _servers(folder: Path, servers: dict) -> dict:
    commands = {}
    for i, (key, tools) in enumerate(servers.items()):
        path = folder / f"tools{i}.json"
        path.write_text(json.dumps(tools), encoding="utf-8")
        commands[key] = [sys.executable, str(SERVE), str(path)]
    return commands


def _first_with_tools(requests: list, proc: subprocess.CompletedProcess) -> dict:
    for _, body in requests:
        if body.get("tools"):
            return body
    raise RuntimeError(f"no model request with tools; exit {proc.returncode}: {proc.stderr[-2000:]}")


def run_codex(binary: Path, servers: dict, rec: Recorder, model: str = "gpt-4.1") -> dict:
    """codex exec with a Responses API provider at the recorder. The model is one Codex has no
    tool-search metadata for, so MCP tools are sent in the first request (with a model it knows to
    search tools, such as gpt-5.5, Codex defers them behind its tool_search tool)."""
    with tempfile.TemporaryDirectory(prefix="truthlab-codex-") as d:
        home = Path(d)
        lines = [f"model = {json.dumps(model)}", 'model_provider = "recorder"', "",
                 "[model_providers.recorder]", 'name = "recorder"', f"base_url = {json.dumps(rec.url)}",
                 'wire_api = "responses"', "request_max_retries = 0", "stream_max_retries = 0"]
        for key, command in _servers(home, servers).items():
            lines += ["", f"[mcp_servers.{json.dumps(key)}]", f"command = {json.dumps(command[0])}",
                      f"args = {json.dumps(command[1:])}"]
        (home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        env = {**os.environ, **OFFLINE, "CODEX_HOME": str(home), "OPENAI_API_KEY": "recorded"}
        proc = subprocess.run([str(binary), "exec", "--skip-git-repo-check", "hi"], env=env, cwd=home,
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        return _first_with_tools(rec.take(), proc)


def _opencode_config(work: Path, servers: dict, rec: Recorder | None) -> dict:
    config = {
        "$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
        "mcp": {key: {"type": "local", "command": command, "enabled": True}
                for key, command in _servers(work, servers).items()},
    }
    if rec is not None:
        config.update({"provider": {"recorder": {"npm": "@ai-sdk/openai-compatible", "name": "recorder",
                                                 "options": {"baseURL": rec.url, "apiKey": "recorded"},
                                                 "models": {"m": {"name": "m"}}}},
                       "model": "recorder/m"})
    return config


def _opencode_env(home: Path, work: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(OFFLINE, HOME=str(home), PWD=str(work), OPENCODE_DISABLE_MODELS_FETCH="1")
    return env


def opencode_mcp_list(binary: Path, servers: dict, home: Path) -> list:
    """What `opencode mcp list` prints for these servers: its lines, without colours or the box
    drawing around them, and without the command lines (they name this machine's paths)."""
    import re

    with tempfile.TemporaryDirectory(prefix="truthlab-opencode-") as d:
        work = Path(d)
        (work / "opencode.json").write_text(json.dumps(_opencode_config(work, servers, None)), encoding="utf-8")
        proc = subprocess.run([str(binary), "mcp", "list"], env=_opencode_env(home, work), cwd=work,
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).strip(" │┌└●") for line in proc.stdout.splitlines()]
    return [line for line in lines if line and str(SERVE) not in line]


def run_opencode(binary: Path, servers: dict, rec: Recorder, home: Path, extra: tuple = ()) -> dict:
    """opencode run with an OpenAI-compatible provider (@ai-sdk/openai-compatible, which opencode
    installs into its cache under ``home`` on first use) at the recorder."""
    with tempfile.TemporaryDirectory(prefix="truthlab-opencode-") as d:
        work = Path(d)
        (work / "opencode.json").write_text(json.dumps(_opencode_config(work, servers, rec)), encoding="utf-8")
        proc = subprocess.run([str(binary), "run", "--pure", *extra, "hi"], env=_opencode_env(home, work), cwd=work,
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        return _first_with_tools(rec.take(), proc)
