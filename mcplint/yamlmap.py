"""YAML: ``yaml.compose`` keeps a mark on every node, including both sides of a duplicated
key, so one walk yields the data, the source map and the duplicates together. The map is
``{pointer tuple: (key span or None, value span)}``, as :mod:`mcplint.sourcemap` has it for JSON."""

from __future__ import annotations

import re
from typing import Any, Callable

from .model import Span


_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LONE_CR = re.compile("\r(?!\n)")


class Positions:
    """A YAML mark's line and column (0-based, counted as YAML counts lines: CRLF, CR, LF, NEL,
    LS and PS each end one) as mcplint's 1-based line:column, where only LF (or CRLF) ends a line,
    as in a JSON file, an editor's line numbers and the report's code frames. Text with no other
    break (nearly all of it) costs nothing more than the mark's own numbers."""

    __slots__ = ("starts", "lines")

    def __init__(self, text: str):
        self.starts = self.lines = None
        if not ("\x85" in text or "\u2028" in text or "\u2029" in text
                or "\r" in text and _LONE_CR.search(text) is not None):  # (substring tests: fast)
            return
        from .linecol import Lines

        self.starts = [0] + [m.end() for m in _YAML_BREAK.finditer(text)]
        # YAML does not count a leading byte-order mark as a column (both loaders)
        self.starts[0] = 1 if text[:1] == "\ufeff" else 0
        self.lines = Lines(text)

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if self.starts is None:
            return line + 1, column + 1
        if line >= len(self.starts):  # (a mark at the very end, past the last break)
            line = len(self.starts) - 1
        return self.lines.pos(self.starts[line] + column)

    def mark(self, mark) -> tuple[int, int] | tuple[None, None]:
        return (None, None) if mark is None else self(mark.line, mark.column)


class YamlTooLarge(Exception):
    def __init__(self, message: str, mark=None, prefix: str = "YAML too large"):
        super().__init__(message)
        self.prefix = prefix
        self.mark = mark
        self.line = mark.line + 1 if mark is not None else None
        self.col = mark.column + 1 if mark is not None else None


# Values that aliases may add to a file by repeating what they name (each use of an alias to a
# collection adds its values again). A file's own values are bounded by its size; these are not:
# 381 bytes of nested aliases expand to a million values (4 s and 376 MiB to build and lint).
MAX_ALIAS_VALUES = 100_000


def _check_aliases(root, max_nodes: int) -> None:
    """Refuse, before anything is built, a YAML graph whose aliases would expand to more than
    ``max_nodes`` values (an alias bomb), or never finish expanding (an alias inside the value
    it names). One pass over the composed nodes, each shared node measured once; sizes are
    capped at ``max_nodes + 1``, so a bomb's astronomic size is never computed."""
    import yaml

    mapping, sequence = yaml.MappingNode, yaml.SequenceNode
    cap = max_nodes + 1

    def children(n):
        if isinstance(n, mapping):
            return (x for pair in n.value for x in pair)
        return iter(n.value)

    if not isinstance(root, (mapping, sequence)):
        return
    sizes: dict = {}  # id(node) -> expanded size, for collections measured
    added = 0  # values the aliases repeat, so far
    open_: set = {id(root)}
    stack = [[root, children(root), 1]]
    while stack:
        top = stack[-1]
        child = next(top[1], None)
        if child is None:
            stack.pop()
            open_.discard(id(top[0]))
            size = sizes[id(top[0])] = min(top[2], cap)
            if stack:
                stack[-1][2] += size
            continue
        if not isinstance(child, (mapping, sequence)):
            top[2] += 1
            continue
        cid = id(child)
        if cid in sizes:  # met before: this is an alias, which repeats its values
            top[2] += sizes[cid]
            added += sizes[cid]
            if added > MAX_ALIAS_VALUES:
                raise YamlTooLarge(f"the aliases in this file repeat more than {MAX_ALIAS_VALUES:,} values (here, "
                                   "an alias repeats a value named before); mcplint expands at most that many",
                                   top[0].start_mark)
        elif cid in open_:
            m = child.start_mark
            raise YamlTooLarge(f"an alias inside the value anchored at line {m.line + 1}, column {m.column + 1} "
                               "refers back to it: expanding it never ends", top[0].start_mark, "invalid YAML")
        else:
            open_.add(cid)
            stack.append([child, children(child), 1])
    if sizes[id(root)] <= max_nodes:
        return
    n = root  # the smallest value that expands past the limit: where the repetition starts
    while True:
        big = next((c for c in children(n) if sizes.get(id(c), 0) > max_nodes), None)
        if big is None:
            break
        n = big
    raise YamlTooLarge(f"the aliases in this value expand to more than {max_nodes} values", n.start_mark)


