"""What the CFG rules share: the servers of a client configuration, and the client's name."""

from __future__ import annotations

from ...model import Pointer
from ...clientconfig import describe, server_entries


def servers(coll):
    """(client, name, settings, pointer) of each server of a client configuration (nothing for
    any other document)."""
    if coll.shape != "client-config":
        return
    for name, entry, ptr in server_entries(coll.client, coll.doc.data):
        yield coll.client, name, entry, Pointer(ptr)


def client_name(client: str) -> str:
    return describe(client)
