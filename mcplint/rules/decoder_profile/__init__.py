"""DEC: what each selected decoder profile does with a tool's schema.

These rules carry no facts of their own: every decision comes from the profile YAML
(``mcplint/profiles/``). They run once per profile chosen with ``--profile`` (or the
``profiles`` config key); with no profile selected they never run.

Modules: :mod:`.slots` (what a profile does with one schema slot), :mod:`.tools` (a tool's
name and description), :mod:`.request` (limits on one request of all tools); :mod:`.common`
holds the shared per-slot evaluation.
"""

from __future__ import annotations

from . import request, slots, tools  # noqa: F401  (registers the rules)
