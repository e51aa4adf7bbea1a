"""Projection step: keyword by keyword. A keyword the target does not enforce is removed
(an annotation or a non-standard keyword: no accepted value changes), loosened to the
nearest bound the target accepts, or removed as a weakening; a ``pattern`` with a feature
the target cannot run is removed, an unanchored one wrapped to keep its meaning."""

from __future__ import annotations

from ..profiles.facts import regex_features
from ..profiles.model import METADATA_KEYWORDS, NON_CONSTRAINING, STANDARD_KEYWORDS
from ..profiles.vacuous import vacuous
from .tree import HIDDEN, LOWER_BOUNDS, UPPER_BOUNDS, is_number, keyword_origin, short_text


class KeywordSteps:
    # -- keyword by keyword
    def _keywords(self, node: dict, at_root: bool) -> None:
        for kw in list(node):
            if kw in HIDDEN or kw not in node:
                continue
            value = node[kw]
            r = self.action(kw, node, at_root, None)
            if r is None or r.action == "annotation":
                continue
            if r.action == "enforce":
                if kw == "pattern" and r.regex and isinstance(value, str):
                    self._pattern(node, r)
                continue
            if r.action == "rewrite":
                self.add("target-rewrite", kw, keyword_origin(node, kw),
                         f"{self.p.display} changes '{kw}' ({short_text(value)}): {self.why(r, kw, value)}")
                continue
            self._drop_keyword(node, kw, r)

    def _pattern(self, node: dict, r) -> None:
        value = node["pattern"]
        feats = regex_features(value, (r.regex.get("large_repetition") or r).threshold or 100)
        bad = [f for f in feats if f in r.regex and r.regex[f].action in ("reject", "drop") and f != "unanchored"]
        if bad:
            fr = r.regex[bad[0]]
            node.pop("pattern")
            self.add("weakened", "pattern", keyword_origin(node, "pattern"),
                     f"'pattern' {value!r} removed ({self.why(fr, 'pattern', value)}): the model can produce "
                     "strings that do not match it")
            return
        if "unanchored" in feats and "unanchored" in r.regex and r.regex["unanchored"].action != "enforce":
            node["pattern"] = "^[\\s\\S]*(?:" + value + ")[\\s\\S]*$"
            self.add("rewritten", "pattern", keyword_origin(node, "pattern"),
                     f"'pattern' {value!r} wrapped so that {self.p.display}, which matches the whole string, "
                     "keeps JSON Schema's match-anywhere meaning; same accepted values")

    def _drop_keyword(self, node: dict, kw: str, r) -> None:
        value = node.pop(kw)
        where = keyword_origin(node, kw)
        reason = self.why(r, kw, value)
        if kw in NON_CONSTRAINING or kw in METADATA_KEYWORDS or kw in ("$anchor", "$dynamicAnchor", "$vocabulary"):
            self.add("removed", kw, where, f"annotation '{kw}' removed ({reason}); no accepted value changes")
            return
        if kw not in STANDARD_KEYWORDS:
            self.add("removed", kw, where, f"'{kw}' removed ({reason}); it is not a JSON Schema keyword, so no "
                                           "accepted value changes")
            return
        if kw == "additionalProperties" and (value is True or value == {}):
            self.add("removed", kw, where, f"'additionalProperties: {short_text(value)}' removed ({reason}); it is the "
                                           "default, so no accepted value changes")
            return
        plain = {k: v for k, v in value.items() if k not in HIDDEN} if isinstance(value, dict) else value
        if vacuous(kw, plain):  # zod's propertyNames {"type": "string"}, minLength 0, a pattern "[a-z]*"
            self.add("removed", kw, where, f"'{kw}' ({short_text(value)}) removed ({reason}); it accepts every value "
                                           "it applies to, so no accepted value changes")
            return
        # a bound the target accepts only in a weaker form: keep the nearest weaker value
        cond = self.p.keyword_rule(kw).when if self.p.keyword_rule(kw) is not None else None
        if cond is not None and cond.value_in and is_number(value):
            allowed = [x for x in cond.value_in if is_number(x)]
            weaker = [x for x in allowed if x <= value] if kw in LOWER_BOUNDS else \
                [x for x in allowed if x >= value] if kw in UPPER_BOUNDS else []
            if weaker:
                nv = max(weaker) if kw in LOWER_BOUNDS else min(weaker)
                node[kw] = nv
                self.add("weakened", kw, where, f"'{kw}' lowered from {value} to {nv} ({reason}): the model can "
                         f"produce values the original rejects" if kw in LOWER_BOUNDS else
                         f"'{kw}' raised from {value} to {nv} ({reason})")
                return
        self.add("weakened", kw, where, f"'{kw}' ({short_text(value)}) removed ({reason}): the model can produce "
                                        "values that break it; keep the check in the server")
