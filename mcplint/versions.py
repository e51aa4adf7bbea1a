"""MCP protocol versions mcplint knows, oldest first."""

from __future__ import annotations

VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
LATEST = VERSIONS[-1]
ALL = frozenset(VERSIONS)


def since(version: str) -> frozenset[str]:
    """Every known version from ``version`` on (inclusive)."""
    return frozenset(v for v in VERSIONS if v >= version)


def before(version: str) -> frozenset[str]:
    """Every known version older than ``version``."""
    return frozenset(v for v in VERSIONS if v < version)


_ORDERED: dict = {}


def ordered(versions) -> tuple[str, ...]:
    key = versions if isinstance(versions, frozenset) else frozenset(versions)
    hit = _ORDERED.get(key)
    if hit is None:
        hit = tuple(v for v in VERSIONS if v in key)
        if len(_ORDERED) < 4096:  # subsets of a handful of versions: few distinct keys in practice
            _ORDERED[key] = hit
    return hit


def is_known(version: str) -> bool:
    return version in ALL
