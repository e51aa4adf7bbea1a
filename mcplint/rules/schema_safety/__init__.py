"""SEC: safety of processing a schema from an untrusted server (SEP-2106; JSON Structure
MCP binding §5.3 and §10): references that would need fetching, references that cannot
be resolved or loop forever, resource bounds, and regular expressions.

Every rule here reads one shared, bounded analysis of the slot (:func:`.common.analysis`): one
walk that stops counting at the subschema bound, so a hostile schema costs at most
``max_subschemas`` steps before the remaining checks stand down.

The rules, by what they look at:

* :mod:`.references`: references outside the slot, unresolvable, looping or recursive (SEC101-SEC104);
* :mod:`.bounds`: depth, subschema count, enum size, serialized size, reference expansion (SEC105-SEC109);
* :mod:`.patterns`: regular expressions, ECMA-262 validity, ReDoS, length, the `u` flag (SEC110-SEC113).

The reference graph (classification, cycles, expansion count) is :mod:`.refgraph`.
"""

from __future__ import annotations

from . import bounds, patterns, references  # noqa: F401  (importing a module registers its rules)
