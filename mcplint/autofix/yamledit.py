"""Text edits for one JSON Patch operation on a YAML document, from the composed node marks.

Only the text an operation changes is rewritten. A replaced scalar keeps its quoting style
where the new value allows it; a removed block-mapping member takes its lines (and the
comments on them) with it; an added member goes on a new line after the mapping's last
one, at the same indentation, with the line ending of the line above (CRLF stays CRLF).
Flow collections (``{a: 1}``, ``[x, y]``) are edited like JSON. Comments, anchors, quoting
and spacing anywhere else stay byte for byte.

A value shared through an anchor and its aliases, or merged in with ``<<``, is not edited
(the edit would change every place that shares it): such a fix is reported as not applied.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..yamlmap import parse_yaml
from .patch import PatchError, Split, get, resolve

_PLAIN = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$./@-]*$")
_RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "nan", "inf"}


def _plain_ok(s: str) -> bool:
    """A string that reads back as the same string when written without quotes, in block
    and in flow context."""
    if not _PLAIN.match(s) or s.lower() in _RESERVED or s.lower().lstrip(".") in _RESERVED:
        return False
    import yaml

    try:
        return yaml.safe_load(f"k: {s}") == {"k": s} and yaml.safe_load(f"[{s}]") == [s]
    except yaml.YAMLError:
        return False


def render(value: Any, style: str | None = None) -> str:
    """A value as YAML text that fits anywhere a flow node does: scalars plain where that is
    unambiguous (else in the old value's quote style, else JSON's), collections as JSON."""
    if isinstance(value, str):
        if style == "'" and "\n" not in value:
            return "'" + value.replace("'", "''") + "'"
        if style in (None, "") and _plain_ok(value):
            return value
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value)


class YamlText:
    def __init__(self, text: str):
        import yaml

        self.text = text
        self.data, _, _ = parse_yaml(text, 2_000_000)
        # The loader mcplint reads YAML with (libyaml where present); a mark's line and column
        # become an offset through the line starts YAML itself counts (CRLF, CR, LF, NEL, LS, PS).
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        self.starts = [0] + [m.end() for m in re.finditer("\r\n|[\r\n\x85\u2028\u2029]", text)]
        # YAML does not count a leading byte-order mark as a column (both loaders): line 1's
        # columns start after it
        self.starts[0] = 1 if text[:1] == "\ufeff" else 0
        self.nodes: dict = {}  # pointer -> (key node or None, value node)
        self.shared: set = set()  # pointers whose node also appears elsewhere (anchor/alias)
        self.merged: set = set()  # mappings holding a << merge key
        seen: dict = {}
        work = [((), None, root)] if root is not None else []
        while work:
            ptr, key, node = work.pop()
            self.nodes[ptr] = (key, node)
            if id(node) in seen:
                self.shared.add(ptr)
                self.shared.add(seen[id(node)])
                continue
            seen[id(node)] = ptr
            if isinstance(node, yaml.MappingNode):
                for kn, vn in node.value:
                    if kn.tag == "tag:yaml.org,2002:merge":
                        self.merged.add(ptr)
                        continue
                    k = kn.value if isinstance(kn, yaml.ScalarNode) else None
                    if k is None:
                        continue
                    work.append(((*ptr, self._key_of(kn)), kn, vn))
            elif isinstance(node, yaml.SequenceNode):
                for i, vn in enumerate(node.value):
                    work.append(((*ptr, i), None, vn))

    def _i(self, mark) -> int:
        """A mark as an offset into the text."""
        return self.starts[mark.line] + mark.column if mark.line < len(self.starts) else len(self.text)

    def _key_of(self, kn) -> str:
        import yaml

        value = yaml.constructor.SafeConstructor().construct_object(kn)
        if isinstance(value, bool):
            return "true" if value else "false"
        return "null" if value is None else str(value)

    # ------------------------------------------------------------ helpers
    def _node(self, ptr: tuple):
        if ptr not in self.nodes:
            raise PatchError(f"{'/'.join(map(str, ptr))} has no place in the text")
        for k in range(len(ptr) + 1):
            if ptr[:k] in self.shared:
                raise PatchError("the value is shared through a YAML anchor and alias: editing it would change "
                                 "every place that uses it")
            if ptr[:k] in self.merged:
                raise PatchError("the mapping merges members in with <<: edit it by hand")
        return self.nodes[ptr]

    def _children(self, ptr: tuple) -> list:
        kids = [p for p in self.nodes if len(p) == len(ptr) + 1 and p[:-1] == ptr]
        return sorted(kids, key=lambda p: self._i(self.nodes[p][1].start_mark))

    def _end(self, node) -> int:
        """Where a node's own text ends: a block collection ends with its last item (its end
        mark lies past any comments and blank lines that follow); a block scalar without the
        line break after it."""
        import yaml

        if isinstance(node, yaml.ScalarNode):
            if self._empty(node):  # `key:` with nothing after it: its marks may lie on the next line
                return -1
            end = self._i(node.end_mark)
            if node.style in ("|", ">"):
                while end > self._i(node.start_mark) and self.text[end - 1] in " \t\r\n":
                    end -= 1
            return end
        if node.flow_style or not node.value:
            return self._i(node.end_mark)
        last = node.value[-1]
        if isinstance(node, yaml.MappingNode):
            return max(self._end(last[0]), self._end(last[1]))
        return self._end(last)

    @staticmethod
    def _empty(node) -> bool:
        return node.value == "" and node.style is None

    def _line_start(self, pos: int) -> int:
        return self.text.rfind("\n", 0, pos) + 1

    def _line_end(self, pos: int) -> int:
        """The offset just after the line break that ends the line holding ``pos`` (the text's
        length on a last line without one)."""
        nl = self.text.find("\n", pos)
        return len(self.text) if nl < 0 else nl + 1

    def _newline(self, pos: int) -> str:
        nl = self.text.find("\n", pos)
        if nl > 0 and self.text[nl - 1] == "\r":
            return "\r\n"
        if nl < 0 and "\r\n" in self.text:
            return "\r\n"
        return "\n"

    def _after_deeper_comments(self, at: int, indent: int) -> int:
        """Past the comment lines right after ``at`` that are indented deeper than ``indent``
        (they belong to the block above, so a new member goes after them)."""
        text = self.text
        while at < len(text):
            end = self._line_end(at)
            line = text[at:end]
            stripped = line.lstrip(" ")
            if not stripped.startswith("#") or len(line) - len(stripped) <= indent:
                break
            at = end
        return at

    def _dash(self, item) -> int:
        """The offset of the ``-`` that introduces a block sequence item."""
        at = self._i(item.start_mark)
        dash = self.text.rfind("-", 0, at)
        if dash < 0 or dash + 1 == at or self.text[dash + 1:at].strip(" "):
            raise PatchError("cannot find the item's dash")
        return dash

    def _only_indent_before(self, pos: int) -> bool:
        return not self.text[self._line_start(pos):pos].strip(" ")

    # ------------------------------------------------------------ operations
    def edit(self, op: dict) -> tuple[int, int, str]:
        name = op.get("op")
        if name in ("replace", "add") and resolve(op["path"], self.data) == ():
            raise PatchError("replacing the whole document is left to you")
        if name == "replace":
            ptr = resolve(op["path"], self.data)
            get(self.data, ptr)
            return self._replace(ptr, op["value"])
        if name == "remove":
            ptr = resolve(op["path"], self.data)
            get(self.data, ptr)
            return self._remove(ptr)
        if name == "add":
            ptr = resolve(op["path"], self.data)
            parent = get(self.data, ptr[:-1])
            if isinstance(parent, dict):
                if ptr[-1] in parent:
                    return self._replace(ptr, op["value"])
                return self._add_member(ptr[:-1], str(ptr[-1]), op["value"])
            if isinstance(parent, list):
                index = len(parent) if ptr[-1] == "-" else ptr[-1]
                if index != len(parent):
                    raise PatchError("inserting into the middle of a YAML sequence is left to you")
                return self._append_item(ptr[:-1], op["value"])
            raise PatchError(f"{op['path']}: the parent is not a mapping or sequence")
        if name == "move":
            src, dst = resolve(op["from"], self.data), resolve(op["path"], self.data)
            value = get(self.data, src)
            parent = get(self.data, src[:-1]) if src else None
            if src and dst and src[:-1] == dst[:-1] and isinstance(parent, dict) and dst[-1] not in parent:
                key, _ = self._node(src)
                return self._i(key.start_mark), self._i(key.end_mark), render(str(dst[-1]), key.style)
            raise Split([{"op": "remove", "path": op["from"]}, {"op": "add", "path": op["path"], "value": value}])
        if name == "copy":
            raise Split([{"op": "add", "path": op["path"], "value": get(self.data, resolve(op["from"], self.data))}])
        if name == "test":
            if get(self.data, resolve(op["path"], self.data)) != op.get("value"):
                raise PatchError(f"test failed at {op['path']}")
            return 0, 0, ""
        raise PatchError(f"unsupported patch operation {name!r}")

    def _replace(self, ptr: tuple, value: Any) -> tuple[int, int, str]:
        import yaml

        key, node = self._node(ptr)
        style = None
        if isinstance(node, yaml.ScalarNode):
            if self._empty(node):
                raise PatchError("the value is empty in the text: write it by hand")
            style = '"' if node.style in ("|", ">") else node.style
        return self._value_range(key, node, render(value, style))

    def _value_range(self, key, node, text: str) -> tuple[int, int, str]:
        """An edit putting ``text`` in place of ``node``'s value. A block collection under a key
        starts on the next line; its flow replacement goes after the key, on the key's line."""
        import yaml

        if key is not None and not isinstance(node, yaml.ScalarNode) and not node.flow_style:
            return self._i(key.end_mark), self._end(node), ": " + text
        return self._i(node.start_mark), self._end(node), text

    def _remove(self, ptr: tuple) -> tuple[int, int, str]:
        import yaml

        if not ptr:
            raise PatchError("cannot remove the document root")
        _, parent = self._node(ptr[:-1])
        self._node(ptr)
        items = self._children(ptr[:-1])
        i = items.index(ptr)

        def start(p):  # where an item's text begins: its key, or its dash in a block sequence
            key, node = self.nodes[p]
            if key is None and not parent.flow_style:
                return self._dash(node)
            return self._i((key or node).start_mark)

        if len(items) == 1:
            if parent.flow_style:
                return self._i(parent.start_mark) + 1, self._i(parent.end_mark) - 1, ""
            empty = "[]" if isinstance(parent, yaml.SequenceNode) else "{}"
            return self._value_range(self.nodes[ptr[:-1]][0], parent, empty)
        if parent.flow_style:
            if i < len(items) - 1:
                return start(ptr), start(items[i + 1]), ""
            return self._end(self.nodes[items[i - 1]][1]), self._end(self.nodes[ptr][1]), ""
        if i < len(items) - 1:  # up to the next item's key or dash (which starts its own line)
            return start(ptr), start(items[i + 1]), ""
        key, node = self.nodes[ptr]
        first_char = start(ptr)
        if not self._only_indent_before(first_char):
            raise PatchError("the member does not start its own line")
        end = max(self._end(key), self._end(node)) if key is not None else self._end(node)
        line_end = self._line_end(end)
        first = self._line_start(first_char)
        if line_end == len(self.text) and not self.text.endswith("\n") and first > 0:
            cut = first - 1  # the last line, without a break: take the break before it
            if cut > 0 and self.text[cut - 1] == "\r":
                cut -= 1
            return cut, line_end, ""
        return first, line_end, ""

    def _add_member(self, parent_ptr: tuple, key: str, value: Any) -> tuple[int, int, str]:
        _, parent = self._node(parent_ptr)
        import yaml

        if not isinstance(parent, yaml.MappingNode):
            raise PatchError("the parent is not a mapping")
        member = f"{render(key)}: {render(value)}"
        if parent.flow_style:
            if not parent.value:
                at = self._i(parent.start_mark) + 1
                return at, at, member
            end = self._end(parent.value[-1][1])
            return end, end, ", " + member
        indent = " " * parent.value[0][0].start_mark.column
        end = self._end(parent)
        at = self._after_deeper_comments(self._line_end(end), len(indent))
        nl = self._newline(end)
        if at == len(self.text) and not self.text.endswith("\n"):
            return at, at, nl + indent + member
        return at, at, indent + member + nl

    def _append_item(self, parent_ptr: tuple, value: Any) -> tuple[int, int, str]:
        _, parent = self._node(parent_ptr)
        import yaml

        if not isinstance(parent, yaml.SequenceNode):
            raise PatchError("the parent is not a sequence")
        if parent.flow_style:
            if not parent.value:
                at = self._i(parent.start_mark) + 1
                return at, at, render(value)
            end = self._end(parent.value[-1])
            return end, end, ", " + render(value)
        first = self._i(parent.value[0].start_mark)
        dash = self._dash(parent.value[0])
        indent = " " * (dash - self._line_start(dash))
        gap = self.text[dash + 1:first]
        end = self._end(parent)
        at = self._after_deeper_comments(self._line_end(end), len(indent))
        nl = self._newline(end)
        item = f"{indent}-{gap if gap.strip() == '' and gap else ' '}{render(value)}"
        if at == len(self.text) and not self.text.endswith("\n"):
            return at, at, nl + item
        return at, at, item + nl
