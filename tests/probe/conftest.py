"""Fixtures of the probe's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def http_server():
    import http_server as hs

    servers = []

    def start(*flags):
        srv, url = hs.serve_in_thread(list(flags))
        servers.append(srv)
        return url

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()
