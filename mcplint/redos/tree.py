"""The structure of an ECMA-262 pattern for the backtracking analysis: Python's own
regular-expression parser run on an ECMA-to-Python transliteration, turned into a tree of
sequences and items that know their parent, with the characters each item can start with,
end with and contain (over a small alphabet of representative characters).
"""

from __future__ import annotations

import re
import warnings

try:  # Python 3.11+
    import re._constants as re_constants  # type: ignore[import-not-found]
    import re._parser as re_parser  # type: ignore[import-not-found]
except ImportError:  # Python 3.10
    import sre_constants as re_constants  # type: ignore[no-redef]
    import sre_parse as re_parser  # type: ignore[no-redef]

MAXREPEAT = re_constants.MAXREPEAT
REPEATS = {re_constants.MAX_REPEAT, re_constants.MIN_REPEAT} | ({re_constants.POSSESSIVE_REPEAT} if hasattr(re_constants, "POSSESSIVE_REPEAT") else set())
ATOMIC = getattr(re_constants, "ATOMIC_GROUP", None)
BEGIN = {re_constants.AT_BEGINNING, re_constants.AT_BEGINNING_STRING}
END = {re_constants.AT_END, re_constants.AT_END_STRING}

# Representative characters: every character class is reduced to the subset of these it
# matches, plus every literal the pattern names. Two sets overlap when they share one.
REPS = ("a", "z", "A", "Z", "0", "9", "_", " ", "\t", "\n", "\r", "-", ".", "/", "@", ":", "!", "\\",
        "é", "ß", "中", "\u2028", "\u00a0", "+", "=", ",", ";", "#", "\x00")
_NEWLINES = "\n\r\u2028\u2029"


class GiveUp(Exception):
    """The analysis spent its step budget on this pattern."""


def to_python(pattern: str) -> str:
    """Enough ECMA-262 -> Python syntax for structure analysis (not for matching)."""
    out = pattern.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    out = re.sub(r"\\k<([A-Za-z_]\w*)>", r"(?P=\1)", out)
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
    out, last = [], 0
    for i, ch in outside_classes(pattern):
        if ch == "|":
            out.append(pattern[last:i + 1] + "(?=)")
            last = i + 1
    return "".join(out) + pattern[last:]


def outside_classes(pattern: str):
    """Each character of ``pattern`` that is neither escaped nor inside a character class, with
    its index (the backslashes and the brackets of classes themselves are left out): where
    groups, alternatives and anchors can be."""
    escaped = in_class = False
    for i, ch in enumerate(pattern):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        else:
            yield i, ch


class Seq:
    __slots__ = ("items", "owner")

    def __init__(self, owner):
        self.items: list[Node] = []
        self.owner: Node | None = owner


class Node:
    __slots__ = ("op", "av", "seqs", "seq", "index", "lo", "hi", "first", "last", "all", "nullable", "pure")

    def __init__(self, op, av, seq, index):
        self.op, self.av, self.seq, self.index = op, av, seq, index
        self.seqs: list[Seq] = []
        self.lo = self.hi = 1
        self.first = self.last = self.all = frozenset()
        self.nullable = False
        self.pure = True  # matches without any assertion (can never fail on zero width)

    @property
    def unbounded(self) -> bool:
        return self.op in REPEATS and self.hi is MAXREPEAT

    @property
    def variable(self) -> bool:
        """A bounded repetition that can take different lengths (``a{1,2}``)."""
        return self.op in REPEATS and self.hi is not MAXREPEAT and self.lo < self.hi and self.hi >= 2

    @property
    def is_repeat(self) -> bool:
        return self.op in REPEATS


