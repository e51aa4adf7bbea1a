"""The engine turns the cyclic garbage collector off while it lints (it costs about a fifth of
a run and finds nothing). That is only sound while linting creates no reference cycles:
these tests fail if some change introduces one."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from conftest import case_document, load_cases
from mcplint.config import Config
from mcplint.engine import lint_document, lint_paths

DATA = Path(__file__).parent / "data"


@pytest.fixture
def collector_off():
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    yield
    if was:
        gc.enable()


def _garbage_after(work) -> int:
    work()  # once to import and build what is built once (classes, caches): not per-file garbage
    gc.collect()
    work()
    return gc.collect()  # objects that only a reference cycle kept alive


@pytest.mark.slow
def test_real_servers_and_official_examples_leave_no_cycles(collector_off):
    files = sorted(str(p) for p in (DATA / "corpus").glob("*.json"))
    files += sorted(str(p) for p in (DATA / "mcp-examples").rglob("*.json"))[:200]
    assert len(files) > 20
    for profiles in ((), ("default",)):
        assert _garbage_after(lambda: lint_paths(files, Config(profiles=profiles), jobs=1)) == 0, profiles


def test_yaml_files_leave_no_cycles(collector_off, tmp_path):
    import json

    import yaml

    files = []
    for p in sorted((DATA / "corpus").glob("*.json"))[:4]:
        out = tmp_path / (p.stem + ".yaml")
        out.write_text(yaml.safe_dump(json.loads(p.read_text(encoding="utf-8")), sort_keys=False), encoding="utf-8")
        files.append(str(out))
    result = lint_paths(files, Config(profiles=("default",)), jobs=1)
    assert result.findings and not result.errors  # located findings: the YAML source map was built
    assert _garbage_after(lambda: lint_paths(files, Config(profiles=("default",)), jobs=1)) == 0


@pytest.mark.slow
def test_every_rule_fixture_leaves_no_cycles(collector_off):
    config = Config(profiles=("default",))
    # (but a server.json's: REG001 validates the manifest with jsonschema, whose anyOf leaves the
    # errors of the branches it discards in cycles of their own; a repository has one manifest, so
    # what they keep is bounded by the files, not by their tools)
    docs = [case_document(case) for _, case in load_cases() if not case["rule"].startswith("REG")]

    def work():
        for doc in docs:
            lint_document(doc, config)

    assert _garbage_after(work) == 0


def test_the_collector_is_restored():
    assert gc.isenabled()
    lint_paths([str(DATA / "corpus" / sorted(p.name for p in (DATA / "corpus").glob("*.json"))[0])], Config(), jobs=1)
    assert gc.isenabled()
    gc.disable()
    try:
        lint_paths([str(next((DATA / "corpus").glob("*.json")))], Config(), jobs=1)
        assert not gc.isenabled()
    finally:
        gc.enable()
