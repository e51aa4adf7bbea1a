"""Pattern features that depend on one target's regex engine rather than on a construct
most engines share (inline modifiers such as ``(?i)`` or ``(?i:..)``: xAI's subset has none):
the dialect features of :mod:`.regex_features`, which the evaluator asks for only when a profile
has a rule for one of them.
"""

from __future__ import annotations

from .regex_features import REGEX_FEATURES

DIALECT_FEATURES = frozenset(f.name for f in REGEX_FEATURES.values() if f.dialect)


def dialect_features(pattern: str) -> list[str]:
    return [f.name for f in REGEX_FEATURES.values() if f.dialect and f.detect(pattern, 0)]
