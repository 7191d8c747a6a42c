"""python -m planval DOMAIN PROBLEM PLAN_JSON RESULT_JSON — always writes RESULT_JSON, never a traceback.

PLAN_JSON: {"plan": [{"action": NAME, "args": [OBJECT, …]}, …]} (a bare list, or steps written "(stack a b)",
are read too). RESULT_JSON: {"valid": bool, "length": n, "failing_step": i (1-based) or null,
"action": "stack(a, b)" or null, "reason": "…"}.
"""

from __future__ import annotations

import json
import sys

from .validate import validate_files, verdict


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print("usage: python -m planval DOMAIN PROBLEM PLAN_JSON RESULT_JSON", file=sys.stderr)
        return 2
    _, domain, problem, plan, out = argv
    try:
        result = validate_files(domain, problem, plan)
    except Exception as exc:  # noqa: BLE001 — the verdict file must exist whatever went wrong
        result = verdict(False, None, reason=f"the validator failed: {type(exc).__name__}: {exc}")
    with open(out, "w") as fh:
        json.dump(result, fh, indent=2)
        fh.write("\n")
    return 0 if result["valid"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
