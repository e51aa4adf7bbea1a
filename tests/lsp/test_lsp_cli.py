"""`mcplint server` without the lsp extra: a plain message and exit 2, never a traceback."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from mcplint.cli import main


def test_server_without_the_lsp_extra_says_how_to_install_it(monkeypatch):
    for name in ("pygls", "lsprotocol"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as when not installed
    for name in [m for m in sys.modules if m.startswith("mcplint.lsp")]:
        monkeypatch.delitem(sys.modules, name)
    res = CliRunner().invoke(main, ["server"])
    assert res.exit_code == 2
    assert 'install mcplint with the lsp extra (pip install "mcplint[lsp]")' in res.output
    assert "Traceback" not in res.output
