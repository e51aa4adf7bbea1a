"""The interface every transport of the probe offers (stdio, Streamable HTTP, HTTP+SSE), and
the timeout each raises when a response does not come in time.

:class:`~mcplint.probe.session.Prober` speaks MCP over any :class:`Connection`; a transport
keeps its own state private and shows the session only what is named here."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .wire import ProbeError, Reply


class RequestTimeout(ProbeError):
    """No (complete) response to a request within its timeout; the connection may still be
    usable, as a late answer is kept in :attr:`Connection.late`."""


@runtime_checkable
class Connection(Protocol):
    """One connection to a server, as the probe session uses it."""

    transport: str
    """``stdio``, ``http`` or ``sse``: named in the transcript."""
    noise: list[str]
    """Lines the server wrote where only protocol messages belong (kept verbatim, a few)."""
    noise_count: int
    """How many such lines there were in all."""
    late: dict
    """Responses that came after their request had timed out, by request id."""
    shutdown: str | None
    """How the server ended once closed (stdio), else None."""
    deadline: float | None
    """The probe's overall deadline (``time.monotonic``), which the session sets on an HTTP
    connection: no exchange outlasts it. (Over stdio each wait has its own timeout.)"""

    def new_id(self) -> int:
        """The id of the next request on this connection."""
        ...

    def notify(self, method: str, params: dict | None = None, version: str | None = None) -> None:
        """Send a notification."""
        ...

    def request(self, method: str, params: dict, timeout: float, version: str | None = None,
                what: str | None = None) -> Reply:
        """Send a request and wait for its response (raises :class:`RequestTimeout`)."""
        ...

    def stderr_tail(self) -> str:
        """The server's last lines on stderr, as a suffix for an error message ("" if none)."""
        ...

    def close(self, grace: float = 2.0) -> str | None:
        """End the session politely, then the server; how it ended (stdio), else None."""
        ...

    def kill(self) -> None:
        """End the server (or the connection) at once."""
        ...
