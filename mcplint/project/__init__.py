"""The decoder-safe projection: rewrite a tool's schema into one a target can enforce.

``project_schema(schema, profile)`` returns ``(projected, items)``. Every decision comes
from the profile (:mod:`mcplint.profiles`): a keyword or construct the target enforces is
kept; anything else is rewritten into an equivalent form where one exists, and otherwise
removed or narrowed, with one :class:`Item` per change saying what and where (a pointer
into the INPUT schema). Nothing is changed silently.

Kinds of items, from harmless to serious:

* ``rewritten``  an equivalent form (``oneOf`` of disjoint branches -> ``anyOf``, ``allOf``
  merged, references inlined, ``["T", "null"]`` -> ``nullable``): same accepted values.
* ``removed``    an annotation the target refuses (``$schema`` for Gemini's OpenAPI
  dialect): no accepted value changes.
* ``nullable``   an optional property made required and nullable (OpenAI strict): the model
  sends ``null`` where it would have left the key out; treat ``null`` as absent.
* ``weakened``   a constraint the target cannot express was removed or loosened: the model
  can produce values the original rejects, so validate them against the full schema.
* ``narrowed``   the target cannot express something the original allows (an open object
  is closed with ``additionalProperties: false``; recursion unrolled; an untyped value
  given types): the model can no longer produce some valid values.
* ``target-rewrite`` the target itself still changes the schema (what the profile says).
* ``left-out``   no projection keeps the tool usable (a root that is not an object, a
  limit the target enforces): the tool is left out of the output.

Soundness: every value valid under the input is valid under the projection, except where
an item of kind ``nullable`` or ``narrowed`` says otherwise. Work is iterative and bounded
by :class:`mcplint.config.Bounds` (reference expansions, subschemas).

The steps live in one module each: :mod:`.tree` (the working tree, items), :mod:`.refs`,
:mod:`.root`, :mod:`.combine`, :mod:`.keywords`, :mod:`.structure`, :mod:`.soundness`
(checking the result), run by :mod:`.projector`; :mod:`.document` projects whole
documents. The names below are the package's API.
"""

from __future__ import annotations

from .document import DocumentProjection, ToolOutcome, project_document
from .projector import project_schema, to_validation_schema
from .tree import CHANGES, DEFAULT_UNROLL, HIDDEN, KINDS, KW_ORIGIN, ORIGIN, Item, strip

__all__ = ["CHANGES", "DEFAULT_UNROLL", "HIDDEN", "KINDS", "KW_ORIGIN", "ORIGIN", "DocumentProjection", "Item",
           "ToolOutcome", "project_document", "project_schema", "strip", "to_validation_schema"]
