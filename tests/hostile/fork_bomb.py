"""Fork until refused (bounded at argv[2] children, which sleep). argv[1] is a marker the test looks for.
With argv[3], first write the file "ready" and wait for the file argv[3] to appear in the work dir (the test
changes the machine in between)."""

import os
import sys
import time

limit, forked = int(sys.argv[2]), 0
if len(sys.argv) > 3:
    open("ready", "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(sys.argv[3]) and time.monotonic() < deadline:
        time.sleep(0.01)
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