def parse_yaml(text: str, max_nodes: int) -> tuple[Any, dict, list]:
    """Compose YAML and build data, span map and duplicates in one walk.

    Aliases are expanded as they are met; ``max_nodes`` bounds the expansion so an
    alias bomb ends in a clear error instead of eating memory.
    """
    import gc

    # Composing and building make a few objects per value and keep them all, so the cyclic
    # collector's passes (a fifth to three quarters of the time on a large file) find nothing to
    # free: it is paused meanwhile (nothing built here holds a cycle; a recursive alias is refused).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _parse_yaml(text, max_nodes)
    finally:
        if paused:
            gc.enable()


def _parse_yaml(text: str, max_nodes: int) -> tuple[Any, dict, list]:
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    node = yaml.compose(text, Loader=loader_cls)
    if node is None:
        return None, {}, []
    shared_free = not ("&" in text and "*" in text)  # no alias: no node is read twice
    if not shared_free:  # an anchor and perhaps an alias: measure before building
        _check_aliases(node, max_nodes)
    constructor = yaml.constructor.SafeConstructor()
    spans: dict = {}
    dups: list = []
    budget = [max_nodes]
    mk = _span_maker(text)
    scalar, key_text = _scalar_readers(constructor)

    # Iterative walk: (node, pointer, key span, the container to put its value in, at which key)
    root: list = [None]
    work = [(node, (), None, root, 0)]
    del node  # (the work list holds it: the composed nodes are freed as the walk reads them)
    mapping, sequence = yaml.MappingNode, yaml.SequenceNode
    while work:
        n, ptr, kspan, into, at_key = work.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise YamlTooLarge(f"more than {max_nodes} values after expanding aliases", n.start_mark)
        spans[ptr] = (kspan, mk(n))
        if isinstance(n, mapping):
            constructor.flatten_mapping(n)
            obj: dict = {}
            into[at_key] = obj
            seen: dict = {}
            items = []
            for kn, vn in n.value:
                k = key_text(kn)
                kspan = mk(kn)
                if k in seen:
                    dups.append(((*ptr, k), seen[k]))
                else:
                    seen[k] = kspan
                obj[k] = None
                items.append((vn, (*ptr, k), kspan, obj, k))
            work.extend(reversed(items))
            if shared_free:
                n.value = None  # (what it held is on the work list now: each node is freed once read)
        elif isinstance(n, sequence):
            arr: list = [None] * len(n.value)
            into[at_key] = arr
            work.extend(reversed([(vn, (*ptr, i), None, arr, i) for i, vn in enumerate(n.value)]))
            if shared_free:
                n.value = None
        else:
            into[at_key] = scalar(n)
    return root[0], spans, dups


def _span_maker(text: str) -> Callable[[Any], Span]:
    """The function that gives a composed node's span in ``text`` (columns in characters)."""
    at = Positions(text)
    if at.starts is None:
        new = tuple.__new__  # (Span's own constructor is a Python function: one call fewer per node)

        def mk(n) -> Span:
            s, e = n.start_mark, n.end_mark
            return new(Span, (s.line + 1, s.column + 1, e.line + 1, e.column + 1))
    else:
        def mk(n) -> Span:
            return Span(*at(n.start_mark.line, n.start_mark.column), *at(n.end_mark.line, n.end_mark.column))
    return mk


def _scalar_readers(constructor) -> tuple[Callable[[Any], Any], Callable[[Any], str]]:
    """(scalar, key_text): the value of a scalar node as JSON would hold it (dates and binary as
    the text written), and the text of a mapping key (a collection as a key is an error)."""
    import yaml

    plain = "tag:yaml.org,2002:str"

    def scalar(n) -> Any:
        if n.tag == plain:  # most values: the text itself (what the constructor would return)
            return n.value
        if n.tag == "tag:yaml.org,2002:timestamp":
            return n.value  # keep dates as the text the user wrote: JSON has no date type
        try:
            value = constructor.construct_object(n, deep=True)
        except ValueError:  # an integer too long to convert (Python's limit: 4,300 digits)
            raise yaml.constructor.ConstructorError(
                None, None, "a number with more than 4300 digits (mcplint reads at most 4300)", n.start_mark) from None
        if isinstance(value, (bytes, set)) or type(value).__module__ == "datetime":
            return n.value
        return value

    def key_text(n) -> str:
        if not isinstance(n, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value, not a collection", n.start_mark
            )
        v = scalar(n)
        if isinstance(v, bool):
            return "true" if v else "false"
        return "null" if v is None else str(v)

    return scalar, key_text
