"""Regular expressions from untrusted schemas: ECMA-262 validity and catastrophic backtracking.

JSON Schema ``pattern`` and ``patternProperties`` are ECMA-262 regular expressions, a
dialect Python's ``re`` does not implement. Validity is decided by ``regress`` (Rust's
ECMA-262 engine), once without and once with the ``u`` flag that JSON Schema 2020-12
recommends and validators such as Ajv use by default.

The backtracking check (:func:`analyse`) is a static analysis of the pattern's structure.
It looks for two repetitions that can take the same text, joined by a path through the
pattern on which everything else is optional or made of characters both can take, and with
something after them that can still fail (otherwise the first attempt succeeds):

* when the path goes round an enclosing repetition (``(a+)+``, ``(\\w+\\s?)*``,
  ``([a-z]+?\\.[a-z]+)+%``, ``(.*a){12}``) the number of ways to split the text grows
  exponentially with its length; so it does for an alternation under a repetition whose
  branches can start with the same character or be empty (``(a|aa)+``, ``(\\w|\\d)*``),
  and for a large counted repetition of something optional (``(a?){25}``);
* otherwise it grows polynomially (``\\d+\\d+$``, ``^\\d+([.,]?\\d+)?$``,
  ``.*a.*a.*b``), the degree being the number of repetitions in the chain; an unanchored
  search tries every start, which adds one (``\\s*$`` is quadratic).

The structure comes from Python's own regular-expression parser run on an
ECMA-to-Python transliteration of the pattern (:mod:`.tree`); a pattern it cannot read,
or whose analysis passes its step budget, is reported as not analysed, never guessed at.
Results are cached per pattern string.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .advice import attack, rewrite
from .search import STEP_BUDGET, Search
from .tree import GiveUp, Tree, parse_error_types

__all__ = ["Validity", "validity", "Risk", "Outcome", "analyse", "analysis", "STEP_BUDGET"]


# --------------------------------------------------------------------- validity

@dataclass(frozen=True)
class Validity:
    ok: bool  # valid ECMA-262 without flags (Annex B syntax included)
    unicode_ok: bool  # valid with the u flag
    error: str = ""
    unicode_error: str = ""


@lru_cache(maxsize=4096)
def validity(pattern: str) -> Validity:
    import regress  # lazily: only schemas with patterns pay for it

    try:
        regress.Regex(pattern)
        ok, err = True, ""
    except Exception as e:  # regress.RegressError
        ok, err = False, str(e)
    try:
        regress.Regex(pattern, "u")
        uok, uerr = True, ""
    except Exception as e:
        uok, uerr = False, str(e)
    return Validity(ok, uok, err, uerr)


# --------------------------------------------------------------------- backtracking

@dataclass(frozen=True)
class Risk:
    kind: str  # "exponential" | "polynomial"
    why: str
    degree: int = 0  # for polynomial: the degree, when known (0: unknown)
    attack: str = ""  # e.g. "'a.a' + 'aa.a' x 30 + '!'"
    rewrite: str = ""  # an equivalent unambiguous pattern, when one is mechanical

    @property
    def summary(self) -> str:
        if self.kind == "polynomial" and self.degree:
            return {2: "quadratic", 3: "cubic"}.get(self.degree, f"polynomial (degree {self.degree})") + \
                (" (polynomial)" if self.degree <= 3 else "")
        return self.kind


@dataclass(frozen=True)
class Outcome:
    risk: Risk | None = None
    gave_up: str = ""  # why the analysis did not finish ("" when it did)


@lru_cache(maxsize=4096)
def analysis(pattern: str) -> Outcome:
    """The worst backtracking risk of an ECMA-262 pattern, or why it could not be analysed."""
    try:
        tree = Tree(pattern)
    except RecursionError:
        return Outcome(gave_up="it nests too deeply for the analysis")
    except parse_error_types() as e:
        return Outcome(gave_up=f"the analysis cannot read it ({e})")
    search = Search(tree)
    try:
        hits = search.run()
    except GiveUp:
        return Outcome(gave_up=f"the analysis passed its budget of {STEP_BUDGET:,} steps")
    except RecursionError:
        return Outcome(gave_up="it nests too deeply for the analysis")
    if not hits:
        return Outcome()
    hit = next((h for h in hits if h.kind == "exponential"), hits[0])
    try:
        att = attack(tree, hit)
    except (GiveUp, RecursionError):
        att = ""
    return Outcome(Risk(hit.kind, hit.why, hit.degree if hit.kind == "polynomial" else 0, att,
                        rewrite(pattern, hit.kind)))


def analyse(pattern: str) -> Risk | None:
    """The worst backtracking risk of an ECMA-262 pattern, or None (safe or not analysed)."""
    return analysis(pattern).risk


analyse.cache_clear = analysis.cache_clear  # type: ignore[attr-defined]
