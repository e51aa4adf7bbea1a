"""The probe's pieces without a server: the captured document is cut verbatim out of the
responses, invalid call arguments, redaction, timeouts."""

from __future__ import annotations

import json
import os
import sys

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_document
from mcplint.probe.calls import invalid_arguments
from mcplint.probe.transcript import capture_document, capture_text
from mcplint.probe.wire import Redactor

PAGE1 = ('{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"type":"object",'
         '"maximum":1.0e2,"type":"object"}}],"nextCursor":"c1"}}')
PAGE2 = '{"jsonrpc": "2.0", "id": 3, "result": {"tools": [\n  {"name": "b", "inputSchema": {"type": "object"}}\n]}}'


def test_single_page_is_the_result_verbatim():
    text = capture_text({"pages": [{"raw": PAGE1}]})
    assert text.rstrip("\n") == PAGE1[len('{"jsonrpc":"2.0","id":2,"result":'):-1]


def test_pages_are_joined_from_the_servers_own_text():
    t = {"pages": [{"raw": PAGE1}, {"raw": PAGE2}]}
    text = capture_text(t)
    assert '"maximum":1.0e2,"type":"object"' in text  # number spelling and the duplicate key survive
    assert json.loads(text)["tools"][1]["name"] == "b"
    assert "nextCursor" not in text
    doc = capture_document({"2025-06-18": t}, "x.json")
    config = Config().with_overrides(select=("DOC001",), protocol_versions=("2025-06-18",))
    _, findings = lint_document(doc, config)
    (f,) = findings
    assert str(f.pointer) == "/tools/0/inputSchema/type"
    assert doc.line_text(f.line)[f.column - 1:].startswith('"type":"object"}')


def test_failed_pages_leave_an_empty_list():
    t = {"pages": [{"raw": '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}'}]}
    assert json.loads(capture_text(t)) == {"tools": []}


def test_invalid_arguments_are_invalid_and_never_fetch():
    assert invalid_arguments({"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}}) == {}
    assert invalid_arguments({"type": "object", "properties": {"n": {"type": "integer"}}}) == {"n": "not-a-number"}
    assert invalid_arguments({"type": "object", "additionalProperties": False}) == {"mcplint_unexpected_argument": 1}
    assert invalid_arguments({"type": "object"}) is None  # nothing is invalid: do not call
    assert invalid_arguments({"type": "object", "properties": {"q": {"$ref": "https://evil.test/q.json"}}}) is None
    assert invalid_arguments("nonsense") is None


def test_redactor(monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_abcdefghijkl")
    monkeypatch.setenv("HOME_DIR_NAME", "not-a-secret-name")
    r = Redactor(["given-secret"])
    assert r("x ghp_abcdefghijkl given-secret not-a-secret-name") == "x *** *** not-a-secret-name"


@pytest.mark.slow
def test_overall_timeout(tmp_path):
    server, pid_file = tmp_path / "slow.py", tmp_path / "pid"
    server.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(3600)\n")
    r = CliRunner().invoke(main, ["probe", "--no-config", "--overall-timeout", "1", "--", sys.executable, str(server)])
    assert r.exit_code == 2 and "overall timeout of 1s" in r.stderr
    # the deadline ended the probe, not the server: it was killed and reaped (its pid no longer exists)
    if pid_file.exists():
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid_file.read_text()), 0)


def test_progress_only_on_a_terminal(monkeypatch):
    import io

    from mcplint.cli.probe import _Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    for stream, shown in ((io.StringIO(), False), (Tty(), True)):
        monkeypatch.setattr(sys, "stderr", stream)
        monkeypatch.delenv("TERM", raising=False)
        p = _Progress()
        p("listing tools under 2025-11-25")
        p.done()
        assert ("listing tools under 2025-11-25" in stream.getvalue()) is shown
