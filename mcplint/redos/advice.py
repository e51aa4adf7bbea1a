"""What a finding tells the author: an attack string that makes a backtracking matcher
slow (built from the repetitions the analysis found), and, where one is mechanical, an
equivalent pattern without the ambiguity (``(a+)+`` -> ``a+``, ``\\d+\\d+`` -> ``\\d{2,}``)."""

from __future__ import annotations

import re

from .tree import ATOMIC, GiveUp, Node, Seq, Tree, re_constants, parse_error_types

_PREFERRED = "a0A_ .-@/:z9Z!"
_SUFFIXES = ("!", "\x00", "\n", "~", " ", "a", "0")
_MORE_SUFFIXES = tuple("|/:*?<>\"#%&;,=\\'()[]{}$^@+-._\t")


def _pick(chars) -> str:
    for ch in _PREFERRED:
        if ch in chars:
            return ch
    return min(chars) if chars else ""


def witness(n: Node, pump: str = "", marked: frozenset = frozenset(), depth: int = 0) -> str:
    """A short string ``n`` matches (``pump`` for the marked repetitions)."""
    if depth > 200:
        raise GiveUp
    op = n.op
    if op is re_constants.LITERAL:
        return chr(n.av)
    if op in (re_constants.NOT_LITERAL, re_constants.ANY, re_constants.IN, re_constants.CATEGORY):
        return _pick(n.all)
    if n.is_repeat:
        if n in marked:
            return pump * max(1, min(n.lo, 50))
        body = seq_witness(n.seqs[0], pump, marked, depth + 1)
        return body * min(n.lo, 50)
    if op is re_constants.SUBPATTERN or op is ATOMIC:
        return seq_witness(n.seqs[0], pump, marked, depth + 1)
    if op is re_constants.BRANCH:
        options = [seq_witness(s, pump, marked, depth + 1) for s in n.seqs]
        marked_first = [w for s, w in zip(n.seqs, options) if _contains(s, marked)]
        return min(marked_first or options, key=len)
    return ""


def seq_witness(s: Seq, pump: str = "", marked: frozenset = frozenset(), depth: int = 0) -> str:
    return "".join(witness(n, pump, marked, depth) for n in s.items)


def _contains(s: Seq, marked: frozenset) -> bool:
    stack = list(s.items)
    while stack:
        n = stack.pop()
        if n in marked:
            return True
        for sub in n.seqs:
            stack.extend(sub.items)
    return False


def _prefix(node: Node) -> str:
    """What the pattern must match before ``node`` is reached."""
    parts = []
    seq, i = node.seq, node.index
    while True:
        parts.append("".join(witness(n) for n in seq.items[:i]))
        owner = seq.owner
        if owner is None:
            break
        seq, i = owner.seq, owner.index
    return "".join(reversed(parts))


def attack(tree: Tree, hit) -> str:
    prefix, pump, suffix, times = attack_parts(tree, hit)
    start = f"{prefix!r} then " if prefix else ""
    return f"{start}{pump!r} repeated {times:,} times then {suffix!r}"


def attack_parts(tree: Tree, hit) -> tuple[str, str, str, int]:
    """(prefix, pump, suffix, how many times to repeat the pump) of the attack string."""
    c = _failing_pick(tree, hit)
    marked = frozenset(n for n in (hit.first, hit.second) if n is not None)
    if hit.kind == "exponential" and hit.loop is not None:
        at, pump = hit.loop, seq_witness(hit.loop.seqs[0], c, marked) or c
    elif hit.first is None and hit.sep and hit.kind == "polynomial":
        # the unanchored search's start, then text the pattern requires before the repetition
        # ('ftp://www.'): that text once, then the repetition's character (with another
        # repetition after it, `[^ ]+[^ ]+`), or that text again and again (with none)
        prefix = _prefix(hit.second)
        chained = hit.degree > 2
        return ("" if not chained else prefix), (c if chained else prefix + c), _suffix(hit, c, tree.alphabet), 10_000
    else:
        at, pump = (hit.first or hit.second), c + "".join(_pick(x) for x in hit.sep)
    prefix = _prefix(at)
    return prefix, pump, _suffix(hit, pump, tree.alphabet), 30 if hit.kind == "exponential" else 10_000


def _suffix(hit, pump: str, alphabet: tuple) -> str:
    """A last character no repetition of the ambiguity takes (so the match must fail after
    it): ``[^/:*?<>"|]*`` in the repeated group takes '!' and '~', not '|'."""
    taken = set(hit.second.all)
    if hit.loop is not None:  # (every repetition in the repeated group)
        stack = list(hit.loop.seqs[0].items)
        while stack:
            n = stack.pop()
            if n.is_repeat and n.unbounded:
                taken |= n.all
            for sub in n.seqs:
                stack.extend(sub.items)
    # (only characters of the analysis' alphabet: what a class takes is known for those alone)
    known = [s for s in _SUFFIXES + _MORE_SUFFIXES if s in alphabet] + sorted(alphabet)
    return next((s for s in known if s not in taken and s not in pump), "!")


def _failing_pick(tree: Tree, hit) -> str:
    """The character to pump: the preferred one of those both repetitions take, among those
    after a run of which the rest of the pattern can still fail (``[^ ]+[^ ]+[^.]`` pumps
    '.': a run of 'a' would let the match succeed at once)."""
    from .search import Search

    chars = sorted(hit.pump, key=lambda ch: (_PREFERRED.find(ch) % (len(_PREFERRED) + 1), ch))
    search = Search(tree)
    for ch in chars[:16]:
        if search._fails_after(hit.second, ch):
            return ch
    return _pick(hit.pump)


# ------------------------------------------------------------------ mechanical rewrites

_ATOM = r"(?:\\[dDwWsS]|\\[^dDwWsSbBux0-9ck]|\[(?:\\.|[^\]\\])+\]|\.|[^\\()\[\]|*+?{}^$.])"
_NESTED = re.compile(r"(?<!\\)\((?:\?:)?(" + _ATOM + r")([*+])\)([*+])")
_ADJACENT = re.compile(r"(" + _ATOM + r")([*+])(" + _ATOM + r")([*+])(?![?{*+])")


def _nested(m: re.Match) -> str:
    q = "+" if m.group(2) == m.group(3) == "+" else "*"
    return m.group(1) + q


def _adjacent(m: re.Match) -> str:
    if m.group(1) != m.group(3):
        return m.group(0)
    q1, q2 = m.group(2), m.group(4)
    return m.group(1) + ({("+", "+"): "{2,}", ("*", "*"): "*"}.get((q1, q2), "+"))


def rewrite(pattern: str, kind: str) -> str:
    """An equivalent pattern with the ambiguous repetition merged, if that is mechanical and
    removes every risk the analysis sees; "" otherwise."""
    if re.search(r"\\[1-9]|\\k<", pattern):
        return ""  # removing a group would renumber the back-references
    out = pattern
    for _ in range(8):
        new = _ADJACENT.sub(_adjacent, _NESTED.sub(_nested, out))
        if new == out:
            break
        out = new
    if out == pattern or _risky(out):
        return ""
    return out


def _risky(pattern: str) -> bool:
    from .search import Search
    try:
        return bool(Search(Tree(pattern)).run())
    except (GiveUp, RecursionError):
        return True
    except parse_error_types():
        return True
