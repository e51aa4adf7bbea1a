"""SCH: JSON Schema validity, and likely mistakes that a valid schema can still hold.

Every rule runs on one schema slot (``inputSchema``/``outputSchema``) read in its dialect
(:func:`mcplint.dialects.dialect_of`): 2020-12 when ``$schema`` is absent, else the declared
JSON Schema dialect. Slots in a JSON Structure dialect belong to the JST family and are skipped
here; slots in an unknown dialect are reported by SCH102 and not read at all. Subschemas are
walked with :mod:`mcplint.schemawalk`; the validation engine lives in :mod:`mcplint.metaschema`.

The rules, by what they look at:

* :mod:`.dialect`: the slot against its dialect's meta-schema, and the dialect itself (SCH101, SCH102);
* :mod:`.keywords`: keywords and formats the dialect does not define, usually misspelt (SCH103, SCH110);
* :mod:`.habits`: habits carried over from OpenAPI 3.0 and draft-3 (SCH104, SCH105);
* :mod:`.shape`: valid schemas that still say too little or too much (SCH106, SCH107, SCH108, SCH111);
* :mod:`.values`: defaults, enum members, consts and examples against their own schema (SCH109);
* :mod:`.portability`: boolean subschemas, type unions, untyped subschemas (SCH112-SCH114).

The walk every rule shares, the keyword vocabularies and the message helpers are in :mod:`.common`.
"""

from __future__ import annotations

from . import dialect, habits, keywords, portability, shape, values  # noqa: F401  (importing a module registers its rules)
