"""Which ``$schema`` values select JSON Structure, and what each meta-schema activates.

Binding §3.1 lists four recognised meta-schema URIs and leaves the list open to any
meta-schema the processor knows that builds on them; mcplint also knows the relations
meta-schema (it imports the extended one). The offered / default-active add-ins of each
meta-schema are read from the meta-schema documents shipped in ``mcplint/data`` (their
``$offers`` and ``$uses``), never fetched.

(Temporary home: a project-wide dialect table is planned in ``mcplint/dialects.py``;
this list moves there when both exist.)
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..dialects import JSON_STRUCTURE_URIS  # the one list of recognised URIs (binding §3.1)

CORE, EXTENDED, VALIDATION, SEMANTIC, RELATIONS = JSON_STRUCTURE_URIS

# URI -> meta-schema file under mcplint/data/json-structure/meta/ (".../meta/<name>/v0/#")
META_SCHEMA_URIS = {uri: uri.split("/meta/", 1)[1].split("/", 1)[0] for uri in JSON_STRUCTURE_URIS}

IMPORT = "JSONStructureImport"
VALIDATION_ADDIN = "JSONStructureValidation"
COMPOSITION = "JSONStructureConditionalComposition"
ALTNAMES = "JSONStructureAlternateNames"
UNITS = "JSONStructureUnits"
SEMANTIC_ADDIN = "JSONStructureSemanticAnnotations"
RELATIONS_ADDIN = "JSONStructureRelations"

KNOWN_ADDINS = (VALIDATION_ADDIN, COMPOSITION, ALTNAMES, UNITS, IMPORT, SEMANTIC_ADDIN, RELATIONS_ADDIN)


def _variants(uri: str) -> set[str]:
    """A URI with and without its empty fragment (``…/v0/#`` and ``…/v0/``)."""
    return {uri, uri.rstrip("#")}


_LOOKUP = {v: uri for uri in META_SCHEMA_URIS for v in _variants(uri)}


def canonical(uri) -> str | None:
    """The recognised meta-schema URI ``uri`` denotes, or None."""
    return _LOOKUP.get(uri) if isinstance(uri, str) else None


def is_jstruct(schema) -> bool:
    """True when ``schema`` is a JSON Structure schema under the binding (§3.1):
    an object whose ``$schema`` is a recognised meta-schema URI."""
    return isinstance(schema, dict) and canonical(schema.get("$schema")) is not None


@lru_cache(maxsize=None)
def _meta(name: str) -> dict:
    from importlib import resources  # only when a meta-schema is read: its import pulls in tempfile, shutil

    text = resources.files("mcplint").joinpath("data", "json-structure", "meta", name, "v0", "index.json") \
        .read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def offered(uri: str) -> frozenset:
    """Add-ins a schema selecting ``uri`` may activate: the ``$offers`` of the meta-schema
    and of the meta-schemas it imports, plus those it activates itself."""
    out: set = set()
    seen: set = set()
    cur = canonical(uri)
    while cur and cur not in seen:
        seen.add(cur)
        meta = _meta(META_SCHEMA_URIS[cur])
        out |= set((meta.get("$offers") or {}).keys())
        out |= set(meta.get("$uses") or [])
        cur = canonical(meta.get("$import"))
    return frozenset(out)


@lru_cache(maxsize=None)
def default_active(uri: str) -> frozenset:
    """Add-ins active by default under ``uri`` (binding §3.1 table).

    The validation meta-schema activates every add-in it lists in its own ``$uses``. The
    extended, relations and semantic-annotations meta-schemas only *offer* add-ins: each
    must be named in the schema's own ``$uses`` (their ``$uses`` lists what the meta-schema
    document itself needs, not what it turns on for schemas that select it).
    """
    cur = canonical(uri)
    if cur == VALIDATION:
        return frozenset(_meta("validation").get("$uses") or [])
    return frozenset()


def active_addins(schema: dict) -> frozenset:
    """Add-ins in force for a JSON Structure schema: the meta-schema's defaults plus the
    offered add-ins named in the root ``$uses``."""
    uri = schema.get("$schema")
    uses = schema.get("$uses")
    named = {u for u in uses if isinstance(u, str)} if isinstance(uses, list) else set()
    return default_active(uri) | (named & offered(uri))
