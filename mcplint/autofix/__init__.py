"""``mcplint scan --fix``: apply the JSON Patch of each finding's fix to the file it came from,
rewriting only the text the patch changes (see :mod:`.jsonedit`, :mod:`.yamledit`).

Which fixes ``--fix`` may apply each rule declares beside its code (``fix_safety=`` on
:func:`mcplint.registry.rule`; the policy is in :mod:`.safety`): a *safe* fix keeps what the
schema accepts and what the tool means; an *unsafe* one changes it and needs ``--unsafe-fixes``.
:mod:`.apply` picks non-overlapping fixes, checks the edited text parses back to exactly the
patched data, and repeats until nothing more applies.
"""
