"""Kill our parent: under a weak sandbox that is the host process running us."""

import os
import signal
import time

os.kill(os.getppid(), signal.SIGKILL)
print("SENT to", os.getppid(), flush=True)
time.sleep(1)
