"""LPs and MILPs, solved with HiGHS; programs build through pyoptinterface (the codegen rules, solver_pulp.txt;
the name stays from when they used PuLP, which reference programs still do). The program captures its model as
model.mps; the harness re-solves it with HiGHS (and CBC for a MILP) in the sandbox and explains an infeasible
model by its statements."""

from __future__ import annotations

from optimus.core.families import Family


class PulpFamily(Family):
    def recheck(self, ctx, ex):
        from optimus.core.families.pulp.verify import verify_execution

        return verify_execution(ctx, ex)  # without model.mps: "skipped", unverified (verify._verify says why)


FAMILY = PulpFamily("pulp", "LP and MILP (linear objective and constraints; integer or binary variables)",
                    problem_types=("LP", "MILP"))
