"""Pattern features that depend on one target's regex engine rather than on a construct
most engines share: inline modifiers such as ``(?i)`` or ``(?i:..)`` (xAI's subset has
none). Kept apart from :func:`.facts.regex_features`; the evaluator asks for these only
when a profile has a rule for one of them.
"""

from __future__ import annotations

import re

_INLINE_MODIFIER = re.compile(r"(?<!\\)(?:\\\\)*\(\?[a-zA-Z]*-?[a-zA-Z]+[:)]")
DIALECT_FEATURES = frozenset({"inline_modifier"})


def dialect_features(pattern: str) -> list[str]:
    return ["inline_modifier"] if _INLINE_MODIFIER.search(pattern) else []
