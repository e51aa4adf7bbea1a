"""Decoder profiles: what a constrained decoder, a hosted strict mode or an MCP client
does with each JSON Schema keyword and construct of a tool's schema.

A profile is data (``profiles/*.yaml``, shipped in the wheel as ``mcplint._profiles``;
users may pass their own file by path). The package is in four parts:

* :mod:`.loader` reads and validates profile files (``mcplint/data/profile.schema.json``,
  ``extends``, file:line:column errors) into the model of :mod:`.model` (rules, limits,
  sources) and :mod:`.conditions` (``when:``); :mod:`.store` keeps the shipped profiles in
  that form once parsed (one cache file, rebuilt when any shipped profile changes).
* the evaluator: :mod:`.facts` (what a slot is, whichever profile asks), :mod:`.compiled`
  (a profile's rules resolved once), :mod:`.evaluate` (:func:`evaluate_slot`: a profile
  and a schema give :class:`Effect` values) and :mod:`.request` (:func:`evaluate_tool`,
  :func:`evaluate_request`: tool names, descriptions, per-request limits).
* :mod:`.describe`: the words for an effect, and for a profile (``mcplint profiles``,
  ``mcplint profile NAME``).

The DEC rules report the effects; a projection (:mod:`mcplint.project`) consumes the
same decisions through :meth:`Profile.decide`. The names below are the package's API.
"""

from __future__ import annotations

from .conditions import Condition
from .describe import LIMIT_WORDS, describe, evidence_line, fill, iter_facts, message
from .evaluate import Effect, evaluate_slot
from .facts import SlotFacts, regex_features
from .loader import (alias_set, builtin_names, check_names, default_set, expand_names, load_profile, load_profiles,
                     profile_schema, strict_set)
from .model import (ACTIONS, ALIASES, DEFAULT_ALIAS, METADATA_KEYWORDS, NON_CONSTRAINING, ON_REJECT, REFUSALS,
                    STANDARD_KEYWORDS, STRICT_ALIAS, Limit, Profile, Rule, Source, ToolName)
from .request import evaluate_request, evaluate_tool

__all__ = [
    "ACTIONS", "ALIASES", "DEFAULT_ALIAS", "LIMIT_WORDS", "METADATA_KEYWORDS", "NON_CONSTRAINING", "ON_REJECT", "REFUSALS",
    "STANDARD_KEYWORDS",
    "STRICT_ALIAS", "Condition", "Effect", "Limit", "Profile", "Rule", "SlotFacts", "Source",
    "ToolName", "alias_set", "builtin_names", "check_names", "default_set", "describe", "evaluate_request", "evaluate_slot",
    "evaluate_tool", "evidence_line", "expand_names", "fill", "iter_facts", "load_profile", "message",
    "load_profiles", "profile_schema", "regex_features", "strict_set",
]
