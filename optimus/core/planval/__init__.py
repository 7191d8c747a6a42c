"""planval: a plan checked against PDDL as Fast Downward's translator reads it (translator.py), stepped on the
translator's task (semantics.py), in the sandbox; planner.py runs Fast Downward's own driver on the same files.

Shared by every family that produces plans (z3's horizon programs, the pddl family) and by the ground-truth
scripts. Imports nothing from optimus: the harness copies this package into a sandbox work dir and runs
`python -m planval DOMAIN PROBLEM PLAN_JSON RESULT_JSON`. reader.py (unified-planning's reader, made to read
as the translator does) and up_start.py serve the bench's ground truth, which plans through unified-planning.
"""

from .validate import validate_files

__all__ = ["validate_files"]
