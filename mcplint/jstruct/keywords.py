"""JSON Structure vocabulary: type names and the keywords of Core and each add-in."""

from __future__ import annotations

from functools import lru_cache

from . import dialects as d

JSON_PRIMITIVES = frozenset({"string", "number", "integer", "boolean", "null"})
EXTENDED_PRIMITIVES = frozenset({
    "binary", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "int128", "uint128",
    "float8", "float", "double", "decimal", "date", "datetime", "time", "duration", "uuid", "uri", "jsonpointer",
})
PRIMITIVES = JSON_PRIMITIVES | EXTENDED_PRIMITIVES
COMPOUND = frozenset({"object", "array", "set", "map", "tuple", "any", "choice"})
TYPES = PRIMITIVES | COMPOUND

# Types Core represents as JSON strings because they exceed exact double precision (§7).
STRING_ENCODED_NUMBERS = frozenset({"int64", "uint64", "int128", "uint128", "decimal"})
INT_RANGES = {
    "int8": (-2**7, 2**7 - 1), "uint8": (0, 2**8 - 1), "int16": (-2**15, 2**15 - 1), "uint16": (0, 2**16 - 1),
    "int32": (-2**31, 2**31 - 1), "integer": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1), "int128": (-2**127, 2**127 - 1),
    "uint128": (0, 2**128 - 1),
}
NUMERIC = frozenset(INT_RANGES) | {"number", "float8", "float", "double", "decimal"}
# Types that look like nothing in JSON Schema: seeing one in a slot without $schema means JSON Structure.
JSTRUCT_ONLY_TYPES = (PRIMITIVES - JSON_PRIMITIVES) | frozenset({"set", "map", "tuple", "any", "choice"})

ROOT_ONLY = frozenset({"$schema", "$id", "$root", "$uses", "$offers", "definitions"})
CORE_KEYWORDS = frozenset({
    "type", "properties", "required", "items", "values", "const", "enum", "additionalProperties", "choices",
    "selector", "tuple", "maxLength", "precision", "scale", "contentEncoding", "contentCompression",
    "contentMediaType", "description", "examples", "name", "abstract", "$extends", "$ref", "$comment",
    "title",
}) | ROOT_ONLY

ADDIN_KEYWORDS = {
    d.VALIDATION_ADDIN: frozenset({
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "pattern",
        "format", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
        "minProperties", "maxProperties", "minEntries", "maxEntries", "dependentRequired", "patternProperties",
        "patternKeys", "propertyNames", "keyNames", "has", "default",
    }),
    d.COMPOSITION: frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else"}),
    d.ALTNAMES: frozenset({"altnames", "altenums", "descriptions", "altsymbols"}),
    d.UNITS: frozenset({"unit", "symbol", "symbols", "currency"}),
    d.IMPORT: frozenset({"$import", "$importdefs"}),
    d.RELATIONS_ADDIN: frozenset({"identity", "relations"}),
    d.SEMANTIC_ADDIN: frozenset({
        "concepts", "observedProperty", "semanticRole", "derivation", "statistic", "phenomenonTimeRelation",
        "supportPeriod", "temporalReferenceSystem", "cadence", "referenceRole", "codedValues",
        "measurementConditioning", "coordinateReferenceSystem", "vectorReferenceFrames", "tensorReferenceFrames",
        "frameTransforms", "linearReferenceSystem", "colorSpaces", "audioChannels", "spectralBands",
    }),
}
KEYWORD_ADDIN = {kw: addin for addin, kws in ADDIN_KEYWORDS.items() for kw in kws}
KNOWN_KEYWORDS = CORE_KEYWORDS | frozenset(KEYWORD_ADDIN)

# keyword -> how it holds schemas (JSON Structure, not JSON Schema)
SCHEMA_ONE = frozenset({"items", "values", "contains", "has", "not", "if", "then", "else", "propertyNames",
                        "keyNames"})
SCHEMA_MANY = frozenset({"allOf", "anyOf", "oneOf"})
SCHEMA_MAP = frozenset({"properties", "choices", "patternProperties", "patternKeys"})
# additionalProperties: bool or schema; definitions: namespace tree; type: name, {"$ref"} or a union list
DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})

IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"


@lru_cache(maxsize=4096)
def near_miss(word: str) -> str | None:
    """The known keyword ``word`` is probably a misspelling of, or None.

    Core allows unknown keywords as custom annotations, so only a near miss of a known
    keyword (different case, or one or two edits away) is taken as a typo.
    """
    if word in KNOWN_KEYWORDS or len(word) < 4:
        return None
    low = word.lower()
    for kw in KNOWN_KEYWORDS:
        if kw.lower() == low:
            return kw
    best = None
    for kw in KNOWN_KEYWORDS:
        if abs(len(kw) - len(word)) > 2 or len(kw) < 5:
            continue
        dist = _distance(low, kw.lower(), 2)
        if dist <= (1 if len(kw) < 7 else 2) and (best is None or dist < best[0]):
            best = (dist, kw)
    return best[1] if best else None


def _distance(a: str, b: str, cap: int) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance, giving up above ``cap``."""
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > cap:
            return cap + 1
        prev2, prev = prev, cur
    return prev[-1]
