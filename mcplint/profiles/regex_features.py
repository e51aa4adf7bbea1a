"""The regex features a profile can rule on (``keywords: {pattern: {regex: {FEATURE: rule}}}``):
a registry of small detectors (:data:`REGEX_FEATURES`), one per feature, each registered with
:func:`feature` and a line of documentation. :func:`regex_features` lists those a ``pattern``
uses. The ``regex`` property names of ``mcplint/data/profile.schema.json`` and the table of
regex features in ``docs/profiles.md`` are generated from the registry
(``scripts/gen_profile_vocabulary.py``) and tested against it.

Approximate, without parsing the pattern. A *dialect* feature depends on one target's regex
engine rather than on a construct most engines share; the evaluator asks for those only when a
profile has a rule for one of them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, NamedTuple


class RegexFeature(NamedTuple):
    name: str
    doc: str  # what it finds, for docs/profiles.md
    detect: Callable[[str, int], bool]  # (pattern, repetition threshold) -> whether the pattern uses it
    dialect: bool


REGEX_FEATURES: dict[str, RegexFeature] = {}  # in the order regex_features lists them


def feature(name: str, doc: str, *, dialect: bool = False):
    """Register the decorated ``detect(pattern, threshold) -> bool`` as the regex feature ``name``."""
    def register(detect: Callable[[str, int], bool]) -> Callable[[str, int], bool]:
        if name in REGEX_FEATURES:
            raise ValueError(f"regex feature {name!r} registered twice")
        REGEX_FEATURES[name] = RegexFeature(name, doc, detect, dialect)
        return detect
    return register


def regex_features(pattern: str, threshold: int = 100, dialect: bool = False) -> list[str]:
    """Which features a decoder may not support appear in ``pattern`` (with ``dialect``, the
    dialect features too), in the registry's order."""
    return [f.name for f in REGEX_FEATURES.values() if (dialect or not f.dialect) and f.detect(pattern, threshold)]


@lru_cache(maxsize=4096)
def has_lookaround(pattern: str) -> bool:
    """A group opening with (?=, (?!, (?<= or (?<! outside a character class and not escaped: the
    lookaround an engine sees ('[(?=]' and '\\(?=' hold none)."""
    from ..redos.tree import outside_classes

    for i, ch in outside_classes(pattern):
        if ch == "(" and pattern.startswith("?", i + 1):
            rest = pattern[i + 2:i + 4]
            if rest[:1] in ("=", "!") or rest in ("<=", "<!"):
                return True
    return False


feature("lookaround", "a lookahead or lookbehind group: `(?=`, `(?!`, `(?<=`, `(?<!`")(
    lambda pattern, threshold: has_lookaround(pattern))


def _search(rx: str) -> Callable[[str, int], bool]:
    compiled = re.compile(rx)
    return lambda pattern, threshold: compiled.search(pattern) is not None


feature("backreference", "a backreference: `\\1` to `\\9`, `\\k<name>`")(_search(r"(?<!\\)(?:\\\\)*\\([1-9]|k<)"))
feature("word_boundary", "a word boundary: `\\b`, `\\B`")(_search(r"(?<!\\)(?:\\\\)*\\[bB]"))
feature("unicode_property", "a Unicode property class: `\\p{..}`, `\\P{..}`")(_search(r"(?<!\\)(?:\\\\)*\\[pP]\{"))
feature("lazy_quantifier", "a lazy quantifier: `*?`, `+?`, `??`, `{n,m}?`")(_search(r"(?<!\\)(?:[*+?]|\})\?"))

_REPEAT = re.compile(r"(?<!\\)\{(\d+)(?:,(\d*))?\}")


@feature("large_repetition", "a repetition bound above the rule's `threshold` (default 100): `{500}`, `{1,500}`")
def _large_repetition(pattern: str, threshold: int) -> bool:
    for m in _REPEAT.finditer(pattern):
        hi = m.group(2)
        if int(m.group(1)) > threshold or (hi and int(hi) > threshold):
            return True
    return False


def _anchors(pattern: str) -> tuple[bool, bool]:
    return pattern.startswith("^"), pattern.endswith("$") and not pattern.endswith("\\$")


@feature("unanchored", "the pattern does not both start with `^` and end with `$` (a target that anchors every "
         "pattern matches less)")
def _unanchored(pattern: str, threshold: int) -> bool:
    starts, ends = _anchors(pattern)
    return not (starts and ends)


@feature("partial_anchor", "the pattern is anchored at one end only")
def _partial_anchor(pattern: str, threshold: int) -> bool:
    starts, ends = _anchors(pattern)
    return starts != ends


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


feature("python_re_invalid", "Python's own `re` cannot compile the pattern (OpenAI checks patterns with it)")(
    lambda pattern, threshold: not python_re_compiles(pattern))

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


feature("gbnf_escape", "an escape llama.cpp's grammar cannot carry: `\\d`, `\\w`, `\\s`, `\\/`, ...")(
    lambda pattern, threshold: gbnf_escape(pattern) is not None)

_INLINE_MODIFIER = re.compile(r"(?<!\\)(?:\\\\)*\(\?[a-zA-Z]*-?[a-zA-Z]+[:)]")
feature("inline_modifier", "an inline modifier: `(?i)`, `(?i:..)` (a dialect feature)", dialect=True)(
    lambda pattern, threshold: _INLINE_MODIFIER.search(pattern) is not None)


def doc_table() -> str:
    """The table of regex features in docs/profiles.md, from the registry."""
    rows = ["| regex feature | found when |", "|---|---|"]
    rows += [f"| `{f.name}` | {f.doc} |" for f in REGEX_FEATURES.values()]
    return "\n".join(rows) + "\n"
