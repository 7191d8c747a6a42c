"""Double-fork a daemon that sleeps for a minute after we exit; argv[1] marks it for the test to find."""

import os
import sys

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", sys.argv[1]])
    os._exit(0)
os.wait()
print("DAEMONIZED")
