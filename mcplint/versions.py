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


def ordered(versions) -> tuple[str, ...]:
    return tuple(v for v in VERSIONS if v in set(versions))


def is_known(version: str) -> bool:
    return version in ALL
