"""Check a server's JSON Schema fallback against its JSON Structure schema (binding §4.1).

Pure: the probe captures both slots (one client with the extension, one without) and
calls :func:`check_fallback`; nothing here talks to a server or the network.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .dialects import is_jstruct
from .generate import instances
from .instance import validate_instance
from ..problems import Problem

JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def check_fallback(jstruct_schema: dict, fallback_schema: Any, samples: int = 200, seed: int = 0) -> list[Problem]:
    """Problems with ``fallback_schema`` as the §4.1 projection of ``jstruct_schema``.

    * the fallback must be JSON Schema 2020-12 (``$schema`` absent or the 2020-12 URI)
      and a valid schema of that dialect, not JSON Structure;
    * it must accept every instance the JSON Structure schema accepts: ``samples``
      generated instances (seeded, so a run is repeatable) that the JSON Structure schema
      accepts are validated against the fallback, and each one it rejects is reported
      with the instance and the fallback's error.

    Pointers are relative to the fallback slot. Empty list: no problem found.
    """
    import jsonschema
    from referencing import Registry

    out: list[Problem] = []
    if not isinstance(fallback_schema, (dict, bool)):
        return [Problem((), "type", "the fallback slot must hold a JSON Schema (an object)")]
    if is_jstruct(fallback_schema):
        return [Problem(("$schema",), "$schema", "the fallback is itself JSON Structure; a client without the "
                                                 "extension must receive JSON Schema 2020-12")]
    if isinstance(fallback_schema, dict) and "$schema" in fallback_schema and \
            fallback_schema["$schema"].rstrip("#") != JSON_SCHEMA_2020_12:
        out.append(Problem(("$schema",), "$schema", f"the fallback selects {fallback_schema['$schema']!r}; "
                                                    "the binding requires JSON Schema 2020-12"))
        return out
    try:
        jsonschema.Draft202012Validator.check_schema(fallback_schema)
    except jsonschema.SchemaError as e:
        return [Problem(tuple(e.absolute_path), str(e.validator), f"the fallback is not valid JSON Schema: {e.message}")]
    # An empty registry: a reference that leaves the document fails instead of being fetched.
    validator = jsonschema.Draft202012Validator(fallback_schema, registry=Registry())
    rnd = random.Random(seed)
    reported = 0
    seen: set = set()
    for inst in instances(jstruct_schema, rnd, samples):
        if validate_instance(jstruct_schema, inst):
            continue  # not an instance of the JSON Structure schema: says nothing about the fallback
        try:
            err = next(iter(validator.iter_errors(inst)), None)
        except Exception as e:  # an unresolvable reference, a bad regex...
            out.append(Problem((), "$ref", f"the fallback could not be evaluated: {type(e).__name__}: {e}"))
            break
        if err is not None:
            shown = json.dumps(inst)[:200]
            if shown in seen:
                continue
            seen.add(shown)
            out.append(Problem(tuple(err.absolute_schema_path)[:-1], str(err.validator),
                               f"the fallback rejects {shown}, which the JSON Structure schema accepts "
                               f"({err.message})"))
            reported += 1
            if reported >= 5:
                break
    return out
