"""Projection step: checking the result. The projected schema is evaluated again with the
profile's own evaluator; what the target still does not enforce is removed (reported) or,
where that is impossible, the tool is left out. Nothing is left that the target would
reject, drop or weaken unannounced."""

from __future__ import annotations

from ..profiles.describe import describe
from ..profiles.evaluate import evaluate_slot
from .tree import ORIGIN, WORK, LeftOut, at_pointer, charge, keyword_origin, origin_of, strip

EVAL_WORK = 5  # units of work per node the check of the result evaluates (see .projector)


class SoundnessStep:
    # ------------------------------------------------------------ checking the result
    def _verify(self, work: dict) -> None:
        """Check the projection with the profile's own evaluator; remove what is still not
        enforced (reported), and give up on the tool where that is impossible."""
        for _ in range(6):
            before = WORK[0]
            clean = strip(work)
            charge(EVAL_WORK * (WORK[0] - before))  # (the strip counted the nodes the evaluation reads)
            effects = evaluate_slot(self.p, clean)
            todo = []
            for e in effects:
                cons = self.p.consequence(e.rule)
                if cons in ("reject", "drop", "fail-list", "weaken"):
                    todo.append(e)
                elif cons == "rewrite" and e.kind not in ("keyword",):
                    node = at_pointer(work, e.pointer[:-1]) if e.pointer else work
                    self.add("target-rewrite", e.subject, keyword_origin(node, e.pointer[-1]) if e.pointer and
                             isinstance(node, dict) else origin_of(work), describe(self.p, e))
            if not todo:
                return
            for e in todo:
                if e.kind in ("keyword", "regex") and e.pointer:
                    parent = at_pointer(work, e.pointer[:-1])
                    if isinstance(parent, dict) and e.pointer[-1] == "oneOf" and "anyOf" not in parent and \
                            self.enforces("anyOf"):
                        self._oneof_to_anyof(parent, e.rule)
                        continue
                    if isinstance(parent, dict) and e.pointer[-1] in parent:
                        where = keyword_origin(parent, e.pointer[-1])
                        parent.pop(e.pointer[-1])
                        self.add("weakened", e.subject, where, f"'{e.pointer[-1]}' removed: {describe(self.p, e)}")
                        continue
                node = at_pointer(work, e.pointer) if e.pointer else work
                where = origin_of(node) if isinstance(node, dict) and ORIGIN in node else tuple(e.pointer)
                raise LeftOut(e.subject, where, describe(self.p, e) + " The projection cannot repair this, so "
                                                                      "the tool is left out.")
        raise LeftOut("projection", (), "the projection did not settle within its bounds")
