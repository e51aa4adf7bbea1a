"""Spreading files over worker processes changes nothing in the result: the same findings
(with their lines and columns), tools, errors with their locations, and the same report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.jobs import jobs_for as _jobs_for

DATA = Path(__file__).parent / "data"


def _files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"tools": [\n  {"name": "a",}\n]}')
    dup = tmp_path / "dup.json"
    dup.write_text('{"name": "a", "inputSchema": {"type": "object"}}')
    return [str(DATA / "corpus"), str(broken), str(dup)]


def _view(result):
    return ([(f.rule, f.origin, str(f.pointer), f.line, f.column, f.message, f.profile, f.protocol_version)
             for f in result.findings],
            result.tool_index, result.files, result.tools,
            [(str(e), e.line, e.col) for e in result.errors])


def test_parallel_equals_sequential(tmp_path):
    paths = _files(tmp_path)
    config = Config(protocol_versions=("2025-11-25", "2026-07-28"), profiles=("openai-strict",))
    one = lint_paths(paths, config, jobs=1)
    two = lint_paths(paths, config, jobs=2)
    assert _view(one) == _view(two)
    assert one.errors and one.errors[0].line == 2  # the located error survived the process boundary


def test_cli_reports_match(tmp_path):
    paths = _files(tmp_path)
    out = [CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", "-j", j, *paths]) for j in "12"]
    assert out[0].exit_code == out[1].exit_code == 2
    assert json.loads(out[0].stdout) == json.loads(out[1].stdout)


def test_small_runs_stay_in_process(tmp_path):
    f = tmp_path / "a.json"
    f.write_text("{}")
    assert _jobs_for([str(f)] * 3, None) == 1  # too few files
    assert _jobs_for([str(f)] * 10, None) == 1  # too little to read
    assert _jobs_for([str(f)] * 10, 4) == 4
    assert _jobs_for(["-"], None) == 1


def test_python_servers_go_to_workers_from_two_on(tmp_path, monkeypatch):
    """Each imports a server in an interpreter of its own (about a second of CPU): two are enough
    to repay the workers, however little there is to read."""
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    f = tmp_path / "a.json"
    f.write_text("{}")
    assert _jobs_for(["one_server.py", "two_server.py:mcp"], None) == 2
    assert _jobs_for(["one_server.py", "two_server.py", str(f)], None) == 3
    assert _jobs_for(["one_server.py", str(f)], None) == 1  # one server: nothing to share
    assert _jobs_for(["one_server.py", "two_server.py"], 1) == 1


def test_a_json_document_crosses_processes_as_text():
    """Workers send documents back without the parsed tree or the source map (the parent
    rarely needs them); a copy parses its text again when asked, with the same answers."""
    import pickle

    from mcplint.load import load_text
    from mcplint.model import Pointer

    text = '{"tools": [\n  {"name": "a", "inputSchema": {"type": "object", "properties": {"x~/y": {}}}}\n]}'
    doc = load_text(text, "x.json")
    ptr = Pointer(("tools", 0, "inputSchema", "properties", "x~/y"))
    span = doc.locate(ptr)
    copy = pickle.loads(pickle.dumps(doc))
    assert not isinstance(copy._data, dict) and copy._spans is None  # no tree, no map
    assert copy.locate(ptr) == span
    assert copy.data == doc.data and copy._data is copy.data  # parsed once, then kept
    yaml_doc = load_text("tools:\n  - name: a\n    inputSchema: {type: object}\n", "x.yaml", "yaml")
    yaml_copy = pickle.loads(pickle.dumps(yaml_doc))
    assert yaml_copy.data == yaml_doc.data  # YAML keeps its tree and map: its text is not re-read
    assert yaml_copy.locate(Pointer(("tools", 0))) == yaml_doc.locate(Pointer(("tools", 0)))


def test_many_files_are_sent_in_chunks_and_all_come_back(tmp_path):
    """Enough files that each worker task carries several (more than jobs x 16 x 2), in order."""
    paths = []
    for i in range(80):
        f = tmp_path / f"t{i:02}.json"
        f.write_text(json.dumps({"name": f"tool_{i}", "inputSchema": {"type": "object"}}))
        paths.append(str(f))
    one = lint_paths(paths, Config(), jobs=1)
    two = lint_paths(paths, Config(), jobs=2)
    assert _view(one) == _view(two)
    assert len({f.origin for f in two.findings}) == 80
    # the parent keeps what the workers sent: no document is parsed again to ask whether it is a
    # saved probe capture (each would be kept parsed, the whole run's data in one process)
    assert not any(isinstance(d._data, dict) for d in two.documents) and not two.captures


@pytest.mark.slow
def test_python_servers_in_workers_report_what_one_process_does(monkeypatch):
    pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
    monkeypatch.chdir(Path(__file__).parent.parent)
    files = ["tests/pyservers/lowlevel_server.py", "tests/pyservers/app/server.py", "tests/pyservers/no_mcp.py"]
    config = Config(profiles=("openai-strict",))
    one, two = (lint_paths(files, config, jobs=j) for j in (1, 2))

    def rows(r):
        return [(f.rule, str(f.pointer), f.message, f.source.file, f.source.line, f.source.column) for f in r.findings]

    assert rows(one) == rows(two) and rows(one)
    assert one.notes == two.notes and len(one.notes) == 1 and one.errors == two.errors == []
