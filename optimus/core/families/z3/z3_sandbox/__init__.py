"""The z3 family's sandbox side: the horizon driver of multi-step programs and the independent re-check.

Imports nothing from optimus: the harness copies this package into a sandbox work dir and runs
`python -m z3_sandbox horizon REQUEST` (in the program's run) or `python -m z3_sandbox recheck REQUEST RESULT`
(in a fresh work dir, on what the run left).
"""
