"""PRB: what a live server did while ``mcplint probe`` talked to it.

These rules read the probe transcript that ``mcplint probe`` attaches to the captured
document (``Document.capture``'s ``transcripts``: ``{version: transcript}``, see
:mod:`mcplint.probe.transcript`). On a file given to ``scan`` there is no transcript and
they stay silent. Each runs once per protocol version the capture was seen under.

Modules, by what the rules look at: :mod:`.transport` (stdout noise, shutdown),
:mod:`.handshake` (the handshake result and capabilities), :mod:`.pagination`
(``tools/list`` pages), :mod:`.versions` (differences between protocol versions),
:mod:`.calls` (``tools/call`` with invalid arguments), :mod:`.negotiation` and
:mod:`.paired` (the JSON Structure schema binding); :mod:`.common` holds what they share.
"""

from __future__ import annotations

from . import calls, handshake, negotiation, paired, pagination, transport, versions  # noqa: F401  (registers the rules)
