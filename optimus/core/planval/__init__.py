"""planval: a plan checked against PDDL by unified-planning's sequential plan validator, in the sandbox.

Shared by every family that produces plans (z3's horizon programs, the pddl family) and by the ground-truth
scripts. Imports nothing from optimus: the harness copies this package into a sandbox work dir and runs
`python -m planval DOMAIN PROBLEM PLAN_JSON RESULT_JSON`. A sandbox-side process calls
`up_start.start_unified_planning()` before its first use of unified-planning (it skips a ~1.5 s import).
"""

from .validate import validate_files

__all__ = ["validate_files"]
