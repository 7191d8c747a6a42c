"""cvxpy: convex nonlinear problems (QP, convex NLP). cvxpy has no model file a second solver could read, so
there is no independent re-solve: a run is verified by tests only."""

from __future__ import annotations

from optimus.core.families import Family

FAMILY = Family("cvxpy", "convex nonlinear problems: quadratic or other convex objectives and constraints",
                problem_types=("QP", "NLP"))
