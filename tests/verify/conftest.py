"""Fixtures of the truth-lab tests in this folder.

``framework_conversions``: the agent frameworks' own tool-schema conversions
(mcplint/verify/frameworks.py, in the venv MCPLINT_FRAMEWORKS_PYTHON names) over the probe suite, the
hand-written schemas below and every real server's input schema, run once per session. Collecting
never starts the harness: it starts once the tests are selected, when a selected test uses the fixture
(so it runs on the other core while the tests before it run), or else at the fixture's first use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcplint.verify import frameworks as fw
from mcplint.verify.suite import PROBES

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "framework_conversions"
_STARTED = pytest.StashKey[object]()

# hand-written schemas for facts the probes and the corpus reach rarely
EXTRA = [
    # a $ref beside annotations (pydantic's described nested model)
    {"type": "object", "$defs": {"P": {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"],
                                       "additionalProperties": False}},
     "properties": {"who": {"$ref": "#/$defs/P", "title": "Who", "description": "a person"}},
     "required": ["who"], "additionalProperties": False},
    # "at least one of": anyOf branches that only list required keys, beside the properties
    {"type": "object", "properties": {"id": {"type": "string"}, "email": {"type": "string"}},
     "anyOf": [{"required": ["id"]}, {"required": ["email"]}]},
    # a nullable object with its own properties (litellm#19029)
    {"type": "object", "properties": {"p": {"type": ["object", "null"], "required": ["a"],
                                            "properties": {"a": {"type": "string"}}, "additionalProperties": False}},
     "required": ["p"], "additionalProperties": False},
]


def _start(config: pytest.Config):
    """(schemas, the running harness), or why it cannot run; started once per session."""
    if _STARTED not in config.stash:
        python = os.environ.get("MCPLINT_FRAMEWORKS_PYTHON", "")
        if not python or not Path(python).exists():
            config.stash[_STARTED] = "MCPLINT_FRAMEWORKS_PYTHON is not set (scripts/framework-transforms/build.sh builds it)"
        else:
            schemas = [p.schema for p in PROBES] + EXTRA + fw.corpus_schemas(ROOT)
            run = fw.start(python, schemas, list(fw.FRAMEWORKS), ROOT)
            config.add_cleanup(run.stop)  # interrupted: the harness does not outlive the session
            config.stash[_STARTED] = (schemas, run)
    return config.stash[_STARTED]


@pytest.hookimpl(trylast=True)  # after -m/-k have deselected what they deselect
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    if not config.option.collectonly and any(FIXTURE in getattr(i, "fixturenames", ()) for i in items):
        _start(config)


@pytest.fixture(scope="session")
def framework_conversions(pytestconfig: pytest.Config) -> tuple[list, dict]:
    """(schemas, the harness's output: {"versions": ..., "results": {framework: rows}}), or a skip."""
    got = _start(pytestconfig)
    if isinstance(got, str):
        pytest.skip(got)
    schemas, run = got
    return schemas, run.result()
