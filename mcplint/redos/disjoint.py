"""Whether two ECMA-262 patterns provably match no key in common: for a decoder that refuses
``patternProperties`` whose patterns are not disjoint (llguidance: "patternProperty regexes
/^a/ and /b$/ are not disjoint").

A proof only, never a guess: both patterns anchored at the same end (``^`` at the start, or
``$`` at the end), and at some position counted from that end each must put a character from
sets that share none (``^x-`` and ``^y-``; ``^[0-9]+$`` and ``^[a-z]+$``; ``\\.json$`` and
``\\.yaml$``). A position is known while every item before it takes exactly one character;
the first repetition of a single character that takes at least one still fixes its own
position, and nothing after it is compared. Anything else (an unanchored pattern, a group,
a look-around, a flag) proves nothing, so the pair counts as possibly overlapping.
"""

from __future__ import annotations

import sys
from functools import lru_cache

from .tree import BEGIN, END, REPEATS, re_constants, re_parser, parse_error_types, to_python

_TOP = sys.maxunicode
_NEWLINES = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
# ECMA-262: \d is [0-9], \w is [A-Za-z0-9_], \s is WhiteSpace and LineTerminator
_DIGIT = ((0x30, 0x39),)
_WORD = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE = tuple((c, c) for c in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F,
                                0x205F, 0x3000, 0xFEFF)) + ((0x2000, 0x200A),)


def _norm(ranges) -> tuple:
    out: list = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges) -> tuple:
    out, at = [], 0
    for lo, hi in _norm(ranges):
        if lo > at:
            out.append((at, lo - 1))
        at = hi + 1
    if at <= _TOP:
        out.append((at, _TOP))
    return tuple(out)


_CATEGORY = {"CATEGORY_DIGIT": _DIGIT, "CATEGORY_WORD": _WORD, "CATEGORY_SPACE": _SPACE}


def _category(cat) -> tuple | None:
    name = str(cat).replace("UNI_", "")
    if name in _CATEGORY:
        return _CATEGORY[name]
    if name.replace("NOT_", "") in _CATEGORY:
        return _complement(_CATEGORY[name.replace("NOT_", "")])
    return None


def _atom(op, av) -> tuple | None:
    """The code points one item of the parse takes as one character, or None (not one character)."""
    if op is re_constants.LITERAL:
        return ((av, av),)
    if op is re_constants.NOT_LITERAL:
        return _complement(((av, av),))
    if op is re_constants.ANY:
        return _complement(_NEWLINES)
    if op is re_constants.IN:
        ranges, negate = [], False
        for iop, iav in av:
            if iop is re_constants.NEGATE:
                negate = True
            elif iop is re_constants.LITERAL:
                ranges.append((iav, iav))
            elif iop is re_constants.RANGE:
                ranges.append(tuple(iav))
            elif iop is re_constants.CATEGORY and _category(iav) is not None:
                ranges.extend(_category(iav))
            else:
                return None
        return _complement(ranges) if negate else _norm(ranges)
    return None


def _positions(items) -> tuple:
    """The character sets of the leading positions of ``items``, in order, as far as known."""
    out = []
    for op, av in items:
        one = _atom(op, av)
        if one is not None:
            out.append(one)
            continue
        if op in REPEATS:
            lo, _, body = av
            body = list(body)
            inner = _atom(*body[0]) if len(body) == 1 else None
            if inner is not None and lo >= 1:
                out.append(inner)
        break
    return tuple(out)


@lru_cache(maxsize=1024)
def _ends(pattern: str) -> tuple | None:
    """(positions from the start if anchored there else None, positions from the end if anchored
    there else None), or None when the pattern cannot be read here."""
    if "(?" in pattern or "\\b" in pattern or "\\B" in pattern:
        return None  # look-around, flags, named groups: nothing is proved
    try:
        parsed = list(re_parser.parse(to_python(pattern)))
    except parse_error_types():
        return None
    if any(op in (re_constants.BRANCH, re_constants.SUBPATTERN) for op, _ in parsed):
        return None  # an alternative at the top level may be anchored differently
    start = _positions(parsed[1:]) if parsed and parsed[0][0] is re_constants.AT and parsed[0][1] in BEGIN else None
    if parsed and parsed[-1][0] is re_constants.AT and parsed[-1][1] in END:
        end = _positions(list(reversed(parsed[:-1])))
    else:
        end = None
    return start, end


def _apart(a: tuple, b: tuple) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        (alo, ahi), (blo, bhi) = a[i], b[j]
        if ahi < blo:
            i += 1
        elif bhi < alo:
            j += 1
        else:
            return False
    return True


def disjoint(p: str, q: str) -> bool:
    """True only when no string matches both ``p`` and ``q`` (ECMA-262 search semantics), as
    the module's note says it is proved; False when it is not proved."""
    ep, eq = _ends(p), _ends(q)
    if ep is None or eq is None:
        return False
    for side in (0, 1):
        a, b = ep[side], eq[side]
        if a is not None and b is not None and any(_apart(x, y) for x, y in zip(a, b)):
            return True
    return False


def all_disjoint(patterns) -> bool:
    """Every pair of ``patterns`` provably disjoint (True for none or one)."""
    patterns = list(patterns)
    return all(disjoint(p, q) for i, p in enumerate(patterns) for q in patterns[i + 1:])
