"""The official JSON-Schema-Test-Suite's reference groups (vendored under
tests/data/json-schema-test-suite/, see its README), run through `validate` and `scan`.

* ref, anchor and the optional id/anchor groups, for draft-04, -06, -07, 2019-09 and 2020-12:
  `validate` agrees with every test, and `scan` reports no SEC101/SEC102/SEC103 and no
  meta-schema error (SCH101) on any of their schemas, all of which are valid.
* refRemote, as written: every remote reference is reported (SEC101, "external $ref not
  fetched"), every test is reported as not validated, and no socket is opened.
* refRemote with the suite's remotes/ given as local files (each embedded as a resource under
  its retrieval URI): no SEC10x, and `validate` agrees. The few tests that only make sense
  with retrieval (a remote whose own `$id` differs from the URI it is served at) are named.
"""

from __future__ import annotations

import copy
import json
import socket
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from conftest import lint_json
from mcplint.refs import bundled, index, is_local
from mcplint.validate import INCOMPLETE, validate_instance

SUITE = Path(__file__).parent / "data" / "json-schema-test-suite"
DRAFTS = {
    "draft4": "http://json-schema.org/draft-04/schema#",
    "draft6": "http://json-schema.org/draft-06/schema#",
    "draft7": "http://json-schema.org/draft-07/schema#",
    "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
}
LOCAL_GROUPS = ("ref", "anchor", "optional/id", "optional/anchor")
REF_RULES = ["SEC101", "SEC102", "SEC103", "SCH101"]
HOST = "http://localhost:1234/"
# refRemote groups whose remote declares an `$id` other than the URI it is retrieved from: the
# test is about retrieval itself, which mcplint never does, so it cannot be given as a local file.
NEEDS_RETRIEVAL = {
    ("draft2019-09", "remote HTTP ref with different $id"),
    ("draft2019-09", "remote HTTP ref with different URN $id"),
    ("draft2020-12", "remote HTTP ref with different $id"),
    ("draft2020-12", "remote HTTP ref with different URN $id"),
}


def _groups(names):
    out = []
    for draft in DRAFTS:
        for name in names:
            path = SUITE / "tests" / draft / f"{name}.json"
            if path.is_file():
                for i, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
                    out.append(pytest.param(draft, group, id=f"{draft}/{name}[{i}] {group['description']}"))
    return out


def _with_dialect(draft, schema):
    """The suite runs each file as its draft; a tool schema without `$schema` is 2020-12."""
    if isinstance(schema, dict) and "$schema" not in schema:
        return {"$schema": DRAFTS[draft], **schema}
    return schema


def _scan(schema):
    return lint_json({"name": "t", "inputSchema": schema}, select=REF_RULES)


@pytest.fixture
def no_network(monkeypatch):
    def trap(*a, **k):
        raise AssertionError(f"network access attempted: {a!r}")

    for owner, name in ((socket.socket, "connect"), (socket.socket, "connect_ex"), (socket, "create_connection"),
                        (socket, "getaddrinfo")):
        monkeypatch.setattr(owner, name, trap)


def test_the_vendored_groups_are_all_there():
    names = {p.relative_to(SUITE / "tests").as_posix() for p in (SUITE / "tests").rglob("*.json")}
    for draft in DRAFTS:
        assert {f"{draft}/ref.json", f"{draft}/refRemote.json", f"{draft}/optional/id.json"} <= names
    assert {"draft2019-09/anchor.json", "draft2020-12/anchor.json"} <= names
    assert len(_groups(LOCAL_GROUPS)) > 150


@pytest.mark.parametrize("draft,group", _groups(LOCAL_GROUPS))
def test_local_references_validate_and_scan_as_the_suite_says(draft, group, no_network):
    schema = _with_dialect(draft, group["schema"])
    assert [f"{f.rule} {f.pointer}: {f.message}" for f in _scan(schema)] == []
    for test in group["tests"]:
        problems = validate_instance(schema, test["data"])
        assert not [p for p in problems if p.code == INCOMPLETE], (test["description"], problems)
        assert (not problems) == test["valid"], (test["description"], problems)


@pytest.mark.parametrize("draft,group", _groups(["refRemote"]))
def test_remote_references_are_reported_never_fetched(draft, group, no_network):
    schema = _with_dialect(draft, group["schema"])
    idx = index(schema)
    remote = [r for r in idx.refs if not is_local(r, idx) and bundled(r) is None]
    assert remote, "every refRemote group points at http://localhost:1234/"
    found = [f for f in _scan(schema) if f.rule == "SEC101"]
    assert sorted(str(f.pointer) for f in found) == sorted("/inputSchema" + "".join(f"/{k}" for k in r.pointer)
                                                          for r in remote)
    assert all("was not fetched" in f.message for f in found)
    for test in group["tests"]:
        problems = validate_instance(schema, test["data"])
        assert any(p.code == INCOMPLETE and "external $ref not fetched" in p.message for p in problems), problems


def _embed_remotes(draft, schema):
    """``schema`` with each http://localhost:1234/ document it needs embedded from remotes/ as a
    resource identified by that URI; None when a remote cannot be embedded that way."""
    legacy = draft in ("draft4", "draft6", "draft7")
    id_kw = "id" if draft == "draft4" else "$id"
    defs = "definitions" if legacy else "$defs"
    schema = copy.deepcopy(schema)
    added: list = []
    while True:
        idx = index(schema)
        need = sorted({urldefrag(r.target_uri)[0] for r in idx.refs
                       if not is_local(r, idx) and bundled(r) is None} - set(added))
        if not need:
            return schema
        for uri in need:
            path = SUITE / "remotes" / uri.removeprefix(HOST)
            assert uri.startswith(HOST) and path.is_file(), uri
            remote = json.loads(path.read_text(encoding="utf-8"))
            remote.pop("$schema", None)
            if remote.get(id_kw, uri) != uri:
                return None
            remote[id_kw] = uri
            if legacy and "$ref" in remote:  # a sibling of $ref is ignored there: wrap it
                remote = {id_kw: uri, "allOf": [remote]}
            schema.setdefault(defs, {})[f"remote{len(added)}"] = remote
            added.append(uri)


@pytest.mark.parametrize("draft,group", _groups(["refRemote"]))
def test_remote_references_given_as_local_files(draft, group, no_network):
    schema = _embed_remotes(draft, _with_dialect(draft, group["schema"]))
    if (draft, group["description"]) in NEEDS_RETRIEVAL:
        assert schema is None
        return
    assert schema is not None
    assert [f"{f.rule} {f.pointer}: {f.message}" for f in _scan(schema)] == []
    for test in group["tests"]:
        problems = validate_instance(schema, test["data"])
        assert not [p for p in problems if p.code == INCOMPLETE], (test["description"], problems)
        assert (not problems) == test["valid"], (test["description"], problems)
