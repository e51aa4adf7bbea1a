"""What the evaluator needs to know about a schema slot that does not depend on the
profile: :class:`SlotFacts` (the subschemas walked once, per-node measurements, the
``$ref`` index, references in a cycle, remote references, the first meta-schema error)
and :func:`regex_features` (which constructs a ``pattern`` uses).

Computed once per slot and shared by every profile evaluated on it; a profile's
decisions live in :mod:`.evaluate`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..model import Pointer

_REGEX_FEATURES = {
    "lookaround": re.compile(r"\(\?<?[=!]"),
    "backreference": re.compile(r"(?<!\\)(?:\\\\)*\\([1-9]|k<)"),
    "word_boundary": re.compile(r"(?<!\\)(?:\\\\)*\\[bB]"),
    "unicode_property": re.compile(r"(?<!\\)(?:\\\\)*\\[pP]\{"),
    "lazy_quantifier": re.compile(r"(?<!\\)(?:[*+?]|\})\?"),
}
_REPEAT = re.compile(r"(?<!\\)\{(\d+)(?:,(\d*))?\}")


def regex_features(pattern: str, threshold: int = 100) -> list[str]:
    """Which constructs a decoder may not support appear in ``pattern`` (approximate, no parsing)."""
    out = [name for name, rx in _REGEX_FEATURES.items() if rx.search(pattern)]
    for m in _REPEAT.finditer(pattern):
        hi = m.group(2)
        if int(m.group(1)) > threshold or (hi and int(hi) > threshold):
            out.append("large_repetition")
            break
    starts, ends = pattern.startswith("^"), pattern.endswith("$") and not pattern.endswith("\\$")
    if not (starts and ends):
        out.append("unanchored")
        if starts or ends:
            out.append("partial_anchor")
    if not python_re_compiles(pattern):
        out.append("python_re_invalid")
    if gbnf_escape(pattern):
        out.append("gbnf_escape")
    return out


@lru_cache(maxsize=4096)
def python_re_compiles(pattern: str) -> bool:
    """Whether Python's own ``re`` (the one mcplint runs on) compiles ``pattern``. Hosted APIs
    that check ``pattern`` as ``format: regex`` with Python's ``re`` refuse what it cannot
    compile: ``\\p{..}``, ``(?<name>..)``, ``\\z`` (before Python 3.14), ``\\u{..}``."""
    import warnings

    try:
        with warnings.catch_warnings():  # re warns (FutureWarning) on [[a] and the like: compiling is the question
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError):
        return False
    return True


# llama.cpp json-schema-to-grammar: escapes its pattern translation keeps (gbnf_escape_length)
# and the metacharacters it unescapes outside a character class (ESCAPED_IN_REGEXPS_BUT_NOT_IN_LITERALS).
_GBNF_ESCAPES = frozenset("trn\\\"[]-")
_GBNF_HEX = {"x": 2, "u": 4, "U": 8}
_REGEX_META = frozenset("^$.[]()|{}*+?")


def gbnf_escape(pattern: str) -> str | None:
    """The first backslash escape llama.cpp cannot carry into its grammar (``\\d``, ``\\w``,
    ``\\s``, ``\\/``, ...), or None."""
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                return "\\"
            nxt = pattern[i + 1]
            if nxt in _GBNF_HEX:
                k = _GBNF_HEX[nxt]
                digits = pattern[i + 2:i + 2 + k]
                if len(digits) != k or any(ch not in "0123456789abcdefABCDEF" for ch in digits):
                    return pattern[i:i + 2]
                i += 2 + k
                continue
            if nxt in _GBNF_ESCAPES or (not in_class and nxt in _REGEX_META):
                i += 2
                continue
            return pattern[i:i + 2]
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        i += 1
    return None


def _recursive_refs(schema: Any, idx=None) -> list[tuple]:
    """Pointers (relative) of ``$ref`` keywords that take part in a reference cycle."""
    from ..refs import index, resolve

    idx = idx if idx is not None else index(schema)
    targets: dict = {}
    for r in idx.refs:
        if r.keyword != "$ref":
            continue
        res = resolve(r, idx, schema)
        if res is not None:
            targets[r.pointer] = tuple(res[0])
    if not targets:
        return []

    def inside(loc: tuple, root: tuple) -> bool:
        return loc[:len(root)] == root

    # edges between targets: T -> targets of refs located inside T
    tset = set(targets.values())
    edges = {t: {targets[r] for r in targets if inside(r[:-1], t)} for t in tset}
    out = []
    for r, t in targets.items():
        seen, stack = set(), [t]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack.extend(edges.get(x, ()))
            if len(seen) > 10_000:
                break
        if any(inside(r[:-1], x) for x in seen):
            out.append(r)
    return out


_LEVEL_KEYS = frozenset({"properties", "items", "additionalProperties", "prefixItems"})


class SlotFacts:
    """What :func:`evaluate_slot` needs to know about one schema slot that does not depend on
    the profile: its subschemas (walked once), its ``$ref`` index, the references that take
    part in a cycle, its first meta-schema error. Computed on first use and shared when the
    same slot is evaluated for several profiles (pass ``facts=`` to :func:`evaluate_slot`).
    The schema must not change while a ``SlotFacts`` for it is in use."""

    __slots__ = ("schema", "max_nodes", "_subs", "_nodes", "_index", "_recursive", "_remote", "_meta_err", "complete")

    def __init__(self, schema: Any, max_nodes: int = 20_000):
        self.schema = schema
        self.max_nodes = max_nodes
        self._subs = self._nodes = self._index = self._recursive = self._remote = None
        self._meta_err = _UNSET
        self.complete = False  # set by subs: whether it holds every subschema (none beyond max_nodes)

    @property
    def subs(self) -> list:
        """The dict nodes among the first ``max_nodes`` subschemas, as (pointer, node, via)."""
        if self._subs is None:
            from ..schemawalk import subschemas

            out = []
            self.complete = True
            for i, sub in enumerate(subschemas(self.schema)):
                if i >= self.max_nodes:
                    self.complete = False
                    break
                if isinstance(sub[1], dict):
                    out.append((sub[0], sub[1], sub[3]))
            self._subs = out
        return self._subs

    @property
    def nodes(self) -> list:
        """Per dict node, everything about it no profile changes: (pointer, node, via, at root,
        type value, type names, is object, is array, nesting level (0 unless object/array),
        holds a reference keyword, properties count, string budget, enum is a list, enum count,
        string enum values, their total length)."""
        if self._nodes is None:
            out = []
            for rel, node, via in self.subs:
                t = node.get("type")
                types = {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)} \
                    if isinstance(t, list) else set()
                is_obj = "object" in types or (not types and "properties" in node)
                is_arr = "array" in types
                lv = 0
                if is_obj or is_arr:
                    lv = 1
                    for p in rel:
                        if p in _LEVEL_KEYS:
                            lv += 1
                n_props = budget = n_enum = n_strs = strs_total = 0
                props = node.get("properties")
                if isinstance(props, dict):
                    n_props = len(props)
                    budget += sum(len(str(k)) for k in props)
                for dk in ("$defs", "definitions"):
                    defs = node.get(dk)
                    if isinstance(defs, dict):
                        budget += sum(len(str(k)) for k in defs)
                enum = node.get("enum")
                enum_list = isinstance(enum, list)
                if enum_list:
                    n_enum = len(enum)
                    strs = [v for v in enum if isinstance(v, str)]
                    n_strs, strs_total = len(strs), sum(len(v) for v in strs)
                    budget += strs_total
                const = node.get("const")
                if isinstance(const, str):
                    budget += len(const)
                has_ref = "$ref" in node or "$dynamicRef" in node or "$recursiveRef" in node
                out.append((rel, node, via, rel == (), t, types, is_obj, is_arr, lv, has_ref, n_props, budget,
                            enum_list, n_enum, n_strs, strs_total))
            self._nodes = out
        return self._nodes

    @property
    def index(self):
        if self._index is None:
            from ..refs import index

            self._index = index(self.schema)
        return self._index

    @property
    def recursive_refs(self) -> list:
        """(pointer, value) of each ``$ref`` that takes part in a cycle."""
        if self._recursive is None:
            schema = self.schema
            self._recursive = [(ptr, Pointer(ptr[:-1]).resolve_in(schema)["$ref"])
                               for ptr in _recursive_refs(schema, self.index)]
        return self._recursive

    @property
    def remote_refs(self) -> list:
        """Each reference that does not resolve inside the slot."""
        if self._remote is None:
            from ..refs import is_local

            idx = self.index
            self._remote = [r for r in idx.refs if not is_local(r, idx)]
        return self._remote

    @property
    def metaschema_error(self):
        if self._meta_err is _UNSET:
            self._meta_err = _metaschema_error(self.schema)
        return self._meta_err


_UNSET = object()


def _metaschema_error(schema: Any):
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    err = best_match(_metaschema_validator().iter_errors(schema))
    if err is None:
        return None
    return tuple(err.absolute_path), err.message


@lru_cache(maxsize=1)
def _metaschema_validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)
