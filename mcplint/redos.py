"""Regular expressions from untrusted schemas: ECMA-262 validity and catastrophic backtracking.

JSON Schema ``pattern`` and ``patternProperties`` are ECMA-262 regular expressions, a
dialect Python's ``re`` does not implement. Validity is decided by ``regress`` (Rust's
ECMA-262 engine), once without and once with the ``u`` flag that JSON Schema 2020-12
recommends and validators such as Ajv use by default.

The backtracking check is a static analysis of the pattern's structure (see
:func:`analyse`): it looks for the two shapes that make a backtracking matcher take
exponential time, and for the shape that makes it polynomial:

* a quantified group whose body can match the same text in more than one way because
  it contains an unbounded repetition and the rest of the body is optional or made of
  characters that repetition also matches: ``(a+)+``, ``(\\w+\\s?)*``, ``(.*a){12}``;
* an alternation under a quantifier whose branches can start with the same character,
  or one of which matches the empty string: ``(a|aa)+``, ``(\\w|\\d)*``, ``(a|a?)+``;
* two unbounded repetitions in a row over overlapping characters with nothing that
  must differ between them: ``\\d+\\d+``, ``.*a.*a.*b`` (polynomial).

The structure comes from Python's own regular-expression parser run on an
ECMA-to-Python transliteration of the pattern; a pattern it cannot read is not
analysed (no finding), never guessed at. Results are cached per pattern string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

try:  # Python 3.11+
    import re._parser as _sre  # type: ignore[import-not-found]
    import re._constants as _c  # type: ignore[import-not-found]
except ImportError:  # Python 3.10
    import sre_parse as _sre  # type: ignore[no-redef]
    import sre_constants as _c  # type: ignore[no-redef]

MAXREPEAT = _c.MAXREPEAT
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT}
if hasattr(_c, "POSSESSIVE_REPEAT"):
    _REPEATS.add(_c.POSSESSIVE_REPEAT)


# --------------------------------------------------------------------- validity

@dataclass(frozen=True)
class Validity:
    ok: bool  # valid ECMA-262 without flags (Annex B syntax included)
    unicode_ok: bool  # valid with the u flag
    error: str = ""
    unicode_error: str = ""


@lru_cache(maxsize=4096)
def validity(pattern: str) -> Validity:
    import regress  # lazily: only schemas with patterns pay for it

    try:
        regress.Regex(pattern)
        ok, err = True, ""
    except Exception as e:  # regress.RegressError
        ok, err = False, str(e)
    try:
        regress.Regex(pattern, "u")
        uok, uerr = True, ""
    except Exception as e:
        uok, uerr = False, str(e)
    return Validity(ok, uok, err, uerr)


# --------------------------------------------------------------------- backtracking

# Representative characters: every character class is reduced to the subset of these
# it matches, plus every literal the pattern names. Two sets overlap when they share one.
_REPS = ("a", "z", "A", "Z", "0", "9", "_", " ", "\t", "\n", "\r", "-", ".", "/", "@", ":", "!", "\\",
         "é", "ß", "中", "\u2028", "\u00a0", "+", "=", ",", ";", "#")


@dataclass(frozen=True)
class Risk:
    kind: str  # "exponential" | "polynomial"
    why: str


def _to_python(pattern: str) -> str:
    """Enough ECMA-262 -> Python syntax for structure analysis (not for matching)."""
    out = pattern.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    out = re.sub(r"\\[pP]\{[^}]*\}", r"\\w", out)  # Unicode properties: a letter-like class
    out = out.replace("[^]", "[\\s\\S]").replace("[]", "(?!)")
    out = re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda m: "\\U%08x" % int(m.group(1), 16), out)
    out = re.sub(r"\\c[A-Za-z]", "x", out)
    return _keep_alternatives(out)


def _keep_alternatives(pattern: str) -> str:
    """Python's parser merges single-character alternatives (``\\w|\\d`` becomes one class),
    which hides their overlap; an empty lookahead after each ``|`` keeps them apart."""
    if "|" not in pattern:
        return pattern
    out = []
    in_class = escaped = False
    for ch in pattern:
        out.append(ch)
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "|":
            out.append("(?=)")
    return "".join(out)


class _Analyser:
    def __init__(self, parsed):
        lits = set()
        stack = [parsed]
        while stack:
            seq = stack.pop()
            for op, av in seq:
                if op in (_c.LITERAL, _c.NOT_LITERAL):
                    lits.add(chr(av))
                elif op is _c.IN:
                    for iop, iav in av:
                        if iop in (_c.LITERAL, _c.NOT_LITERAL):
                            lits.add(chr(iav))
                        elif iop is _c.RANGE:
                            lits.update((chr(iav[0]), chr(iav[1])))
                for sub in _subseqs(op, av):
                    stack.append(sub)
        self.alphabet = tuple(sorted(set(_REPS) | lits))
        self.risks: list[Risk] = []

    # first: characters an item can start with; all: characters it can contain
    def item_sets(self, op, av, rev: bool = False) -> tuple[frozenset, frozenset, bool]:
        """(first chars, all chars, nullable) of one parsed item."""
        A = self.alphabet
        if op is _c.LITERAL:
            s = frozenset((chr(av),))
            return s, s, False
        if op is _c.NOT_LITERAL:
            s = frozenset(ch for ch in A if ch != chr(av))
            return s, s, False
        if op is _c.ANY:
            s = frozenset(ch for ch in A if ch not in "\n\r\u2028\u2029")
            return s, s, False
        if op is _c.IN:
            s = frozenset(ch for ch in A if _in_class(av, ch))
            return s, s, False
        if op in _REPEATS:
            lo, hi, body = av
            f, a, n = self.seq_sets(body, rev)
            return f, a, n or lo == 0
        if op is _c.SUBPATTERN:
            return self.seq_sets(av[-1], rev)
        if op is _c.BRANCH:
            f = a = frozenset()
            n = False
            for br in av[1]:
                bf, ba, bn = self.seq_sets(br, rev)
                f, a, n = f | bf, a | ba, n or bn
            return f, a, n
        if op is getattr(_c, "ATOMIC_GROUP", None):
            return self.seq_sets(av, rev)
        if op is _c.GROUPREF:
            s = frozenset(A)
            return s, s, True
        # AT (anchors), ASSERT, ASSERT_NOT, CATEGORY outside classes are handled below
        if op is _c.CATEGORY:
            s = frozenset(ch for ch in A if _in_class([(op, av)], ch))
            return s, s, False
        return frozenset(), frozenset(), True  # zero-width

    def seq_sets(self, seq, rev: bool = False) -> tuple[frozenset, frozenset, bool]:
        """(first chars, all chars, nullable); with ``rev``, last chars instead of first."""
        first = frozenset()
        allc = frozenset()
        nullable = True
        for op, av in (reversed(list(seq)) if rev else seq):
            f, a, n = self.item_sets(op, av, rev)
            if nullable:
                first = first | f
            allc = allc | a
            if not n:
                nullable = False
        return first, allc, nullable

    def run(self, seq, unbounded_context: bool = False) -> None:
        """Visit every item (iteratively), checking quantifiers and sequences."""
        stack = [(seq, unbounded_context)]
        while stack and len(self.risks) < 4:
            seq, _ = stack.pop()
            self.check_sequence(seq)
            for op, av in seq:
                if op in _REPEATS:
                    self.check_repeat(av)
                for sub in _subseqs(op, av):
                    stack.append((sub, False))

    def check_repeat(self, av) -> None:
        lo, hi, body = av
        if hi is not MAXREPEAT and hi <= 1:
            return
        # (1) an alternation under the quantifier whose branches overlap or can be empty
        for op, inner in _flatten(body):
            if op is _c.BRANCH:
                firsts = []
                for br in inner[1]:
                    f, a, n = self.seq_sets(br)
                    if n:
                        self.risks.append(Risk("exponential",
                                               "an alternative can match the empty string inside a repetition"))
                        return
                    firsts.append(f)
                for i in range(len(firsts)):
                    for j in range(i + 1, len(firsts)):
                        if firsts[i] & firsts[j]:
                            self.risks.append(Risk("exponential",
                                                   "alternatives that can start with the same character "
                                                   f"({_sample(firsts[i] & firsts[j])}) inside a repetition"))
                            return
        # (2) an unbounded repetition inside the repeated body, with the rest of the body
        # either optional or made of characters that inner repetition also matches
        items = _flatten(body)
        for k, (op, inner) in enumerate(items):
            if op not in _REPEATS or inner[1] is not MAXREPEAT:
                continue
            _, ia, _ = self.seq_sets(inner[2])
            rest = items[:k] + items[k + 1:]
            ok = True
            for rop, rav in rest:
                rf, ra, rn = self.item_sets(rop, rav)
                if not rn and not (ra & ia):
                    ok = False
                    break
            if ok and ia:
                self.risks.append(Risk("exponential",
                                       "a repetition inside a repetition can split the same text in many ways"))
                return

    def check_sequence(self, seq) -> None:
        """(3) two unbounded repetitions where the text between them is ambiguous: the
        first can end with what the second starts with, and every character that must
        appear between them is one both repetitions can also eat."""
        prev_last = prev_all = None  # of the last unbounded repetition seen
        sep: frozenset = frozenset()  # characters that must appear since then
        for op, av in seq:
            if op in _REPEATS and av[1] is MAXREPEAT:
                first, a, _ = self.seq_sets(av[2])
                if prev_last is not None and prev_last & first and sep <= (a & prev_all):
                    self.risks.append(Risk("polynomial",
                                           "two repetitions in a row over the same characters "
                                           f"({_sample(prev_last & first)})"))
                    return
                prev_last, _, _ = self.seq_sets(av[2], rev=True)
                prev_all, sep = a, frozenset()
                continue
            if prev_last is None:
                continue
            f, a, n = self.item_sets(op, av)
            if op is _c.AT or n:
                continue
            if a and a <= prev_all:
                sep = sep | a
                continue
            prev_last = prev_all = None


def _subseqs(op, av):
    if op in _REPEATS:
        return [av[2]]
    if op is _c.SUBPATTERN:
        return [av[-1]]
    if op is _c.BRANCH:
        return list(av[1])
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return [av[1]]
    if hasattr(_c, "ATOMIC_GROUP") and op is _c.ATOMIC_GROUP:
        return [av]
    return []


def _flatten(seq):
    """Items of a sequence with plain groups opened (``((a+)b)`` -> ``a+``, ``b``)."""
    out = []
    stack = list(reversed(list(seq)))
    while stack:
        op, av = stack.pop()
        if op is _c.SUBPATTERN:
            stack.extend(reversed(list(av[-1])))
        else:
            out.append((op, av))
    return out


def _in_class(items, ch: str) -> bool:
    negate = False
    hit = False
    o = ord(ch)
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            hit = hit or o == av
        elif op is _c.RANGE:
            hit = hit or av[0] <= o <= av[1]
        elif op is _c.CATEGORY:
            hit = hit or _category(av, ch)
    return hit != negate


_CAT = {
    "CATEGORY_DIGIT": lambda ch: ch.isdecimal(), "CATEGORY_NOT_DIGIT": lambda ch: not ch.isdecimal(),
    "CATEGORY_SPACE": lambda ch: ch.isspace(), "CATEGORY_NOT_SPACE": lambda ch: not ch.isspace(),
    "CATEGORY_WORD": lambda ch: ch.isalnum() or ch == "_",
    "CATEGORY_NOT_WORD": lambda ch: not (ch.isalnum() or ch == "_"),
}


def _category(cat, ch: str) -> bool:
    name = str(cat).replace("UNI_", "")
    f = _CAT.get(name)
    return bool(f and f(ch))


def _sample(chars: frozenset) -> str:
    return ", ".join(repr(c) for c in sorted(chars)[:3])


@lru_cache(maxsize=4096)
def analyse(pattern: str) -> Risk | None:
    """The worst backtracking risk of an ECMA-262 pattern, or None (safe or unreadable)."""
    try:
        parsed = _sre.parse(_to_python(pattern))
    except (re.error, RecursionError, OverflowError, ValueError, TypeError, IndexError):
        return None
    try:
        a = _Analyser(parsed)
        a.run(parsed)
    except RecursionError:
        return None
    if not a.risks:
        return None
    expo = [r for r in a.risks if r.kind == "exponential"]
    return (expo or a.risks)[0]
