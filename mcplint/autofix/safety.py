"""Whether ``--fix`` may apply a finding's fix (safe) or only ``--unsafe-fixes`` may (unsafe).

A fix is **safe** when it keeps what the schema accepts and what the tool means: it fixes the
form (a string where a boolean is meant, a boolean schema written as the equivalent object,
a misspelt dialect URI, the ``resultType: "complete"`` every 2026-07-28 result carries). It is
**unsafe** when it changes what the schema accepts (adding ``additionalProperties: false``,
enforcing a keyword that was ignored, making a property required), or when it removes data:
a member the spec does not define is removed only with ``--unsafe-fixes``, because the
server's own code or another client may read it (moving it under ``_meta`` keeps it; that is
a choice mcplint leaves to you).

Each rule declares this beside its code (``fix_safety=`` and ``fix_note=`` on
:func:`mcplint.registry.rule`; a rule whose patches differ says so per finding), and the
:class:`~mcplint.model.Fix` it yields carries the decision. A patch of a rule that declares
nothing is unsafe (a test keeps every rule with a patch declared).
"""

from __future__ import annotations


def fixable(f, unsafe: bool = False) -> bool:
    """Would ``--fix`` (with ``unsafe``: ``--fix --unsafe-fixes``) apply this finding's fix?
    Not for a finding in a Python server's generated tools (mcplint does not edit code), nor in a
    probe's capture (``/captures/...``: it records what the server sent; the fix belongs in the
    server, and a probe without ``--save`` has no file at all)."""
    if f.fix is None or not f.fix.patch or getattr(f, "source", None) is not None:
        return False
    if f.pointer and f.pointer[0] == "captures":
        return False
    return unsafe or f.fix.safe
