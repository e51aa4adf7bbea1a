"""Apply the fixes of one file's findings to its text, round after round.

A round turns each distinct patch into one edit of the current text (an operation that
needs the text as an earlier one of the same patch left it is computed on that text),
keeps the edits that do not overlap an edit already kept (a conflicting fix waits for the
next round, when it is computed afresh on the new text), and checks that the edited text
parses back to exactly the data the patches give. Then the file is linted again and the
next round starts, until no fix is left to apply: a second ``--fix`` changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import McplintError
from ..model import Source
from .patch import PatchError, Split, apply_patch, minimal_edit, splice
from .safety import fixable

MAX_ROUNDS = 10


@dataclass
class Candidate:
    rule: str
    title: str
    patch: tuple
    count: int = 1  # findings sharing this patch (one per protocol version or profile, say)

    @property
    def key(self) -> str:
        return json.dumps(self.patch, sort_keys=True, default=str)


@dataclass
class FileFix:
    origin: str
    fmt: str
    before: str
    after: str
    applied: list = field(default_factory=list)  # (rule, title, findings)
    skipped: dict = field(default_factory=dict)  # patch key -> (rule, title, reason)
    rounds: int = 0
    converged: bool = True


def editor_for(fmt: str, text: str):
    """The text model of one format; a text that does not parse raises PatchError."""
    try:
        if fmt == "json":
            from .jsonedit import JsonText

            return JsonText(text)
        from .yamledit import YamlText

        return YamlText(text)
    except (ValueError, RecursionError) as e:  # json.JSONDecodeError is a ValueError
        raise PatchError(f"the edited text does not parse: {e}") from None
    except Exception as e:  # yaml's errors
        if type(e).__module__.startswith("yaml"):
            raise PatchError(f"the edited text does not parse: {e}") from None
        raise


def parse_data(origin: str, fmt: str, text: str):
    """The data mcplint's loader reads from ``text`` (raises McplintError when it does not parse)."""
    from ..load import parse

    return parse(Source(origin, text, fmt)).data


def edit_for(text: str, fmt: str, patch: tuple, base) -> tuple[int, int, str]:
    """One edit of ``text`` (whose editor is ``base``) that performs the whole patch."""
    current, editor, queue = text, base, list(patch)
    first = True
    while queue:
        op = queue.pop(0)
        try:
            start, end, repl = editor.edit(op)
        except Split as split:
            queue[0:0] = split.ops
            continue
        except (KeyError, TypeError) as e:
            raise PatchError(f"malformed operation {op!r}: {e}") from None
        if first and not queue:
            return start, end, repl
        first = False
        current = current[:start] + repl + current[end:]
        if queue:
            editor = editor_for(fmt, current)
    return minimal_edit(text, current)


def _overlaps(a: tuple, b: tuple) -> bool:
    (s1, e1, _), (s2, e2, _) = a, b
    if s1 == e1 or s2 == e2:  # an insertion conflicts with anything at or around its point
        return s2 <= s1 <= e2 if s1 == e1 else s1 <= s2 <= e1
    return s1 < e2 and s2 < e1


def candidates(findings, unsafe: bool) -> list[Candidate]:
    """The distinct patches of ``findings`` that may be applied, in the order of the text."""
    out: dict = {}
    for f in sorted(findings, key=lambda f: f.sort_key()):
        if not fixable(f, unsafe):
            continue
        c = Candidate(f.rule, f.fix.title, tuple(f.fix.patch))
        if c.key in out:
            out[c.key].count += 1
        else:
            out[c.key] = c
    return list(out.values())


def fix_round(origin: str, fmt: str, text: str, data, cands: list[Candidate], skipped: dict):
    """One round: (new text, candidates applied). Candidates that cannot be applied are
    recorded in ``skipped`` with the reason; those that only conflict are left for later."""
    base = editor_for(fmt, text)
    kept: list = []  # (candidate, edit)
    for c in cands:
        try:
            edit = edit_for(text, fmt, c.patch, base)
            apply_patch(data, c.patch)
        except PatchError as e:
            skipped[c.key] = (c.rule, c.title, str(e))
            continue
        if any(_overlaps(edit, other) for _, other in kept):
            continue  # conflicts with a fix already kept: computed again next round
        kept.append((c, edit))
    if not kept:
        return text, []
    new = splice(text, [e for _, e in kept])
    if _same(origin, fmt, new, data, [c for c, _ in kept]):
        return new, [c for c, _ in kept]
    # Together they do not give the patched data: apply them one at a time, each checked.
    applied = []
    for c, _ in kept:
        try:
            edit = edit_for(text, fmt, c.patch, editor_for(fmt, text))
        except PatchError as e:
            skipped[c.key] = (c.rule, c.title, str(e))
            continue
        trial = splice(text, [edit])
        if _same(origin, fmt, trial, data, [c]):
            text, data = trial, apply_patch(data, c.patch)
            applied.append(c)
        else:
            skipped[c.key] = (c.rule, c.title, "the edit would change more than the patch says (the text "
                                               "around it is unusual): apply it by hand")
    return text, applied


def _same(origin: str, fmt: str, text: str, data, cands) -> bool:
    try:
        got = parse_data(origin, fmt, text)
    except McplintError:
        return False
    expected = data
    try:
        for c in cands:
            expected = apply_patch(expected, c.patch)
    except PatchError:
        return False
    return _equal(got, expected)


def _equal(a, b) -> bool:
    """Equal as JSON values: booleans are not numbers, key order does not count."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def fix_text(origin: str, fmt: str, text: str, findings, relint, unsafe: bool = False) -> FileFix:
    """Fix one file's text. ``relint(text) -> findings`` lints an edited text again."""
    out = FileFix(origin, fmt, text, text)
    data = parse_data(origin, fmt, text)
    try:
        editor_for(fmt, text)
    except PatchError as e:  # mcplint reads it, but the editor cannot map it: leave the file alone
        for c in candidates(findings, unsafe):
            out.skipped[c.key] = (c.rule, c.title, f"the file cannot be edited safely ({e})")
        return out
    tried: set = set()
    for n in range(MAX_ROUNDS):
        cands = [c for c in candidates(findings, unsafe) if c.key not in out.skipped and c.key not in tried]
        if not cands:
            break
        new, applied = fix_round(origin, fmt, out.after, data, cands, out.skipped)
        out.rounds = n + 1
        if not applied:
            break
        tried |= {c.key for c in applied}
        try:
            new_data = parse_data(origin, fmt, new)
            new_findings = relint(new)
        except McplintError as e:  # the patched file is no longer one mcplint reads: undo the round
            for c in applied:
                out.skipped[c.key] = (c.rule, c.title, f"after this round of fixes mcplint could not read the "
                                                       f"file ({e.message}): fix it by hand")
            break
        out.applied += applied
        out.after, data, findings = new, new_data, new_findings
    else:
        out.converged = False
    for c in out.applied:  # a patch applied, then undone by a later one, counts once
        out.skipped.pop(c.key, None)
    return out
