"""How much a profile fact rests on: the kind of evidence (the source's tag), its age, and
whether it stands on one field report only. Used by ``mcplint profile NAME`` so a user can
judge a fact before acting on a finding that cites it."""

from __future__ import annotations

import datetime as _dt
from .model import Source

KIND_OF_TAG = {"D": "vendor docs", "S": "vendor source", "X": "decoder run", "I": "field report", "?": "unverified"}
DEFAULT_MAX_AGE_DAYS = 365

LEGEND = (
    "Evidence lines: the kind of evidence (its tag, explained below), how many independent sources, and the "
    "age (days since the source was last read). Marks: STALE = older than {max_age} days (--max-age), "
    "re-check it; SINGLE REPORT = one field report and nothing else behind it.")


def age_days(source: Source, today: _dt.date) -> int | None:
    try:
        return (today - _dt.date.fromisoformat(source.seen)).days
    except ValueError:
        return None


def single_report(source: Source) -> bool:
    """A fact resting on one field report: tag I and no further source."""
    return source.tag == "I" and not source.also


def marks(source: Source, today: _dt.date, max_age: int) -> list[str]:
    out = []
    age = age_days(source, today)
    if age is not None and age > max_age:
        out.append("STALE")
    if single_report(source):
        out.append("SINGLE REPORT")
    return out


def evidence_words(source: Source, today: _dt.date, max_age: int) -> str:
    """``[I] field report, 3 sources, 1 day old; SINGLE REPORT`` for one fact."""
    kind = KIND_OF_TAG.get(source.tag or "", "untagged")
    tag = f"[{source.tag}] " if source.tag else ""
    n = 1 + len(source.also)
    age = age_days(source, today)
    bits = [f"{tag}{kind}"]
    if n > 1:
        bits.append(f"{n} sources")
    if age is not None:
        bits.append(f"{age} day{'s' * (age != 1)} old")
    text = ", ".join(bits)
    m = marks(source, today, max_age)
    return text + ("; " + ", ".join(m) if m else "")
