"""PuLP with CBC or HiGHS: LPs and MILPs. The program captures its model as model.mps; the harness re-solves
it with HiGHS (and CBC for a MILP) in the sandbox and explains an infeasible model by its statements."""

from __future__ import annotations

from optimus.families import Family


class PulpFamily(Family):
    def recheck(self, ctx, ex):
        from optimus.verify import Verdict, verify_execution

        if not (ex.workdir / "model.mps").exists() and not (ex.workdir / "model.mps").is_symlink():
            # Without the captured model nothing independent stands behind the answer: unverified, never solved
            # on the program's word (tests may still verify it).
            return Verdict("skipped", "unverified: the program wrote no model.mps (the PuLP rules ask for it), "
                           "so nothing re-solved its model", claimed=ex.solution or {})
        return verify_execution(ctx, ex)


FAMILY = PulpFamily("pulp", "LP and MILP (linear objective and constraints; integer or binary variables)",
                    problem_types=("LP", "MILP"))
