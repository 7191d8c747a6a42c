"""Fork until refused (bounded at argv[2] children, which sleep). argv[1] is a marker the test looks for."""

import os
import sys
import time

limit, forked = int(sys.argv[2]), 0
try:
    for _ in range(limit):
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        forked += 1
    print("FORKED", forked, flush=True)
except OSError as exc:
    print("BLOCKED", forked, exc.strerror, flush=True)
    raise SystemExit(1)
