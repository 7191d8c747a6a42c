"""python -m z3_sandbox horizon REQUEST | recheck REQUEST RESULT (see the modules)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[1] == "horizon":
        from .horizon import main as horizon

        return horizon(argv[2])
    if len(argv) >= 4 and argv[1] == "recheck":
        from .recheck import main as recheck

        return recheck(argv[2], argv[3])
    print("usage: python -m z3_sandbox horizon REQUEST | recheck REQUEST RESULT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
