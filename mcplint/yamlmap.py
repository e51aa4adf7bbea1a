"""YAML: ``yaml.compose`` keeps a mark on every node, including both sides of a duplicated
key, so one walk yields the data, the source map and the duplicates together. The map is
``{pointer tuple: (key span or None, value span)}``, as :mod:`mcplint.sourcemap` has it for JSON."""

from __future__ import annotations

from typing import Any

from .model import Span


class YamlTooLarge(Exception):
    pass


def parse_yaml(text: str, max_nodes: int) -> tuple[Any, dict, list]:
    """Compose YAML and build data, span map and duplicates in one walk.

    Aliases are expanded as they are met; ``max_nodes`` bounds the expansion so an
    alias bomb ends in a clear error instead of eating memory.
    """
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    node = yaml.compose(text, Loader=loader_cls)
    if node is None:
        return None, {}, []
    constructor = yaml.constructor.SafeConstructor()
    spans: dict = {}
    dups: list = []
    budget = [max_nodes]

    def mk(n) -> Span:
        return Span(n.start_mark.line + 1, n.start_mark.column + 1, n.end_mark.line + 1, n.end_mark.column + 1)

    def scalar(n) -> Any:
        if n.tag == "tag:yaml.org,2002:timestamp":
            return n.value  # keep dates as the text the user wrote: JSON has no date type
        value = constructor.construct_object(n, deep=True)
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

    # Iterative walk: (node, pointer, key span, setter)
    root: list = [None]
    work = [(node, (), None, lambda v: root.__setitem__(0, v))]
    while work:
        n, ptr, kspan, put = work.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise YamlTooLarge(f"more than {max_nodes} values after expanding aliases")
        spans[ptr] = (kspan, mk(n))
        if isinstance(n, yaml.MappingNode):
            constructor.flatten_mapping(n)
            obj: dict = {}
            put(obj)
            seen: dict = {}
            items = []
            for kn, vn in n.value:
                k = key_text(kn)
                if k in seen:
                    dups.append(((*ptr, k), seen[k]))
                else:
                    seen[k] = mk(kn)
                obj[k] = None
                items.append((vn, (*ptr, k), mk(kn), (lambda o, k: lambda v: o.__setitem__(k, v))(obj, k)))
            work.extend(reversed(items))
        elif isinstance(n, yaml.SequenceNode):
            arr: list = [None] * len(n.value)
            put(arr)
            work.extend(
                reversed([(vn, (*ptr, i), None, (lambda a, i: lambda v: a.__setitem__(i, v))(arr, i))
                          for i, vn in enumerate(n.value)])
            )
        else:
            put(scalar(n))
    return root[0], spans, dups
