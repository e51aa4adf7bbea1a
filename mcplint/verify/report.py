"""`mcplint verify --report`: the keyword x target matrix, as Markdown.

One row per probe of the suite (a keyword, or one variant of it), one column per
built-in profile. A cell is what the profile says the target does with that keyword,
derived by the profile's own evaluation of the probe's schema (the same code the DEC
rules run). Local-decoder columns are checked live where the decoder is installed: a
cell where the live verdict differs says so, so a stale profile cannot hide here.
"""

from __future__ import annotations

from ..profiles import builtin_names, load_profile
from .compare import claim
from .suite import PROBES

KIND_ORDER = {"hosted": 0, "client": 1, "decoder": 2}
CELL = {"enforced": "✓", "dropped": "drop", "rejected": "reject", "over-constrained": "rewrite"}
LIVE_WORD = {"enforced": "enforced", "dropped": "dropped", "rejected": "rejected",
             "over-constrained": "over-constrained"}


def cell(profile, probe) -> str:
    return CELL[claim(profile, probe, focus=True).verdict]


def _columns():
    profiles = [load_profile(n) for n in builtin_names()]
    return sorted(profiles, key=lambda p: (KIND_ORDER.get(p.kind, 9), p.name))


def render(live: dict | None = None) -> str:
    """``live``: decoder profile name -> list of Outcomes from a real run (optional)."""
    live = live or {}
    cols = _columns()
    live_by = {name: {o.probe.id: o for o in outs} for name, outs in live.items()}
    head = "| keyword | probe | " + " | ".join(f"`{p.name}`" for p in cols) + " |"
    sep = "|---|---|" + "---|" * len(cols)
    lines = [head, sep]
    for probe in PROBES:
        cells = []
        for p in cols:
            text = cell(p, probe)
            o = live_by.get(p.name, {}).get(probe.id)
            if o is not None:
                full = claim(p, probe)
                if full.verdict != o.verdict:
                    text += f" (live: {LIVE_WORD[o.verdict]})"
            cells.append(text)
        lines.append(f"| `{probe.keyword}` | {probe.id} | " + " | ".join(cells) + " |")
    verified = [p for p in cols if p.verified_with]
    notes = [
        "",
        "✓ enforced (or an annotation that constrains nothing) · **drop**: accepted but not enforced, the model "
        "can break it · **reject**: the request fails, the grammar does not compile, the client leaves the "
        "tool out, or it loses the server's whole tool list · **rewrite**: changed before or while decoding (for a local decoder: some valid values can "
        "no longer be produced).",
        "",
        "Kinds: " + "; ".join(f"`{p.name}` {p.kind}" for p in cols) + ".",
    ]
    if verified:
        notes += ["", "Checked against the real package by `mcplint verify` (the profile's `verified_with`): "
                  + "; ".join(f"`{p.name}` with {p.verified_with['package']} {p.verified_with['version']} "
                              f"({p.verified_with['date']})" for p in verified) + "."]
    return "\n".join(lines + notes) + "\n"
