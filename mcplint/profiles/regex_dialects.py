"""Pattern features that depend on a target's regex engine rather than on a construct
every engine shares: a pattern Python's ``re`` cannot compile (OpenAI checks tool
patterns that way), and inline modifiers such as ``(?i)`` (xAI's subset has none).

Kept apart from :func:`.facts.regex_features`; the evaluator asks for these only when a
profile has a rule for one of them (compiling every pattern costs time).
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

# \z is an error in Python's re before 3.14 (3.14 accepts it as \Z): flag it on every version,
# so a finding does not depend on which Python runs mcplint.
_PY_ONLY_BEFORE_314 = re.compile(r"(?<!\\)(?:\\\\)*\\z")
# a global flag group after the start is an error from Python 3.11 on (3.10 only warns)
_LATE_GLOBAL_FLAGS = re.compile(r"(?<!^)(?<!\\)\(\?[aiLmsux]+\)")
_INLINE_MODIFIER = re.compile(r"(?<!\\)(?:\\\\)*\(\?[a-zA-Z]*-?[a-zA-Z]+[:)]")


@lru_cache(maxsize=4096)
def python_re_rejects(pattern: str) -> bool:
    """True when Python's ``re`` cannot compile ``pattern`` (\\p{..}, (?<name>..), \\z, ...)."""
    if _PY_ONLY_BEFORE_314.search(pattern) or _LATE_GLOBAL_FLAGS.search(pattern):
        return True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FutureWarning on nested sets and the like is not an error
        try:
            re.compile(pattern)
        except (re.error, OverflowError, RecursionError, ValueError):
            return True
    return False


DIALECT_FEATURES = frozenset({"not_python_re", "inline_modifier"})


def dialect_features(pattern: str) -> list[str]:
    out = []
    if python_re_rejects(pattern):
        out.append("not_python_re")
    if _INLINE_MODIFIER.search(pattern):
        out.append("inline_modifier")
    return out
