"""Text edits for one JSON Patch operation on a JSON document, from the source map's offsets.

Only the text an operation changes is rewritten: a replaced value's own characters; a removed
member with the comma and whitespace that separated it; an added member after the last one,
with the same separator (newline, indentation, tabs or CRLF) as the members before it and the
same spacing around its colon. Everything else stays byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from ..jsonparse import parse_json
from ..sourcemap import json_spans
from .patch import PatchError, Split, get, resolve

_WS = " \t\r\n"


class JsonText:
    def __init__(self, text: str):
        self.text = text
        self.data, _ = parse_json(text)
        self.offsets = json_spans(text, find_duplicates=False)[0].offsets  # into ``text``, a BOM included
        self.children: dict = {}
        for ptr in sorted(self.offsets, key=lambda p: self.offsets[p][2]):
            if ptr:
                self.children.setdefault(ptr[:-1], []).append(ptr)

    # ------------------------------------------------------------ helpers
    def _start(self, ptr: tuple) -> int:
        ks, _, vs, _ = self.offsets[ptr]
        return ks if ks >= 0 else vs

    def _entry(self, ptr: tuple) -> tuple:
        entry = self.offsets.get(ptr)
        if entry is None:
            raise PatchError(f"{'/'.join(map(str, ptr))} has no place in the text")
        return entry

    @staticmethod
    def render(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    def _separator(self, parent: tuple) -> str:
        """The text between two items of ``parent`` after the comma (or after the bracket, for
        a single item): the newline and indentation this container uses."""
        items = self.children.get(parent, [])
        text = self.text
        if len(items) >= 2:
            end_prev = self.offsets[items[-2]][3]
            comma = text.index(",", end_prev)
            return text[comma + 1:self._start(items[-1])]
        vs = self.offsets[parent][2]
        sep = text[vs + 1:self._start(items[0])] if items else ""
        return sep or " "

    def _colon(self, parent: tuple) -> str:
        for ptr in self.children.get(parent, []):
            ks, ke, vs, _ = self.offsets[ptr]
            if ks >= 0:
                return self.text[ke:vs]
        for ks, ke, vs, _ in self.offsets.values():  # an empty object: the file's usual spacing
            if ks >= 0:
                return self.text[ke:vs]
        return ": "

    # ------------------------------------------------------------ operations
    def edit(self, op: dict) -> tuple[int, int, str]:
        """The edit (start, end, replacement) that performs ``op`` on this text."""
        name = op.get("op")
        if name == "replace":
            ptr = resolve(op["path"], self.data)
            get(self.data, ptr)
            _, _, vs, ve = self._entry(ptr)
            return vs, ve, self.render(op["value"])
        if name == "remove":
            ptr = resolve(op["path"], self.data)
            get(self.data, ptr)
            return self._remove(ptr)
        if name == "add":
            ptr = resolve(op["path"], self.data)
            if not ptr:
                _, _, vs, ve = self._entry(())
                return vs, ve, self.render(op["value"])
            parent = get(self.data, ptr[:-1])
            if isinstance(parent, dict):
                if ptr[-1] in parent:
                    _, _, vs, ve = self._entry(ptr)
                    return vs, ve, self.render(op["value"])
                member = self.render(str(ptr[-1])) + self._colon(ptr[:-1]) + self.render(op["value"])
                return self._append(ptr[:-1], member)
            if isinstance(parent, list):
                index = len(parent) if ptr[-1] == "-" else ptr[-1]
                if not isinstance(index, int) or index > len(parent):
                    raise PatchError(f"{op['path']}: index out of range")
                if index == len(parent):
                    return self._append(ptr[:-1], self.render(op["value"]))
                at = self._start((*ptr[:-1], index))
                sep = self._separator(ptr[:-1]) if len(parent) >= 2 else " "
                return at, at, self.render(op["value"]) + "," + sep
            raise PatchError(f"{op['path']}: the parent is not an object or array")
        if name == "move":
            src, dst = resolve(op["from"], self.data), resolve(op["path"], self.data)
            value = get(self.data, src)
            parent = get(self.data, src[:-1]) if src else None
            if (src and dst and src[:-1] == dst[:-1] and isinstance(parent, dict) and dst[-1] not in parent):
                ks, ke, _, _ = self._entry(src)  # a rename: only the key changes
                return ks, ke, self.render(str(dst[-1]))
            raise Split([{"op": "remove", "path": op["from"]}, {"op": "add", "path": op["path"], "value": value}])
        if name == "copy":
            value = get(self.data, resolve(op["from"], self.data))
            raise Split([{"op": "add", "path": op["path"], "value": value}])
        if name == "test":
            if get(self.data, resolve(op["path"], self.data)) != op.get("value"):
                raise PatchError(f"test failed at {op['path']}")
            return 0, 0, ""
        raise PatchError(f"unsupported patch operation {name!r}")

    def _remove(self, ptr: tuple) -> tuple[int, int, str]:
        if not ptr:
            raise PatchError("cannot remove the document root")
        items = self.children.get(ptr[:-1], [])
        i = items.index(ptr)
        if len(items) == 1:  # the only item: leave the empty brackets
            _, _, vs, ve = self.offsets[ptr[:-1]]
            return vs + 1, ve - 1, ""
        if i < len(items) - 1:  # up to the next item: this one, its comma and the whitespace after
            return self._start(ptr), self._start(items[i + 1]), ""
        return self.offsets[items[i - 1]][3], self.offsets[ptr][3], ""  # the last: from the previous one's end

    def _append(self, parent: tuple, item: str) -> tuple[int, int, str]:
        items = self.children.get(parent, [])
        _, _, vs, ve = self._entry(parent)
        if not items:
            inner = self.text[vs + 1:ve - 1]
            if inner.strip(_WS):
                raise PatchError("unexpected text inside an empty container")
            return vs + 1, vs + 1, item
        end = self.offsets[items[-1]][3]
        return end, end, "," + self._separator(parent) + item
