"""Nothing in mcplint may open a network connection while linting: not for a remote
$ref, not for a $schema or $id URI, not for a meta-schema. Every socket is trapped."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.engine import lint_paths
from mcplint.config import Config

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parent.parent


class NetworkUsed(AssertionError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    def trap(*a, **k):
        raise NetworkUsed(f"network access attempted: {a!r}")

    monkeypatch.setattr(socket.socket, "connect", trap)
    monkeypatch.setattr(socket.socket, "connect_ex", trap)
    monkeypatch.setattr(socket, "create_connection", trap)
    monkeypatch.setattr(socket, "getaddrinfo", trap)


REMOTE = {
    "name": "remote",
    "inputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://evil.test/schemas/in.json",
        "type": "object",
        "properties": {
            "a": {"$ref": "https://evil.test/a.json"},
            "b": {"$ref": "http://127.0.0.1:9/b.json#/x"},
            "c": {"$ref": "other.json"},
            "d": {"$dynamicRef": "https://evil.test/d.json#node"},
        },
    },
    "outputSchema": {"$ref": "https://evil.test/out.json"},
}


def test_trap_works(no_network):
    with pytest.raises(NetworkUsed):
        socket.create_connection(("127.0.0.1", 9))


def test_remote_refs_are_never_fetched(no_network):
    lint_json(REMOTE, select=["ALL"], profiles=[])
    lint_json({"tools": [REMOTE]}, select=["ALL"], **{"protocol-versions": ["2025-11-25", "2026-07-28"]})


def test_corpus_and_examples_lint_offline(no_network):
    paths = [str(DATA / "corpus"), str(ROOT / "examples")]
    result = lint_paths(paths, Config())
    assert result.files >= 10 and not result.errors