class Tree:
    def __init__(self, pattern: str):
        with warnings.catch_warnings():  # "possible nested set" and the like: not the user's concern
            warnings.simplefilter("ignore")
            parsed = re_parser.parse(to_python(pattern))
        self.alphabet = tuple(sorted(set(REPS) | _literals(parsed)))
        self.repeats: list[Node] = []  # outside lookarounds (one inside succeeds or fails once)
        self._in_behind = 0
        self.groups: dict[int, Node] = {}
        self.root = self._build(parsed, None)

    def _build(self, parsed, owner) -> Seq:
        seq = Seq(owner)
        for i, (op, av) in enumerate(parsed):
            node = Node(op, av, seq, i)
            seq.items.append(node)
            self._fill(node)
        return seq

    def _fill(self, n: Node) -> None:
        op, av, A = n.op, n.av, self.alphabet
        if op is re_constants.LITERAL:
            n.first = n.last = n.all = frozenset((chr(av),))
        elif op is re_constants.NOT_LITERAL:
            n.first = n.last = n.all = frozenset(ch for ch in A if ch != chr(av))
        elif op is re_constants.ANY:
            n.first = n.last = n.all = frozenset(ch for ch in A if ch not in _NEWLINES)
        elif op is re_constants.IN or op is re_constants.CATEGORY:
            items = tuple(av) if op is re_constants.IN else ((op, av),)
            n.first = n.last = n.all = _class_set(items, A)
        elif op in REPEATS:
            n.lo, n.hi = av[0], av[1]
            n.seqs = [self._build(av[2], n)]
            self._from_seqs(n)
            n.nullable = n.nullable or n.lo == 0
            if n.hi == 0:
                n.first = n.last = n.all = frozenset()
            if not self._in_behind:
                self.repeats.append(n)
        elif op is re_constants.SUBPATTERN:
            n.seqs = [self._build(av[-1], n)]
            self._from_seqs(n)
            if av[0] is not None:
                self.groups[av[0]] = n
        elif op is ATOMIC:
            n.seqs = [self._build(av, n)]
            self._from_seqs(n)
        elif op is re_constants.BRANCH:
            n.seqs = [self._build(br, n) for br in av[1]]
            self._from_seqs(n)
        elif op is re_constants.GROUPREF:
            g = self.groups.get(av)  # what the group can match (a later group: anything)
            n.first, n.last, n.all = (g.first, g.last, g.all) if g else (frozenset(A),) * 3
            n.nullable, n.pure = (g.nullable if g else True), False
        elif op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
            behind = av[0] == -1
            self._in_behind += behind
            n.seqs = [self._build(av[1], n)]
            self._in_behind -= behind
            n.nullable = True
            n.pure = not av[1] and op is re_constants.ASSERT  # the empty lookahead _keep_alternatives adds
        else:  # AT: anchors and word boundaries
            n.nullable, n.pure = True, False

    def _from_seqs(self, n: Node) -> None:
        first = last = allc = frozenset()
        nullable = False
        pure = True
        for s in n.seqs:
            f, la, a, nl, p = seq_sets(s)
            first, last, allc = first | f, last | la, allc | a
            nullable = nullable or nl
            pure = pure and p
        n.first, n.last, n.all, n.nullable, n.pure = first, last, allc, nullable, pure


def seq_sets(s: Seq):
    """(first chars, last chars, all chars, nullable, pure) of a sequence."""
    first = last = allc = frozenset()
    nullable = True
    pure = True
    for n in s.items:
        if nullable:
            first = first | n.first
        allc = allc | n.all
        nullable = nullable and n.nullable
        pure = pure and n.pure
    trailing = True
    for n in reversed(s.items):
        if trailing:
            last = last | n.last
        trailing = trailing and n.nullable
    return first, last, allc, nullable, pure


def _literals(parsed) -> set:
    lits = set()
    stack = [parsed]
    while stack:
        seq = stack.pop()
        for op, av in seq:
            if op in (re_constants.LITERAL, re_constants.NOT_LITERAL):
                lits.add(chr(av))
            elif op is re_constants.IN:
                for iop, iav in av:
                    if iop in (re_constants.LITERAL, re_constants.NOT_LITERAL):
                        lits.add(chr(iav))
                    elif iop is re_constants.RANGE:
                        lits.update((chr(iav[0]), chr(iav[1])))
            if op in REPEATS:
                stack.append(av[2])
            elif op is re_constants.SUBPATTERN:
                stack.append(av[-1])
            elif op is re_constants.BRANCH:
                stack.extend(av[1])
            elif op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
                stack.append(av[1])
            elif op is ATOMIC:
                stack.append(av)
    return lits


_CLASS_CACHE: dict = {}


def _class_set(items: tuple, alphabet: tuple) -> frozenset:
    key = (items, alphabet)
    got = _CLASS_CACHE.get(key)
    if got is None:
        if len(_CLASS_CACHE) > 4096:
            _CLASS_CACHE.clear()
        got = _CLASS_CACHE[key] = frozenset(ch for ch in alphabet if _in_class(items, ch))
    return got


def _in_class(items, ch: str) -> bool:
    negate = False
    hit = False
    o = ord(ch)
    for op, av in items:
        if op is re_constants.NEGATE:
            negate = True
        elif op is re_constants.LITERAL:
            hit = hit or o == av
        elif op is re_constants.RANGE:
            hit = hit or av[0] <= o <= av[1]
        elif op is re_constants.CATEGORY:
            hit = hit or _category(av, ch)
    return hit != negate


# ECMA-262 without the u flag: \d is [0-9], \w is [A-Za-z0-9_], \s is Unicode white space
_CAT = {
    "CATEGORY_DIGIT": lambda ch: "0" <= ch <= "9", "CATEGORY_NOT_DIGIT": lambda ch: not "0" <= ch <= "9",
    "CATEGORY_SPACE": lambda ch: ch.isspace() or ch == "\ufeff",
    "CATEGORY_NOT_SPACE": lambda ch: not (ch.isspace() or ch == "\ufeff"),
    "CATEGORY_WORD": lambda ch: ch.isascii() and (ch.isalnum() or ch == "_"),
    "CATEGORY_NOT_WORD": lambda ch: not (ch.isascii() and (ch.isalnum() or ch == "_")),
}


def _category(cat, ch: str) -> bool:
    f = _CAT.get(str(cat).replace("UNI_", ""))
    return bool(f and f(ch))


def parse_error_types():
    return (re.error, RecursionError, OverflowError, ValueError, TypeError, IndexError, KeyError)
