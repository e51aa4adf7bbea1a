"""The backtracking analysis proper: paths through the pattern's tree between two
repetitions that can eat the same text (see the package docstring for the shapes)."""

from __future__ import annotations

from dataclasses import dataclass

from .tree import ATOMIC, BEGIN, END, GiveUp, Node, Seq, Tree, re_constants

STEP_BUDGET = 60_000  # path steps per pattern; past it the analysis gives up (SEC112 says so)


@dataclass(frozen=True)
class Hit:
    kind: str  # "exponential" | "polynomial"
    why: str
    first: Node | None  # the repetition whose text the second one can take over (None: the search start)
    second: Node  # the repetition that can take it over
    pump: frozenset  # characters both can eat at the point they meet
    degree: int = 0
    loop: Node | None = None  # the enclosing repetition the path goes round (exponential)
    sep: tuple = ()  # for each character that must appear between the two repetitions, what it can be (in order)


class Search:
    def __init__(self, tree: Tree):
        self.tree = tree
        self.steps = 0
        self._after: dict = {}
        self._runs: dict = {}

    def tick(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > STEP_BUDGET:
            raise GiveUp

    # ------------------------------------------------------------ continuations

    def can_fail_after(self, node: Node, pump: frozenset) -> bool:
        """Whether what comes after ``node`` can reject a run of a pumped character followed by
        a character nothing expects (an anchor, an assertion, a character other than the pumped
        one): if it cannot, a match that reaches ``node`` succeeds at once and nothing backtracks."""
        tried = sorted(pump)[:4]
        for n in node.seq.items[node.index + 1:]:  # and those the next required item refuses (`\S+[^.\s]`: '.')
            if not n.nullable:
                tried += sorted(pump - n.all)[:2]
                break
        return any(self._fails_after(node, c) for c in dict.fromkeys(tried))

    def _fails_after(self, node: Node, c: str) -> bool:
        key = (id(node), c)
        got = self._after.get(key)
        if got is None:
            self.tick()
            seq = node.seq
            if any(not self.takes_run(n, c) for n in seq.items[node.index + 1:]):
                got = True
            else:
                owner = seq.owner
                if owner is None:
                    got = False
                elif owner.op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
                    got = False  # the lookahead has its answer: nothing inside it is tried again
                elif owner.is_repeat and owner.lo > 1:
                    got = True
                else:
                    got = self._fails_after(owner, c)
            self._after[key] = got
        return got

    def after_end(self, node: Node) -> bool:
        """Whether an end-of-input anchor must match before ``node`` (``^a$a+``, ``^($)+a+``)."""
        seq, i = node.seq, node.index
        while True:
            for n in seq.items[:i]:
                if n.op is re_constants.AT and n.av in END:
                    return True
                if (n.op is re_constants.SUBPATTERN or (n.is_repeat and n.lo >= 1)) and any(
                        m.op is re_constants.AT and m.av in END for m in n.seqs[0].items):
                    return True
            owner = seq.owner
            if owner is None:
                return False
            seq, i = owner.seq, owner.index

    def only_end_after(self, node: Node) -> bool:
        """Whether nothing but the end of the input (or nothing at all) must follow ``node``."""
        seq, i = node.seq, node.index + 1
        while True:
            for n in seq.items[i:]:
                self.tick()
                if not n.nullable or not (n.pure or (n.op is re_constants.AT and n.av in END)):
                    return False
            owner = seq.owner
            if owner is None:
                return True
            if owner.op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
                return False
            seq, i = owner.seq, owner.index + 1

    def absorbs_everything(self, loop: Node) -> bool:
        """Whether the unbounded repetitions in a repeated group's body together take any
        character (``(\\S+\\s*)+``), so that with only the end of the input after the group
        every string matches from the first attempt and nothing is ever undone."""
        got = frozenset()
        stack = list(loop.seqs[0].items)
        while stack:
            n = stack.pop()
            self.tick()
            if n.op is re_constants.SUBPATTERN:
                stack.extend(n.seqs[0].items)
            elif n.unbounded:
                got |= n.all
        return len(got) == len(self.tree.alphabet) and self.only_end_after(loop)

    def matches_a_run(self, pump: frozenset) -> bool:
        """Whether the whole pattern matches some string made only of ``c`` (the empty one
        included), for every ``c`` of ``pump`` tried: an unanchored search of a run of them then
        succeeds at the first position, after at most one repetition's worth of backtracking
        (``([\\w]+\\.)?[\\w]+``: the optional part fails, the rest matches)."""
        return all(all(self.takes_run(m, c) for m in self.tree.root.items) for c in sorted(pump)[:16])

    def takes_run(self, n: Node, c: str) -> bool:
        """Whether ``n`` can match some string made only of ``c`` (the empty one included)."""
        if n.nullable and n.pure:
            return True
        key = (id(n), c)
        got = self._runs.get(key)
        if got is None:
            self.tick()
            got = self._runs[key] = self._takes_run(n, c)
        return got

    def _takes_run(self, n: Node, c: str) -> bool:
        if n.op in (re_constants.LITERAL, re_constants.NOT_LITERAL, re_constants.ANY, re_constants.IN, re_constants.CATEGORY):
            return c in n.all
        if n.is_repeat or n.op is re_constants.SUBPATTERN or n.op is ATOMIC:
            return all(self.takes_run(m, c) for m in n.seqs[0].items)
        if n.op is re_constants.BRANCH:
            return any(all(self.takes_run(m, c) for m in s.items) for s in n.seqs)
        return False

    def follow(self, start: Seq, index: int, eat: frozenset, last: frozenset, reentry_of: Node | None = None,
               first1: frozenset = frozenset(), bounded: bool = False):
        """Yield (repetition, separator chars, loops re-entered) for each repetition reachable
        from (start, index) through items that are optional or whose characters are all in
        ``eat`` (what the first repetition can also take), and whose first characters meet
        ``last``. Paths enter groups, alternatives, optional items and another iteration of
        each enclosing repeated group (once)."""
        stack = [(start, index, frozenset(), (), reentry_of is not None, ())]
        seen = set()
        while stack:
            state = stack.pop()
            seq, i, sep, loops, descend, order = state
            key = (id(seq), i, sep, loops)
            if key in seen:
                continue
            seen.add(key)
            self.tick()
            if i >= len(seq.items):
                owner = seq.owner
                if owner is None:
                    continue
                if owner.op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
                    continue
                if owner.is_repeat and owner.hi > 1 and owner not in loops:
                    stack.append((owner.seqs[0], 0, sep, loops + (owner,), True, order))
                stack.append((owner.seq, owner.index + 1, sep, loops, True, order))
                continue
            n = seq.items[i]
            op = n.op
            if n.is_repeat:
                meets = n.first & last or (n.first & first1 and n.last & last)
                if (n.unbounded or (bounded and n.variable)) and meets and all(x & n.all for x in sep):
                    yield n, tuple(x & n.all for x in order), loops
                    continue
                if n.lo == 0 or (n.nullable and not n.first & last):
                    stack.append((seq, i + 1, sep, loops, descend, order))
                if n.lo == 0 and n.unbounded and not n.all & eat:
                    continue  # a loop of other characters: entering it cannot lead back
                stack.append((n.seqs[0], 0, sep, loops, descend, order))
            elif op is re_constants.SUBPATTERN or op is ATOMIC:
                stack.append((n.seqs[0], 0, sep, loops, descend, order))
            elif op is re_constants.BRANCH:
                for s in n.seqs:
                    stack.append((s, 0, sep, loops, descend, order))
            elif op is re_constants.AT:
                if n.av in BEGIN or n.av in END:
                    continue
                if n.av in (re_constants.AT_BOUNDARY, re_constants.AT_UNI_BOUNDARY) and (reentry_of is None or not sep):
                    continue  # the same character on both sides: no word boundary between them
                stack.append((seq, i + 1, sep, loops, descend, order))
            elif op in (re_constants.ASSERT, re_constants.ASSERT_NOT):
                if reentry_of is None and not n.pure:
                    continue
                stack.append((seq, i + 1, sep, loops, descend, order))
            elif op is re_constants.GROUPREF:
                if n.nullable:
                    stack.append((seq, i + 1, sep, loops, descend, order))
                if n.all & eat:
                    stack.append((seq, i + 1, sep | {n.all & eat}, loops, descend, order + (n.all & eat,)))
            elif n.all & eat:
                stack.append((seq, i + 1, sep | {n.all & eat}, loops, descend, order + (n.all & eat,)))

    # ------------------------------------------------------------ the checks

    def run(self) -> list[Hit]:
        hits: list[Hit] = []
        t = self.tree
        alphabet = frozenset(t.alphabet)
        for r in t.repeats:
            if not r.unbounded and r.hi < 10:
                continue
            self.tick()
            hit = self.alternation(r) or self.nullable_body(r)
            if hit and self.can_fail_after(r, hit.pump):
                hits.append(hit)
        if any(h.kind == "exponential" for h in hits):
            return hits
        # each unbounded repetition, and the implicit "try every start" of an unanchored search
        starts: list[tuple[Node | None, Seq, int, frozenset, frozenset]] = [(None, t.root, 0, alphabet, alphabet)]
        for r in t.repeats:
            if (r.unbounded or r.variable) and r.all:
                starts.append((r, r.seq, r.index + 1, r.all, r.last))
        for first, seq, i, eat, last in starts:
            if first is not None and self.after_end(first):
                continue  # only the end of the input comes before it: it can only match nothing
            bounded = first is not None and first.variable
            for second, sep, loops in self.follow(seq, i, eat, last, reentry_of=first,
                                                  first1=first.first if first else frozenset(), bounded=bounded):
                if (bounded or second.variable) and not any(lp.unbounded for lp in loops):
                    continue  # bounded repetitions in a row: a bounded number of ways
                pump = second.first & last & eat
                if not self.can_fail_after(second, pump or second.first):
                    continue
                outer = [lp for lp in loops if lp.unbounded or lp.hi >= 10]
                if first is not None and outer:
                    if self.absorbs_everything(outer[0]) or not self.can_fail_after(outer[-1], pump or second.first):
                        continue
                    hits.append(Hit("exponential", "a repeated group can split the same text between its "
                                    "repetitions in many ways", first, second, pump or second.first, 0, outer[0], sep))
                    return hits
                if first is second and not loops:
                    continue
                if first is not None and len(first.all) == len(t.alphabet) and self.only_end_after(second):
                    continue  # the first takes any text, then nothing but the end: every string matches
                deg = 2 + self.chain(second)
                if first is None and deg == 2 and self.matches_a_run(pump or second.first):
                    continue  # the search succeeds where it starts: no position is tried again
                hits.append(Hit("polynomial", "repetitions in a row that can take the same text "
                                f"({_sample(pump or second.first)})" if first is not None else
                                "a repetition the unanchored search can enter at every position "
                                f"({_sample(pump or second.first)}), with something after it that fails",
                                first, second, pump or second.first, deg, None, sep))
                break
        return hits

    def alternation(self, r: Node) -> Hit | None:
        """An alternation in the repeated body whose branches overlap or can be empty."""
        stack = list(r.seqs[0].items)
        while stack:
            n = stack.pop()
            self.tick()
            if n.op is re_constants.SUBPATTERN:
                stack.extend(n.seqs[0].items)
                continue
            if n.op is not re_constants.BRANCH:
                continue
            sets = []
            for s in n.seqs:
                f, last, a, nl, _ = _seq(s)
                if a:
                    sets.append((f, last))
            # two alternatives that start alike and can end alike (or end like a third one):
            # a text is one iteration of one or several of others, (a|aa), (a|b|ab)
            for i in range(len(sets)):
                for j in range(len(sets)):
                    if i == j or not sets[i][0] & sets[j][0]:
                        continue
                    if any(sets[j][1] & sets[k][1] for k in range(len(sets)) if k != j):
                        common = sets[i][0] & sets[j][0]
                        return Hit("exponential", "alternatives that can start with the same character "
                                   f"({_sample(common)}) inside a repetition", None, r, common)
        return None

    def nullable_body(self, r: Node) -> Hit | None:
        """A counted repetition of something optional, ``(a?){25}``: each count can take the
        character or not."""
        if r.unbounded or not r.nullable:
            return None
        body = r.seqs[0]
        f, _, a, nl, _ = _seq(body)
        if nl and a:
            return Hit("exponential", f"a counted repetition ({{{r.lo},...}}) of something optional",
                       None, r, a)
        return None

    def chain(self, r: Node, depth: int = 0) -> int:
        """How many more repetitions in a row can take the same text after ``r`` (for the degree)."""
        if depth >= 4:
            return 0
        for nxt, _, loops in self.follow(r.seq, r.index + 1, r.all, r.last, reentry_of=r):
            if nxt is not r and not loops:
                return 1 + self.chain(nxt, depth + 1)
        return 0


def _seq(s: Seq):
    from .tree import seq_sets
    return seq_sets(s)


_ORDER = "a0A_ .-@/:z9Z!,;+=#\t\n"


def _sample(chars) -> str:
    ranked = sorted(chars, key=lambda c: (_ORDER.find(c) if c in _ORDER else len(_ORDER), c))
    return ", ".join(repr(c) for c in ranked[:3])
