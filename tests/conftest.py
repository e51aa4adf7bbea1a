"""Shared test helpers: run a fixture case through the real pipeline."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

# Property tests draw the same examples on every run, so a CI run is reproducible and a change's
# result does not depend on the draw; MCPLINT_HYPOTHESIS=explore draws new examples each run
# (for looking for new counterexamples; add any it finds as an explicit case).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("MCPLINT_HYPOTHESIS", "repeatable"))
# The compiled store of the shipped profiles (mcplint.profiles.store) goes to a directory of this
# run's own, not the user's cache (tests/profiles/test_store.py sets its own per test).
if "MCPLINT_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile

    os.environ["MCPLINT_CACHE_DIR"] = _cache = tempfile.mkdtemp(prefix="mcplint-test-cache-")
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)  # (the run's own: nothing left in /tmp)

from mcplint.config import Config, Where, parse_settings  # noqa: E402 (after MCPLINT_CACHE_DIR is set)
from mcplint.engine import lint_document  # noqa: E402 (after MCPLINT_CACHE_DIR is set)
from mcplint.load import load_text  # noqa: E402 (after MCPLINT_CACHE_DIR is set)

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CASES_DIR = Path(__file__).parent / "cases"
PROBE_SERVERS = Path(__file__).resolve().parent / "probe_servers"  # the probe's test servers
STDIO = str(PROBE_SERVERS / "stdio_server.py")
sys.path.insert(0, str(PROBE_SERVERS))  # their modules (stdio_server, http_server) for in-process use


def case_document(case: dict):
    if "transcript" in case:  # a probe transcript (PRB rules), standing for every version of the case
        from mcplint.probe.transcript import example_document
        from mcplint.versions import LATEST

        return example_document(json.dumps(case["transcript"]), case.get("versions") or [LATEST])
    if "origin" in case:  # a file whose name says what it is (an MCP client's configuration)
        return load_text(case["text"] if "text" in case else json.dumps(case["document"]), case["origin"], "json")
    if "text" in case:
        return load_text(case["text"], "case.json" if case.get("format", "json") == "json" else "case.yaml",
                         case.get("format", "json"))
    data = case["tool"] if "tool" in case else case["document"]
    return load_text(json.dumps(data), "case.json", "json")


def run_case(case: dict, only_rule: str | None = None):
    settings = dict(case.get("config") or {})
    if only_rule:
        settings["select"] = [only_rule]
    if "versions" in case:
        settings["protocol-versions"] = case["versions"]
    if "profiles" in case:
        settings["profiles"] = case["profiles"]
    config = parse_settings(settings, Where("case"), Config())
    doc = case_document(case)
    _, findings = lint_document(doc, config)
    return findings


def load_cases() -> list[tuple[str, dict]]:
    out = []
    for f in sorted(CASES_DIR.glob("*.yaml")):
        for i, case in enumerate(yaml.safe_load(f.read_text(encoding="utf-8")) or []):
            out.append((f"{f.stem}[{i}] {case['rule']}: {case.get('description', '')}", case))
    return out


def lint_json(data, **settings):
    """Lint an in-memory value with config-file style settings; returns findings."""
    config = parse_settings(settings, Where("test"), Config())
    return lint_document(load_text(json.dumps(data), "t.json", "json"), config)[1]


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("shared/ reference data not beside the checkout")
    return SHARED


@pytest.fixture
def run_action(tmp_path, monkeypatch):
    """``run(**inputs)``: ``mcplint.action`` run with those inputs (``paths=...`` as
    ``MCPLINT_PATHS``), no other ``MCPLINT_`` variable, and GitHub's summary and output files
    in ``tmp_path`` (summary.md, output)."""
    from mcplint import action

    for k in list(os.environ):
        if k.startswith("MCPLINT_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "output"))

    def run(**inputs) -> int:
        for k, v in inputs.items():
            monkeypatch.setenv("MCPLINT_" + k.upper(), v)
        return action.main()

    return run


def survivors(tag: str) -> list[int]:
    """PIDs of processes whose command line carries ``tag``."""
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if tag.encode() in (p / "cmdline").read_bytes():
                    out.append(int(p.name))
            except OSError:
                pass
    return out


@pytest.fixture
def tag():
    """A unique tag for the servers a test starts; afterwards none of them may still run."""
    t = f"mcplint-test-{uuid.uuid4().hex}"
    yield t
    deadline = time.monotonic() + 5  # (waits for the processes to go; asserts no duration)
    while survivors(t) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not survivors(t), "a server process outlived the probe"


def fake_action_runner(tmp_path: Path, monkeypatch):
    """A fake GitHub runner around the workspace the caller made current: the step summary and
    output files GitHub gives, no MCPLINT_* input left from the environment, and ``run(**inputs)``,
    which runs ``mcplint.action`` with those inputs. Returns ``(run, files)``."""
    from mcplint import action

    files = {"summary": tmp_path / "summary.md", "output": tmp_path / "output"}
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(files["summary"]))
    monkeypatch.setenv("GITHUB_OUTPUT", str(files["output"]))
    for k in list(os.environ):
        if k.startswith("MCPLINT_"):
            monkeypatch.delenv(k)

    def run(**inputs):
        for k, v in inputs.items():
            monkeypatch.setenv("MCPLINT_" + k.upper(), v)
        return action.main()

    return run, files


def sarif_validator():
    """A validator of SARIF 2.1.0 (the schema is bundled under tests/data/schemas)."""
    import jsonschema

    schema = json.loads((Path(__file__).resolve().parent / "data" / "schemas" / "sarif-2.1.0.json").read_text())
    return jsonschema.Draft7Validator(schema)


def _git(cwd, *args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def hook_repo(tmp_path: Path) -> Path:
    """The repository to try hooks from: this checkout when it is a git work tree (try-repo
    snapshots uncommitted changes itself), else a throwaway commit of the package files."""
    ok = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if ok.returncode == 0 and Path(ok.stdout.strip()).resolve() == ROOT:
        return ROOT
    repo = tmp_path / "hookrepo"
    repo.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "mcplint", repo / "mcplint", ignore=shutil.ignore_patterns("__pycache__"))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "hooks")
    return repo
