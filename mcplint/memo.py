"""What the rules of one collection work out once and share, instead of module-level caches.

The engine makes one :class:`Memo` for each collection it lints, hands it to every rule
through the rule's context (``ctx.memo``) and drops it when the collection's rules are done,
so nothing a rule kept outlives the lint call, and a rule's findings depend only on its target
and its context (not on which other rules ran before it). Two areas, each a plain dict read
and written under a named key (the ``*_KEY`` constants of the module that owns the entry),
and the walks:

- ``target``: emptied by the engine before the rules of each target (a tool, a slot, the
  document) run; what several rules of one slot or one tool share (a walk, an analysis);
- ``collection``: kept for every target of the collection; what a later target reads again
  (each slot's profile evaluation, read again by the request limits of the document);
- ``walks``: the schema walks (and ``marshal`` encodings) of the last few schemas read
  (:class:`mcplint.schemawalk.SharedWalks`, which a rule reads as ``ctx.walks``): every rule
  family walking a slot, and the engine asking what words the slot holds, share one.

Entries may be keyed by ``id()`` of a value of the collection (a schema, a profile): those
values live at least as long as the memo. A value that may be made and dropped during the
run (a rule object a fallback derives) is stored beside its entry and compared with ``is``.
"""

from __future__ import annotations

from .schemawalk import SharedWalks


class Memo:
    """One collection's shared results (see the module's docstring)."""

    __slots__ = ("target", "collection", "walks", "__weakref__")

    def __init__(self) -> None:
        self.target: dict = {}
        self.collection: dict = {}
        self.walks = SharedWalks()

    def next_target(self) -> None:
        """Forget what the rules of the previous target shared."""
        if self.target:
            self.target.clear()

    def forget(self) -> None:
        """Forget everything (the engine, when the collection's rules are done)."""
        self.target.clear()
        self.collection.clear()
        self.walks.clear()

    def table(self, key: str) -> dict:
        """The collection-wide dict kept under ``key`` (made empty on first use)."""
        found = self.collection.get(key)
        if found is None:
            found = self.collection[key] = {}
        return found
